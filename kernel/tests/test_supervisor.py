"""The supervisor on its own: a worker that fails before it serves (here: hypercorn cannot
load the application) stops the start-up with that worker's own summary and traceback, for
`serve` to log as its one line."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypercorn.asyncio.run import asyncio_worker
from hypercorn.config import Config

from groupkit.ops._supervisor import StartFailed
from groupkit.ops._supervisor import Supervisor


def test_a_worker_that_fails_before_serving_stops_the_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
        ) -> None:
    config = tmp_path / "groupkit.toml"
    config.write_text(f'[database]\nurl = "sqlite:///{tmp_path}/g.db"\n[tools]\n'
                      'enabled = ["sweeps"]\n', encoding="utf-8")
    monkeypatch.setenv("GROUPKIT_CONFIG", str(config))  # what the worker's app reads
    monkeypatch.delenv("GROUPKIT_DATABASE_URL", raising=False)
    monkeypatch.delenv("GROUPKIT_MODE", raising=False)
    exited: list[int] = []
    hypercorn = Config()
    hypercorn.application_path = "groupkit.no_such_module:app"  # fails inside the worker only
    hypercorn.bind = ["127.0.0.1:0"]
    sockets = hypercorn.create_sockets()
    supervisor = Supervisor(asyncio_worker, hypercorn, sockets, 2, on_worker_exit=exited.append)
    served: list[bool] = []
    with pytest.raises(StartFailed) as failed:
        supervisor.serve(lambda: served.append(True))
    assert not served
    for sock in sockets.insecure_sockets:
        sock.close()
    assert failed.value.summary.startswith("NoAppError: ")
    assert "groupkit.no_such_module" in failed.value.trace and failed.value.hint
    assert all(slot.process is None or not slot.process.is_alive()
               for slot in supervisor.slots)
    assert exited  # every worker that ended was reported (metrics files forgotten)
    # The workers leave the telling to the master: `serve` logs one line, not one per worker.
    assert "worker stopped" not in capfd.readouterr().err


@pytest.mark.server
@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")
def test_workers_are_forked_from_a_master_without_threads(
        live_server: Callable[..., Any]) -> None:
    """A forked worker starts with every module the master imported and every tool it
    loaded (half the start-up CPU of a spawned one); forking is safe only because the master
    holds no other thread then, nor afterwards when it replaces a worker."""
    server = live_server(workers=2, tools=["sweeps"])
    master = server.process.pid
    workers = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    assert len(workers) == 2
    command = Path(f"/proc/{master}/cmdline").read_bytes()
    # A spawned worker's command line is `python -c "from multiprocessing.spawn import …"`.
    assert [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in workers] == [command] * 2
    assert _threads(master) == 1
    with server.client() as client:
        assert client.get("/healthz").status_code == 200


def _threads(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    return int(next(line for line in status if line.startswith("Threads:")).split()[1])
