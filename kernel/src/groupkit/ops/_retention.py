"""Retention: tools that keep only recent data (a weekly wall, a pulse) declare `Tool.prune`;
the kernel runs every such hook on a schedule inside the server and on demand from
`groupkit prune`, so old data goes whether or not anyone visits.

Each tool's prune runs in one write transaction under a database-wide lock, so several
workers (or hosts) waking together do the work once; pruning is idempotent anyway.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable
from collections.abc import Mapping

from groupkit.core._storage import Instance
from groupkit.core._storage import Storage
from groupkit.core._storage import advisory_lock
from groupkit.core._tool import Tool

log = logging.getLogger("groupkit.retention")


def _prune_one(tool: Tool, now: dt.datetime) -> int:
    assert tool.prune is not None
    advisory_lock(f"groupkit-prune-{tool.name}")
    removed = tool.prune(now)
    if removed:
        # Pages are cached per instance version (see `groupkit.core._rendered`): what was pruned
        # must not stay on a cached page, in any worker.
        Instance.update(version=Instance.version + 1).where(Instance.tool == tool.name).execute()
    return removed


def prune_all(storage: Storage, tools: Mapping[str, Tool], now: dt.datetime) -> dict[str, int]:
    """Run every enabled tool's prune now (synchronously); returns rows removed per tool."""
    return {name: storage.run_sync(_prune_one, tool, now)
            for name, tool in tools.items() if tool.prune is not None}


async def prune_forever(storage: Storage, tools: Mapping[str, Tool],
                        clock: Callable[[], dt.datetime], every_seconds: float) -> None:
    """The server's retention task: prune at start-up, then every `every_seconds`."""
    pruning = {name: tool for name, tool in tools.items() if tool.prune is not None}
    while pruning:
        for name, tool in pruning.items():
            try:
                removed = await storage.write(_prune_one, tool, clock())
            except Exception:
                log.exception("prune of %s failed; will retry", name)
                continue
            if removed:
                log.info("pruned %d row(s) of %s", removed, name)
        await asyncio.sleep(every_seconds)
