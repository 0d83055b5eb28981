"""The `groupkit` command: serve, tools, openapi, migrate, prune."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from .config import ConfigError, Settings, load_settings


def _settings(args: argparse.Namespace) -> Settings:
    try:
        return load_settings(args.config)
    except ConfigError as exc:
        raise SystemExit(f"groupkit: {exc}") from None


def cmd_serve(args: argparse.Namespace) -> int:
    from hypercorn.config import Config
    from hypercorn.run import run

    settings = _settings(args)
    if args.config:
        os.environ["GROUPKIT_CONFIG"] = os.path.abspath(args.config)
    cmd_migrate(args, quiet=True)
    os.environ["GROUPKIT_MIGRATED"] = "1"
    config = Config()
    config.application_path = "groupkit.asgi:app"
    config.bind = [f"[{args.host}]:{args.port}" if ":" in args.host else f"{args.host}:{args.port}"]
    config.workers = args.workers
    config.accesslog = None
    try:
        import uvloop  # noqa: F401
        config.worker_class = "uvloop"
    except ImportError:
        config.worker_class = "asyncio"
    print(f"groupkit: serving {settings.mode} on http://{args.host}:{args.port}/ "
          f"with {args.workers} worker(s), database {settings.database_url.split('@')[-1]}",
          flush=True)
    return run(config) or 0


def cmd_tools(args: argparse.Namespace) -> int:
    from .plugins import load_tools

    registry = load_tools(_settings(args))
    for item in registry.installed:
        state = "enabled" if item.enabled else ("refused" if item.problem else "disabled")
        line = f"{item.name:<12} {item.version:<10} {state}"
        if item.problem:
            line += f"  ({item.problem})"
        print(line)
    return 0


def cmd_openapi(args: argparse.Namespace) -> int:
    from .openapi import openapi_document
    from .plugins import load_tools

    registry = load_tools(_settings(args))
    json.dump(openapi_document(registry.tools), sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


def cmd_migrate(args: argparse.Namespace, quiet: bool = False) -> int:
    from .app import migrate
    from .plugins import load_tools
    from .storage import Storage, open_database

    settings = _settings(args)
    storage = Storage(open_database(settings.database_url, 1), 1)
    storage.bind()
    try:
        ran = migrate(storage, load_tools(settings))
    finally:
        storage.close()
    if not quiet:
        for app_name, names in ran.items():
            for name in names:
                print(f"applied {app_name} {name}")
        if not any(ran.values()):
            print("nothing to migrate")
    return 0


def cmd_prune(args: argparse.Namespace) -> int:
    import datetime as dt

    from .app import migrate
    from .plugins import load_tools
    from .retention import prune_all
    from .storage import Storage, open_database

    settings = _settings(args)
    registry = load_tools(settings)
    storage = Storage(open_database(settings.database_url, 1), 1)
    storage.bind()
    try:
        migrate(storage, registry)
        removed = prune_all(storage, registry.tools, dt.datetime.now(dt.UTC))
    finally:
        storage.close()
    for name, count in removed.items():
        print(f"pruned {name}: {count} row(s)")
    if not removed:
        print("no enabled tool keeps data on a schedule")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="groupkit", description=__doc__)
    parser.add_argument("--config", help="TOML config file (default $GROUPKIT_CONFIG, then "
                                         "config/groupkit.toml)")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="run the web service with hypercorn")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.add_argument("--config", dest="config", default=argparse.SUPPRESS)
    serve.set_defaults(run=cmd_serve)
    for name, func, text in (("tools", cmd_tools, "list installed, enabled and refused tools"),
                             ("openapi", cmd_openapi, "print the OpenAPI document"),
                             ("migrate", cmd_migrate, "create or update database tables"),
                             ("prune", cmd_prune, "drop data past each tool's retention now")):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("--config", dest="config", default=argparse.SUPPRESS)
        sub.set_defaults(run=func)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
