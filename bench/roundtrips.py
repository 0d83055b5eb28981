"""Database round trips per write: every statement the server sends (BEGIN, COMMIT and
savepoints included) for a claim, a poll vote, a gift-idea upvote, a sweep create and a
change of a ballot by its participant token, each
sent once through the whole kernel (rate limit, resolution, the tool's handler, version
bump, notify) by Quart's test client, in process.

    uv run python bench/roundtrips.py                       # SQLite
    uv run python bench/roundtrips.py --postgres postgresql://…/db   # and PostgreSQL

On PostgreSQL every statement is a round trip to the server; on SQLite each is a call into
the library (cheap, but each still parses or steps a statement). `count_writes` is what
tests/test_roundtrips.py holds the counts to.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from groupkit import Settings
from groupkit import create_app


class _Counting:
    """A DB-API cursor that records each statement it executes."""

    def __init__(self, cursor: Any, seen: list[str]) -> None:
        self._cursor, self._seen = cursor, seen

    def execute(self, sql: str, *args: Any) -> Any:
        self._seen.append(sql)
        return self._cursor.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cursor, name)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._cursor)


@contextlib.contextmanager
def counting(db: Any) -> Iterator[list[str]]:
    """Every statement `db` executes while the block runs (in any thread)."""
    seen: list[str] = []
    original = db.cursor

    def cursor(*args: Any, **kwargs: Any) -> _Counting:
        return _Counting(original(*args, **kwargs), seen)

    db.cursor = cursor
    try:
        yield seen
    finally:
        del db.cursor


WRITES = ("claim (plate)", "vote (poll)", "upvote (gift idea)", "create (sweep, 20 names)",
          "change (poll ballot, by its token)")


async def count_writes(database_url: str, production: bool = True) -> dict[str, list[str]]:
    """The statements each write of `WRITES` runs, once the instances exist (the first
    write of each kind is a warm-up: caches filled, counter row of the hour made)."""
    settings = Settings(database_url=database_url, database_threads=4,
                        mode="production" if production else "development",
                        post_per_hour=1_000_000, create_per_hour=1_000_000)
    app = create_app(settings.replace(enabled_tools=("plate", "poll", "giftidea", "sweeps")))
    db = app.config["GROUPKIT_STORAGE"].db
    try:
        async with app.test_app() as test_app:
            client = test_app.test_client()

            async def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
                response = await client.post(path, json=body)
                assert response.status_code in (200, 201), (path, await response.get_data())
                return dict(await response.get_json())

            plate = await post("/api/plate", {"title": "Lunch", "categories": [
                {"name": "Soup", "capacity": 20}]})
            poll = await post("/api/poll", {"question": "Lunch?", "options": [
                "Pizza", "Sushi"], "allowSuggestions": True})
            gift = await post("/api/giftidea", {"recipient": "Sam"})
            idea = (await post("/api/giftidea/suggest", {"slug": gift["slug"],
                                                         "idea": "Book"}))["id"]
            options = [option["id"] for option in (await (await client.get(
                f"/api/poll/{poll['slug']}")).get_json())["tally"]]
            ballot = (await post("/api/poll/vote", {
                "slug": poll["slug"], "choices": options[:1], "voterName": "Chooser"}))["token"]
            sweep = {"outcomes": [f"Team {i}" for i in range(20)],
                     "names": [f"Person {i}" for i in range(20)]}
            bodies: dict[str, tuple[str, Any]] = {
                "claim (plate)": ("/api/plate/claim", lambda n: {
                    "slug": plate["slug"], "slotId": f"c0-{n + 1}", "name": "Ann",
                    "dish": "Soup"}),
                "vote (poll)": ("/api/poll/vote", lambda n: {
                    "slug": poll["slug"], "choices": [], "suggestion": "Pizza",
                    "voterName": f"Voter {n}"}),
                "upvote (gift idea)": ("/api/giftidea/upvote", lambda n: {
                    "slug": gift["slug"], "ideaId": idea}),
                "create (sweep, 20 names)": ("/api/sweeps", lambda n: sweep),
                "change (poll ballot, by its token)": (f"/api/poll/v/{ballot}", lambda n: {
                    "choices": options[n % 2:n % 2 + 1]}),
            }
            counts: dict[str, list[str]] = {}
            for name, (path, body) in bodies.items():
                await post(path, body(0))
                with counting(db) as seen:
                    await post(path, body(1))
                counts[name] = list(seen)
            return counts
    finally:
        app.config["GROUPKIT_STORAGE"].close()


def report(label: str, counts: dict[str, list[str]], verbose: bool) -> None:
    print(f"{label}:")
    for name, statements in counts.items():
        print(f"  {name}: {len(statements)} statements")
        if verbose:
            for sql in statements:
                print(f"      {' '.join(sql.split())[:110]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--postgres", help="postgresql:// URL of an empty database (or schema)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the statements")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'roundtrips.db'}"
        report("SQLite", asyncio.run(count_writes(url)), args.verbose)
    if args.postgres:
        report("PostgreSQL", asyncio.run(count_writes(args.postgres)), args.verbose)


if __name__ == "__main__":
    main()
