"""ASGI entry point for hypercorn workers: `hypercorn groupkit.asgi:app`.

Settings come from $GROUPKIT_CONFIG (and $GROUPKIT_DATABASE_URL); `groupkit serve` sets them.
Migrations ran once in `groupkit serve` before the workers started.
"""

from __future__ import annotations

import logging
import os

from .app import create_app
from .config import load_settings

if not logging.getLogger().handlers:
    # One line per request (credentials redacted) and every unexpected failure, on stderr.
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(process)d %(name)s %(levelname)s %(message)s")

app = create_app(load_settings(), run_migrations=os.environ.get("GROUPKIT_MIGRATED") != "1")
