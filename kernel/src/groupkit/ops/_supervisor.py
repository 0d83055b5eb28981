"""`groupkit serve`'s master process: it binds the listening sockets, starts hypercorn
workers, and keeps them running.

Hypercorn's own multi-worker runner stops the whole service, with exit status 0, as soon as
one worker dies. Here a worker that dies after it started serving is logged and replaced
(after a back-off that grows while workers keep dying), while the other workers go on
answering on the shared sockets. A worker that dies before it serves (a bad setting, an
unreachable database) stops the service at start-up with one JSON line and a non-zero exit
status, so that systemd records the failure. "serving" is logged once every worker serves.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from multiprocessing.connection import Connection
from multiprocessing.connection import wait
from multiprocessing.context import ForkContext
from multiprocessing.context import SpawnContext
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event
from typing import Any

from groupkit.core import _logs as logs

log = logging.getLogger("groupkit.supervisor")

#: Exit status when the service cannot start (systemd's Restart=on-failure then applies).
START_FAILED = 1
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0
#: A worker that served this long before dying resets its slot's back-off.
STABLE_SECONDS = 30.0
#: Replacements in a row that die before serving: then the service gives up (exit 1).
GIVE_UP_AFTER = 5
POLL_SECONDS = 0.5

WorkerFunc = Callable[[Any, Any, Event], None]

#: How workers start. On Linux a worker is forked from the master, which has migrated and so
#: imported every module and loaded every tool: a worker (and a replacement after a crash)
#: then serves after building the app only. Started afresh ("spawn"), each worker imported
#: and loaded it all again: 2.1 CPU-seconds to a served `groupkit serve` of 1 worker,
#: against 1.2. The master holds no thread, event loop or database connection when it forks.
#: Elsewhere (macOS, whose system libraries do not survive a fork) workers are spawned.
START_METHOD = "fork" if sys.platform == "linux" else "spawn"


class StartFailed(RuntimeError):
    """Workers could not start; `summary`, `hint` and `trace` come from the first one."""

    def __init__(self, summary: str, hint: str, trace: str) -> None:
        super().__init__(summary)
        self.summary, self.hint, self.trace = summary, hint, trace


def _watch_parent(shutdown: Event) -> None:
    """End this worker when the master is gone (killed with SIGKILL, say), instead of
    serving on unsupervised."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        shutdown.set()

    threading.Thread(target=watch, name="groupkit-parent-watch", daemon=True).start()


def worker_main(worker_func: WorkerFunc, config: Any, sockets: Any, shutdown: Event,
                report: Connection) -> None:
    """One worker process: build the app, tell the master when it serves (or why it could
    not start), then serve until the master sets `shutdown`."""
    # Only the master reacts to Ctrl+C and SIGTERM; it then stops the workers gracefully.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    logs.configure()
    _watch_parent(shutdown)
    serving = False
    try:
        from groupkit.ops import _asgi as asgi

        @asgi.app.before_serving
        async def tell_master() -> None:  # registered last: runs once the app is ready
            nonlocal serving
            serving = True
            report.send(("ready",))

        worker_func(config, sockets, shutdown)
    except BaseException as error:
        summary, hint = logs.describe(error)
        trace = "".join(traceback.format_exception(error)).rstrip()
        try:
            if serving:
                raise OSError("the master logs start-up failures only")
            report.send(("failed", summary, hint, trace))  # the master logs it, once
        except OSError:
            log.error("worker stopped: %s", summary, extra={"traceback": trace})
        raise SystemExit(1) from None


@dataclass
class _Slot:
    number: int
    process: BaseProcess | None = None
    report: Connection | None = None
    ready: bool = False
    started: float = 0.0
    failures: int = 0
    restart_at: float | None = None
    last_failure: tuple[str, str, str] | None = field(default=None)


class Supervisor:
    """Start `count` workers on `sockets` and keep them running until SIGTERM or SIGINT."""

    def __init__(self, worker_func: WorkerFunc, config: Any, sockets: Any, count: int,
                 on_worker_exit: Callable[[int], None] | None = None) -> None:
        self.worker_func, self.config, self.sockets = worker_func, config, sockets
        self.context: ForkContext | SpawnContext = (
            multiprocessing.get_context("fork") if START_METHOD == "fork"
            else multiprocessing.get_context("spawn"))
        self.shutdown = self.context.Event()
        self.slots = [_Slot(number) for number in range(1, count + 1)]
        self.on_worker_exit = on_worker_exit
        self.stopping = False

    # --- processes ------------------------------------------------------------------------

    def _spawn(self, slot: _Slot) -> None:
        reader, writer = self.context.Pipe(duplex=False)
        process = self.context.Process(
            target=worker_main, name=f"groupkit-worker-{slot.number}",
            args=(self.worker_func, self.config, self.sockets, self.shutdown, writer))
        process.start()
        writer.close()
        slot.process, slot.report, slot.ready = process, reader, False
        slot.started, slot.restart_at = time.monotonic(), None

    def _read_report(self, slot: _Slot) -> None:
        assert slot.report is not None
        try:
            message = slot.report.recv()
        except (EOFError, OSError):
            slot.report.close()
            slot.report = None
            return
        if message[0] == "ready":
            slot.ready = True
            if slot.failures or slot.last_failure:
                log.warning("worker %s replaced", slot.number, extra={
                    "worker": slot.number, "worker_pid": slot.process and slot.process.pid})
            slot.last_failure = None
        elif message[0] == "failed":
            slot.last_failure = (message[1], message[2], message[3])

    def _reap(self, slot: _Slot) -> bool:
        """Whether the slot's worker has exited (and is reaped)."""
        process = slot.process
        if process is None or process.is_alive():
            return False
        process.join()
        if slot.report is not None:  # a last report may still be in the pipe
            while slot.report is not None and slot.report.poll():
                self._read_report(slot)
            if slot.report is not None:
                slot.report.close()
                slot.report = None
        if self.on_worker_exit is not None and process.pid is not None:
            self.on_worker_exit(process.pid)
        return True

    @staticmethod
    def _exit_text(process: BaseProcess) -> str:
        code = process.exitcode
        if code is not None and code < 0:
            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(-code).name}"
        return f"exit status {code}"

    # --- life cycle -----------------------------------------------------------------------

    def _stop(self, *_: object) -> None:
        self.stopping = True

    def start(self) -> None:
        """Start every worker and wait until all serve; `StartFailed` if one cannot."""
        for slot in self.slots:
            self._spawn(slot)
        while not all(slot.ready for slot in self.slots):
            if self.stopping:
                return
            self._wait_once()
            for slot in self.slots:
                if slot.process is not None and not slot.ready and self._reap(slot):
                    summary, hint, trace = slot.last_failure or (
                        f"worker {slot.number} {self._exit_text(slot.process)} before it "
                        "served", "see the lines above", "")
                    self.stop()
                    raise StartFailed(summary, hint, trace)

    def _wait_once(self) -> None:
        waiting: list[Any] = [slot.report for slot in self.slots if slot.report is not None]
        waiting += [slot.process.sentinel for slot in self.slots
                    if slot.process is not None and slot.process.is_alive()]
        timeout = POLL_SECONDS
        pending = [slot.restart_at for slot in self.slots if slot.restart_at is not None]
        if pending:
            timeout = max(0.0, min(timeout, min(pending) - time.monotonic()))
        if not waiting:
            time.sleep(timeout)
            return
        for ready in wait(waiting, timeout):
            for slot in self.slots:
                if ready is slot.report:
                    self._read_report(slot)

    def run(self) -> None:
        """Keep the workers running until a signal; `StartFailed` when replacements keep
        dying before they serve."""
        while not self.stopping:
            self._wait_once()
            now = time.monotonic()
            for slot in self.slots:
                if slot.process is not None and slot.restart_at is None and self._reap(slot):
                    self._schedule_restart(slot, now)
                if slot.restart_at is not None and slot.restart_at <= now and not self.stopping:
                    self._spawn(slot)

    def _schedule_restart(self, slot: _Slot, now: float) -> None:
        assert slot.process is not None
        served_long = slot.ready and now - slot.started >= STABLE_SECONDS
        slot.failures = 0 if served_long else slot.failures + 1
        if not slot.ready and slot.failures >= GIVE_UP_AFTER:
            summary, hint, trace = slot.last_failure or (
                f"worker {slot.number} keeps dying before it serves", "see the lines above",
                "")
            self.stop()
            raise StartFailed(summary, hint, trace)
        delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** max(0, slot.failures - 1))
        why = f" before it served ({slot.last_failure[0]})" if slot.last_failure else ""
        log.error("worker %s (pid %s) died%s: %s; starting a new one in %.1f s", slot.number,
                  slot.process.pid, why, self._exit_text(slot.process), delay, extra={
                      "worker": slot.number, "worker_pid": slot.process.pid,
                      "exitcode": slot.process.exitcode, "restart_in": delay,
                      "traceback": slot.last_failure[2] if slot.last_failure else None})
        slot.restart_at = now + delay
        slot.process = None

    def stop(self) -> None:
        """Ask every worker to finish its requests, then make sure they are gone."""
        self.shutdown.set()
        deadline = time.monotonic() + float(getattr(self.config, "graceful_timeout", 3)) + 10
        for slot in self.slots:
            if slot.process is None:
                continue
            slot.process.join(max(0.0, deadline - time.monotonic()))
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join()
            if self.on_worker_exit is not None and slot.process.pid is not None:
                self.on_worker_exit(slot.process.pid)

    def serve(self, on_serving: Callable[[], None]) -> int:
        """Start, call `on_serving`, supervise until SIGTERM/SIGINT; the exit status."""
        previous = {number: signal.signal(number, self._stop)
                    for number in (signal.SIGINT, signal.SIGTERM)}
        try:
            self.start()
            if self.stopping:
                self.stop()
                return 0
            on_serving()
            self.run()
            self.stop()
            log.info("stopped")
            return 0
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
