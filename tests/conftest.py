"""Cross-tool fixtures. `live_server` (real `groupkit serve` processes on loopback, on SQLite
or PostgreSQL) comes from the kit, `groupkit_testing`, as it does for any plugin's tests;
this file adds the screenshot helper and its summary, the chat tests' local receiver and
clock, the wait that keeps a rate-limit count inside one clock hour, and the email tests'
SMTP server.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chat_receiver import Receiver
from mail_receiver import MailServer

from groupkit_testing import FakeClock

REPO = Path(__file__).resolve().parents[1]
SCREENSHOT_DIR = REPO / "artifacts" / "screenshots"

#: When this run began: screenshots written since are listed in the terminal summary (under
#: pytest-xdist the workers write them, so the directory is read rather than a list kept).
RUN_STARTED = time.time()


@pytest.fixture(scope="session")
def screenshot() -> Callable[[Any, str], Path]:
    """`screenshot(page, "name")` saves a full-page PNG to artifacts/screenshots/name.png.
    Written under a name of this process first, then renamed over the target: test processes
    running side by side never leave a half-written file."""
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)

    def save(page: Any, name: str) -> Path:
        from groupkit_testing.allstates import _full_page_png  # Playwright, for browser tests only

        path = SCREENSHOT_DIR / f"{name}.png"
        partial = path.with_name(f".{name}.{os.getpid()}.png")
        partial.write_bytes(_full_page_png(page))
        os.replace(partial, path)
        # A full-page capture in headless Chromium can leave the page scrolled a little
        # away from where the compositor thinks it is, and the next click then lands beside
        # its target: start from the top again.
        page.evaluate("window.scrollTo(0, 0)")
        return path

    return save


@pytest.fixture
def same_clock_hour() -> None:
    """Rate limits count per clock hour: don't start a count in the last seconds of an hour,
    or its requests could land in two hours and the limit never be reached."""
    into_hour = time.time() % 3600
    if into_hour > 3600 - 20:
        time.sleep(3600 - into_hour + 1)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local chat receiver (127.0.0.1) for webhook posts."""
    chat = Receiver()
    yield chat
    chat.close()


@pytest.fixture
def mail_server() -> Iterator[MailServer]:
    """A real SMTP server (aiosmtpd) on 127.0.0.1 that keeps what it is sent."""
    server = MailServer()
    yield server
    server.close()


@pytest.fixture
def clock() -> FakeClock:
    """Wednesday 18 November 2026, 08:30 in Sydney (UTC+11): half an hour before the chat
    tools' default morning hour."""
    return FakeClock(dt.datetime(2026, 11, 17, 21, 30, tzinfo=dt.UTC))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    saved = sorted(path for path in SCREENSHOT_DIR.glob("*.png")
                   if not path.name.startswith(".") and path.stat().st_mtime >= RUN_STARTED)
    if saved:
        terminalreporter.section("screenshots")
        terminalreporter.write_line(f"{len(saved)} saved in {SCREENSHOT_DIR}:")
        for path in saved:
            terminalreporter.write_line(f"  {path}")
