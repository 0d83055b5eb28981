"""ASGI entry point for hypercorn workers: `hypercorn groupkit.asgi:app`.

Settings come from $GROUPKIT_CONFIG (and $GROUPKIT_DATABASE_URL); `groupkit serve` sets them.
Migrations ran once in `groupkit serve` before the workers started.
"""

from __future__ import annotations

import os

from . import logs, metrics
from .app import create_app
from .config import load_settings

# JSON lines on stderr: one per request (credentials redacted) and every unexpected failure.
logs.configure()

settings = load_settings()
app = create_app(settings, run_migrations=os.environ.get("GROUPKIT_MIGRATED") != "1")
# GET /metrics and request, database and live-stream counts, when [metrics] enables them.
metrics.install(app, settings)
