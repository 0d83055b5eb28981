"""The `groupkit` command: serve, tools, openapi, migrate, prune, check, backup, new-plugin."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from groupkit.core._config import DEFAULT_CONFIG_PATH
from groupkit.core._config import ConfigError
from groupkit.core._config import Settings
from groupkit.core._config import load_settings

if TYPE_CHECKING:
    from groupkit.ops._plugins import Registry


def _settings(args: argparse.Namespace, create_directory: bool = False) -> Settings:
    try:
        return load_settings(args.config, create_directory=create_directory)
    except ConfigError as exc:
        raise SystemExit(f"groupkit: {exc}") from None


def _config_path(chosen: str | None) -> Path | None:
    """The file `load_settings` reads: the one given, else $GROUPKIT_CONFIG, else the
    default when present (else none: the defaults)."""
    chosen = chosen or os.environ.get("GROUPKIT_CONFIG")
    if chosen:
        return Path(chosen)
    return DEFAULT_CONFIG_PATH if DEFAULT_CONFIG_PATH.is_file() else None


def enabled_tools(path: Path | None, settings: Settings) -> tuple[Registry, list[str]]:
    """The enabled tools loaded, with every reason they cannot be served as configured, as
    `file:line: message`: what `check` prints and `serve` refuses to start with."""
    from groupkit.core._config import line_of
    from groupkit.ops._plugins import load_tools
    from groupkit.ops._plugins import tool_problems

    registry = load_tools(settings, quiet=True)
    text = path.read_text(encoding="utf-8") if path is not None else ""
    lines = []
    for key, message in tool_problems(settings, registry):
        line = line_of(text, key)
        where = f"{path}:{line}: " if line else f"{path}: " if path is not None else ""
        lines.append(where + message)
    return registry, lines


def _database_label(url: str) -> str:
    """Where the database is, without its password (which may be in the query too)."""
    from groupkit.core._storage import postgres_parameters
    from groupkit.core._storage import sqlite_path

    if url.startswith("sqlite:"):
        return sqlite_path(url)
    params = postgres_parameters(url)
    return f"{params.get('host', 'localhost')}/{params['dbname']}"


def cmd_serve(args: argparse.Namespace) -> int:
    """Migrate, bind, start supervised hypercorn workers (`groupkit.ops._supervisor`)."""
    import logging
    import tempfile

    from hypercorn.config import Config

    from groupkit.core import _logs as logs
    from groupkit.ops._supervisor import StartFailed
    from groupkit.ops._supervisor import Supervisor

    logs.configure()
    if args.workers < 1:
        logs.fatal(ValueError("--workers must be at least 1"))
        return 2
    metrics_dir = None
    try:
        settings = load_settings(args.config)
        registry, problems = enabled_tools(_config_path(args.config), settings)
        if problems:  # the very lines `groupkit check` prints
            more = f" ({len(problems) - 1} more: run `groupkit check`)" if problems[1:] else ""
            raise ConfigError(problems[0] + more)
        if args.config:
            os.environ["GROUPKIT_CONFIG"] = os.path.abspath(args.config)
        refused = _link_problem(settings, registry)
        if refused:
            raise ConfigError(refused)
        _migrate(settings, registry, create_directory=not settings.production)
        os.environ["GROUPKIT_MIGRATED"] = "1"
        if settings.metrics_enabled and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            # Every worker writes its samples here; /metrics in any worker adds them up.
            metrics_dir = tempfile.mkdtemp(prefix="groupkit-metrics-")
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
        elif settings.metrics_enabled:  # a directory of the operator's: last run's samples go
            for stale in Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]).glob("*.db"):
                stale.unlink()
        config = Config()
        config.application_path = "groupkit.asgi:app"
        config.bind = [f"[{args.host}]:{args.port}" if ":" in args.host
                       else f"{args.host}:{args.port}"]
        config.workers = args.workers
        config.accesslog = None
        config.errorlog = logging.getLogger("hypercorn.error")  # JSON lines like ours
        try:
            import uvloop  # noqa: F401
            from hypercorn.asyncio.run import uvloop_worker as worker_func
        except ImportError:
            from hypercorn.asyncio.run import asyncio_worker as worker_func
        sockets = config.create_sockets()
    except Exception as error:
        logs.fatal(error)
        return 1

    def serving() -> None:
        logging.getLogger("groupkit").info(
            "serving %s on http://%s:%s/ with %s worker(s), database %s", settings.mode,
            args.host, args.port, args.workers, _database_label(settings.database_url))

    def forget(pid: int) -> None:
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(pid)

    supervisor = Supervisor(worker_func, config, sockets, args.workers, on_worker_exit=forget)
    try:
        return supervisor.serve(serving)
    except StartFailed as failed:
        logging.getLogger("groupkit").critical(
            "groupkit cannot start: %s", failed.summary,
            extra={"hint": failed.hint, "traceback": failed.trace})
        return 1
    except Exception as error:  # the master itself failed: still one JSON line, exit 1
        supervisor.stop()
        logs.fatal(error, "the supervisor failed: " + logs.describe(error)[0])
        return 1
    finally:
        for sock in sockets.secure_sockets + sockets.insecure_sockets:
            sock.close()
        if metrics_dir is not None:
            import shutil

            shutil.rmtree(metrics_dir, ignore_errors=True)


def cmd_tools(args: argparse.Namespace) -> int:
    from groupkit.ops._plugins import load_tools

    registry = load_tools(_settings(args))
    for item in registry.installed:
        state = "enabled" if item.enabled else ("refused" if item.problem else "disabled")
        line = f"{item.name:<12} {item.version:<10} {state}"
        if item.problem:
            line += f"  ({item.problem})"
        print(line)
    return 0


def cmd_openapi(args: argparse.Namespace) -> int:
    from groupkit.core._openapi import openapi_document
    from groupkit.ops._plugins import load_tools

    registry = load_tools(_settings(args))
    json.dump(openapi_document(registry.tools), sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


def _migrate(settings: Settings, registry: Registry | None = None, *,
             create_directory: bool = False) -> dict[str, list[str]]:
    from groupkit.core._storage import Storage
    from groupkit.core._storage import open_database
    from groupkit.ops._app import migrate
    from groupkit.ops._plugins import load_tools

    storage = Storage(open_database(settings.database_url, 1,
                                    create_directory=create_directory), 1)
    storage.bind()
    try:
        return migrate(storage, registry or load_tools(settings))
    finally:
        storage.close()


def _link_problem(settings: Settings, registry: Registry) -> str | None:
    """What the app would refuse to start on beyond the config file alone: links that
    need `base_url` (`groupkit.blocks._webhooks.base_url_problem`)."""
    from groupkit.blocks._webhooks import base_url_problem

    return base_url_problem(settings, registry.tools.values())


def cmd_migrate(args: argparse.Namespace) -> int:
    from groupkit.core._storage import DatabaseUrlError

    settings = _settings(args, create_directory=args.create)
    try:
        ran = _migrate(settings, create_directory=args.create or not settings.production)
    except DatabaseUrlError as error:
        print(f"groupkit: {error}", file=sys.stderr)
        return 1
    for app_name, names in ran.items():
        for name in names:
            print(f"applied {app_name} {name}")
    if not any(ran.values()):
        print("nothing to migrate")
    return 0


def cmd_prune(args: argparse.Namespace) -> int:
    import datetime as dt

    from groupkit.core._storage import Storage
    from groupkit.core._storage import open_database
    from groupkit.ops._app import migrate
    from groupkit.ops._plugins import load_tools
    from groupkit.ops._retention import prune_all

    settings = _settings(args)
    registry = load_tools(settings)
    storage = Storage(open_database(settings.database_url, 1,
                                    create_directory=not settings.production), 1)
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


def _connection_problem(settings: Settings) -> str | None:
    """Why `serve` could not reach a PostgreSQL database now, or None."""
    if not settings.database_url.startswith(("postgresql:", "postgres:")):
        return None
    import psycopg2

    from groupkit.core._storage import postgres_parameters

    params = postgres_parameters(settings.database_url)
    params.setdefault("connect_timeout", "10")
    try:
        psycopg2.connect(**params).close()
    except psycopg2.Error as error:
        return "cannot connect to the database: " + (str(error).strip().splitlines() or [""])[0]
    return None


def cmd_check(args: argparse.Namespace) -> int:
    """Report every problem of a config file with its line, with the environment's overrides
    applied as `serve` applies them; exit 1 if there is any. The enabled tools are loaded
    and judged (`enabled_tools`, as `serve` does) only when nothing else is wrong (a broken
    file may not mean its tool list); then what the app refuses to start on with them
    (production without `base_url` while chat webhooks are on)."""
    from groupkit.core._config import check_file
    from groupkit.core._config import line_of

    path = args.config or os.environ.get("GROUPKIT_CONFIG") or str(DEFAULT_CONFIG_PATH)
    problems = check_file(path)
    if not problems:
        settings = load_settings(path)
        text = Path(path).read_text(encoding="utf-8")
        where = ("$GROUPKIT_DATABASE_URL" if os.environ.get("GROUPKIT_DATABASE_URL")
                 else f"{path}:{line_of(text, 'database.url')}")
        unreachable = None if args.offline else _connection_problem(settings)
        if unreachable:
            problems = [f"{where}: {unreachable}"]
    if not problems:
        registry, problems = enabled_tools(Path(path), settings)
        refused = None if problems else _link_problem(settings, registry)
        if refused:
            line = line_of(text, "base_url") or line_of(text, "mode")
            problems = [f"{path}:{line}: {refused}" if line else f"{path}: {refused}"]
    if not problems and args.send_test_email:
        problems = _send_test_email(settings, args.send_test_email)
    for problem in problems:
        print(problem)
    if not problems:
        print(f"{path}: ok")
    return 1 if problems else 0


def _send_test_email(settings: Settings, address: str) -> list[str]:
    """`check --send-test-email ADDRESS`: one message through the configured SMTP server,
    now (not through the outbox); the problems, if it could not go."""
    import asyncio

    from groupkit.blocks import _email as email
    from groupkit.blocks._outbox import Outcome
    from groupkit.web._pages import TEMPLATES

    if not settings.email:
        return ["--send-test-email: email is off (set [email] url)"]
    to = email.clean_address(address)
    if to is None:
        return [f"--send-test-email: {address!r} is not an email address"]
    queued = email.Mailer(settings, TEMPLATES / "email").render(
        "test", "test", base=settings.base_url)
    try:
        asyncio.run(email.send(settings, email.build_message(settings, to, queued)))
    except Outcome as outcome:
        return [f"--send-test-email: not sent: {outcome.message}"]
    print(f"sent a test message to {to}")
    return []


def cmd_backup(args: argparse.Namespace) -> int:
    """A consistent copy of a SQLite database while the service runs (SQLite's online
    backup API); PostgreSQL has pg_dump for that."""
    import contextlib
    import sqlite3
    from urllib.parse import unquote
    from urllib.parse import urlsplit

    settings = _settings(args)
    parts = urlsplit(settings.database_url)
    if parts.scheme != "sqlite":
        print("groupkit backup copies SQLite databases; for PostgreSQL use pg_dump "
              "(see docs/operating.md)", file=sys.stderr)
        return 2
    source_path = unquote(parts.path[1:] if parts.path.startswith("/") else parts.path)
    if not os.path.isfile(source_path):
        print(f"groupkit: no database at {source_path}", file=sys.stderr)
        return 1
    if os.path.exists(args.destination):
        print(f"groupkit: {args.destination} exists; choose a new file", file=sys.stderr)
        return 1
    folder = os.path.dirname(os.path.abspath(args.destination))
    if not os.path.isdir(folder):
        print(f"groupkit: there is no folder {folder}; create it first, or choose a file in "
              f"a folder that exists", file=sys.stderr)
        return 1
    source = sqlite3.connect(source_path)
    try:
        target = sqlite3.connect(args.destination)
        try:
            with target:
                source.backup(target)
        finally:
            target.close()
    except sqlite3.Error as error:
        with contextlib.suppress(OSError):  # no half-written copy left to mistake for one
            os.unlink(args.destination)
        print(f"groupkit: cannot write {args.destination}: {error}", file=sys.stderr)
        return 1
    finally:
        source.close()
    print(f"backed up {source_path} to {args.destination}")
    return 0


TEMPLATE_NAME, TEMPLATE_TITLE = "mytool", "My Tool"


def template_folder() -> Path:
    """The plugin template: packaged in the wheel, or contrib/ in a source checkout."""
    packaged = Path(__file__).parents[1] / "plugin_template"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[4] / "contrib" / "plugin-template"


def cmd_new_plugin(args: argparse.Namespace) -> int:
    """Copy the plugin template as a new package named for the tool."""
    import re
    import shutil

    name, title = args.name, args.title or args.name.capitalize()
    if not re.fullmatch(r"[a-z][a-z0-9]{1,29}", name):
        print("groupkit: a tool name is 2 to 30 lower-case letters and digits, starting with "
              "a letter", file=sys.stderr)
        return 2
    target = Path(args.dest) / f"groupkit-{name}"
    if target.exists():
        print(f"groupkit: {target} exists; choose another name or --dest", file=sys.stderr)
        return 1
    camel = "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", title) if part)
    swaps = [(TEMPLATE_TITLE, title), ("MyTool", camel or name.capitalize()),
             (TEMPLATE_NAME, name)]
    source = template_folder()
    ignore = shutil.ignore_patterns("__pycache__", ".pytest_cache", ".venv", "*.pyc")
    shutil.copytree(source, target, ignore=ignore)
    for path in sorted(target.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            for old, new in swaps:
                text = text.replace(old, new)
            path.write_text(text, encoding="utf-8")
        if TEMPLATE_NAME in path.name:
            path.rename(path.with_name(path.name.replace(TEMPLATE_NAME, name)))
    print(f"created {target}: next, install it with its test extra where groupkit is "
          f"installed (`uv pip install -e '{target}[test]'` or `pip install -e "
          f"'{target}[test]'`; in groupkit's own uv workspace see \"Installing the kernel "
          f"and plugins\" in docs/tutorial.md), then run `pytest {target}`")
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
                             ("prune", cmd_prune, "drop data past each tool's retention now"),
                             ("check", cmd_check, "validate a config file, every problem "
                                                  "with its line"),
                             ("backup", cmd_backup, "copy a live SQLite database to a file")):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("--config", dest="config", default=argparse.SUPPRESS)
        if name == "backup":
            sub.add_argument("destination", help="new file to write the copy to")
        if name == "check":
            sub.add_argument("--offline", action="store_true",
                             help="do not try to connect to a PostgreSQL database")
            sub.add_argument("--send-test-email", metavar="ADDRESS", default="",
                             help="then send one test message to ADDRESS")
        if name == "migrate":
            sub.add_argument("--create", action="store_true",
                             help="create the SQLite database's directory if it is missing")
        sub.set_defaults(run=func)
    new = commands.add_parser("new-plugin", help="start a tool plugin from the template")
    new.add_argument("name", help="the tool's url name, e.g. karaoke")
    new.add_argument("--title", help='human title, e.g. "Karaoke Queue"')
    new.add_argument("--dest", default=".", help="folder to create the package in")
    new.set_defaults(run=cmd_new_plugin, config=None)
    return parser


def _bad_input(error: Exception) -> str | None:
    """One line for what the operator can fix (a folder or file that is not there or not
    theirs, a database that does not answer), instead of a traceback; None for a bug."""
    import sqlite3

    import peewee
    import psycopg2

    from groupkit.core._storage import DatabaseUrlError

    first = (str(error).strip().splitlines() or [""])[0]
    if isinstance(error, DatabaseUrlError):
        return first
    if isinstance(error, (peewee.OperationalError, peewee.InterfaceError,
                          sqlite3.OperationalError, psycopg2.OperationalError)):
        return f"cannot use the database: {first}"
    if isinstance(error, OSError):
        reason = error.strerror or first
        return f"{error.filename}: {reason}" if error.filename else reason
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.run(args)
    except Exception as error:
        message = _bad_input(error)
        if message is None:
            raise
        print(f"groupkit: {message}", file=sys.stderr)
        return 1
    return result


if __name__ == "__main__":
    raise SystemExit(main())
