"""The benchmark's server: the real groupkit app, plus one bare Quart JSON route that never
touches the database. Every scenario is reported as a ratio to that route, measured on the
same server, with the same workers, in the same run.

    hypercorn bench.app:app   (settings from $GROUPKIT_CONFIG, like groupkit.asgi)
"""

from __future__ import annotations

from quart import Response

from groupkit.asgi import app


@app.get("/bench/bare")
async def bare() -> Response:
    return Response('{"ok":true}', content_type="application/json")


__all__ = ["app"]
