"""The ASGI application for any ASGI server: `hypercorn groupkit.asgi:app` (settings from
`$GROUPKIT_CONFIG`). `groupkit serve` runs it under the supervisor; this module is the stable
address deployments name."""

from __future__ import annotations

from groupkit.ops._asgi import app

__all__ = ["app"]
