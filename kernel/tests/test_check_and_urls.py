"""`groupkit check` catches what `serve` would die on (and only that), every problem in one
run, with the environment applied as `serve` applies it; database URLs follow libpq's
rules; a SQLite file in a missing directory is refused."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from groupkit.core._config import ConfigError
from groupkit.core._config import load_settings
from groupkit.core._storage import DatabaseUrlError
from groupkit.core._storage import Storage
from groupkit.core._storage import open_database
from groupkit.core._storage import postgres_parameters
from groupkit.ops._app import create_app
from groupkit.ops._app import migrate
from groupkit.ops._cli import main
from groupkit.ops._plugins import load_tools
from groupkit_testing import external_missing
from groupkit_testing import postgres_url
from groupkit_testing import server_backends


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GROUPKIT_CONFIG", "GROUPKIT_DATABASE_URL", "GROUPKIT_MODE"):
        monkeypatch.delenv(name, raising=False)


def check(path: Path, capsys: Any) -> tuple[int, list[str]]:
    status = main(["check", "--config", str(path)])
    return status, capsys.readouterr().out.splitlines()


def test_check_reports_every_semantic_problem_in_one_run(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('mode = "production"\n'
                    'base_url = "groups.example.org/"\n'
                    "[database]\n"
                    'url = "postgresql://groupkit:secret@db.internal:5432"\n'
                    "[proxy]\n"
                    'trusted = ["127.0.0.1", "10.0.0.300"]\n'
                    "[tools]\n"
                    'enabled = ["karaoke"]\n', encoding="utf-8")
    status, lines = check(path, capsys)
    assert status == 1
    assert lines == [
        f"{path}:2: base_url must be an origin such as https://groups.example.org (http or "
        "https, a host, no path)",
        f"{path}:6: proxy.trusted: '10.0.0.300' is not an IP address or network (such as "
        "127.0.0.1, ::1 or 10.0.0.0/24)",
        f"{path}:4: database.url: the database URL names no database "
        "(postgresql://user:pass@host/DATABASE)",
    ]  # and not the unknown tool: that is named only when nothing else is wrong


def test_check_applies_the_environment_as_serve_does(tmp_path: Path, capsys: Any,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ok.toml"
    path.write_text(f'[database]\nurl = "sqlite:///{tmp_path}/db.sqlite"\n', encoding="utf-8")
    assert check(path, capsys) == (0, [f"{path}: ok"])
    monkeypatch.setenv("GROUPKIT_MODE", "staging")
    monkeypatch.setenv("GROUPKIT_DATABASE_URL", "postgresql://u:p@localhost")
    status, lines = check(path, capsys)
    assert status == 1 and lines == [
        "$GROUPKIT_MODE: GROUPKIT_MODE must be development or production",
        "$GROUPKIT_DATABASE_URL: $GROUPKIT_DATABASE_URL: the database URL names no database "
        "(postgresql://user:pass@host/DATABASE)"]
    monkeypatch.setenv("GROUPKIT_MODE", "production")
    monkeypatch.setenv("GROUPKIT_DATABASE_URL", f"sqlite:///{tmp_path}/nowhere/db.sqlite")
    status, lines = check(path, capsys)
    assert status == 1 and "nowhere does not exist" in lines[0]
    with pytest.raises(ConfigError, match="nowhere does not exist"):
        load_settings(path)


def test_an_unreadable_config_is_a_clear_line_not_a_traceback(
        tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "secret.toml"
    path.write_text('mode = "production"\n', encoding="utf-8")
    path.chmod(0)
    if os.geteuid() == 0:  # root reads every file: make this one refuse as it would
        real_read = Path.read_text

        def refuse(self: Path, *args: Any, **kwargs: Any) -> str:
            if self == path:
                raise PermissionError(13, "Permission denied", str(self))
            return real_read(self, *args, **kwargs)

        monkeypatch.setattr(Path, "read_text", refuse)
    status, lines = check(path, capsys)
    assert status == 1 and lines == [
        f"{path}: cannot read the file: permission denied (the service user needs read "
        "access, e.g. group groupkit, mode 0640)"]


def test_an_unwritable_database_directory_is_reported(tmp_path: Path, capsys: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "groupkit.toml"
    folder = tmp_path / "data"
    folder.mkdir()
    path.write_text(f'[database]\nurl = "sqlite:///{folder}/groupkit.db"\n', encoding="utf-8")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: real_access(p, mode)
                        and Path(p) != folder)
    status, lines = check(path, capsys)
    assert status == 1 and lines == [
        f"{path}:2: database.url: the directory {folder} is not writable by this user "
        "(SQLite writes its journal beside the database)"]


def test_check_tries_the_postgresql_connection(tmp_path: Path, capsys: Any) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    path = tmp_path / "pg.toml"
    path.write_text(f'[database]\nurl = "postgresql://u:p@127.0.0.1:{port}/groupkit"\n',
                    encoding="utf-8")
    status, lines = check(path, capsys)
    assert status == 1 and len(lines) == 1
    assert lines[0].startswith(f"{path}:2: cannot connect to the database: ")


# --- the property: whatever check accepts, serve starts with ------------------------------

ADDRESSES = st.sampled_from(["127.0.0.1", "::1", "10.0.0.0/24", "10.0.0.300", "nginx",
                             "192.168.1.1/33", "fe80::/10", ""])
BASE_URLS = st.sampled_from(["", "https://groups.example.org", "http://127.0.0.1:8000",
                             "groups.example.org", "ftp://x", "https://x.org/path",
                             "https://:80", "https://x.org:port", "https://x.org/"])
MODES = st.sampled_from(["development", "production"])
DATABASES = st.sampled_from(["here", "missing", "deep/missing", "nodb", "socket"])


def database_url(choice: str, tmp: Path) -> str:
    return {"here": f"sqlite:///{tmp}/groupkit.db",
            "missing": f"sqlite:///{tmp}/missing/groupkit.db",
            "deep/missing": f"sqlite:///{tmp}/deep/missing/groupkit.db",
            "nodb": "postgresql://u:p@127.0.0.1:1",
            "socket": "postgresql:///?host=/nonexistent/socket/dir"}[choice]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mode=MODES, base_url=BASE_URLS, trusted=st.lists(ADDRESSES, max_size=3),
       database=DATABASES, env_mode=st.sampled_from(["", "production", "development", "x"]))
def test_whatever_check_accepts_serve_starts_with(
        tmp_path_factory: pytest.TempPathFactory, capsys: Any, mode: str, base_url: str,
        trusted: list[str], database: str, env_mode: str) -> None:
    tmp = tmp_path_factory.mktemp("prop")
    path = tmp / "groupkit.toml"
    trusted_toml = ", ".join(f'"{entry}"' for entry in trusted)
    path.write_text(f'mode = "{mode}"\nbase_url = "{base_url}"\n[database]\n'
                    f'url = "{database_url(database, tmp)}"\n[tools]\nenabled = ["sweeps"]\n'
                    f"[proxy]\ntrusted = [{trusted_toml}]\n", encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        if env_mode:
            patch.setenv("GROUPKIT_MODE", env_mode)
        status, _ = check(path, capsys)
        if status != 0:
            with pytest.raises(ConfigError):  # serve refuses what check refuses
                load_settings(path)
            return
        chosen = load_settings(path)  # what `serve` does: settings, migrate, then the app
        storage = Storage(open_database(chosen.database_url, 1,
                                        create_directory=not chosen.production), 1)
        storage.bind()
        try:
            migrate(storage, load_tools(chosen))
        finally:
            storage.close()
        app = create_app(chosen, run_migrations=False)
        app.config["GROUPKIT_STORAGE"].close()


# --- database URLs --------------------------------------------------------------------------

@pytest.mark.parametrize(("url", "expected"), [
    ("postgresql://u:p@h:5433/db", {"user": "u", "password": "p", "host": "h", "port": "5433",
                                     "dbname": "db"}),
    ("postgresql://u@h/db?password=s%26cret", {"user": "u", "password": "s&cret", "host": "h",
                                               "dbname": "db"}),
    ("postgresql://h/db?user=app&password=pw", {"user": "app", "password": "pw", "host": "h",
                                                "dbname": "db"}),
    ("postgresql:///db?host=/var/run/postgresql", {"host": "/var/run/postgresql",
                                                   "dbname": "db"}),
    ("postgresql://%2Fvar%2Frun%2Fpostgresql/db", {"host": "/var/run/postgresql",
                                                   "dbname": "db"}),
    ("postgresql://u:p%40ss@[::1]:6543/my%20db?sslmode=require",
     {"user": "u", "password": "p@ss", "host": "::1", "port": "6543", "dbname": "my db",
      "sslmode": "require"}),
    ("postgresql://h1:5432,h2:5433/db", {"host": "h1,h2", "port": "5432,5433", "dbname": "db"}),
    ("postgres://h?dbname=other", {"host": "h", "dbname": "other"}),
])
def test_postgresql_urls_follow_libpq(url: str, expected: dict[str, str]) -> None:
    assert postgres_parameters(url) == expected
    database = open_database(url, 1)  # no TypeError about values given twice
    assert database.database == expected["dbname"]


@pytest.mark.parametrize("url", ["postgresql://u:p@h", "postgresql://u:p@h/", "postgresql://h:x/d"])
def test_postgresql_urls_without_a_database_or_with_a_bad_port_are_refused(url: str) -> None:
    with pytest.raises(DatabaseUrlError):
        postgres_parameters(url)


# Generated only where PostgreSQL runs (CI's SQLite pass leaves it to the PostgreSQL pass).
@pytest.mark.parametrize("backend", [b for b in server_backends() if b == "postgres"])
def test_a_unix_socket_url_reaches_the_test_server(backend: str) -> None:
    """The server also listens on a Unix socket; `?host=/dir` reaches it there."""
    url = postgres_url()
    if url is None:
        external_missing("PostgreSQL")
        return
    import psycopg2

    params = postgres_parameters(url)
    with psycopg2.connect(**params) as conn, conn.cursor() as cursor:
        cursor.execute("SHOW unix_socket_directories")
        socket_dir = cursor.fetchone()[0].split(",")[0].strip()
    conn.close()
    socket_url = (f"postgresql://{params['user']}:{params['password']}@/{params['dbname']}"
                  f"?host={socket_dir}&port={params['port']}")
    psycopg2.connect(**postgres_parameters(socket_url)).close()


def test_a_sqlite_file_in_a_missing_directory_is_refused(tmp_path: Path, capsys: Any) -> None:
    url = f"sqlite:///{tmp_path}/typo/groupkit.db"
    with pytest.raises(DatabaseUrlError, match="does not exist"):
        open_database(url, 1)
    assert not (tmp_path / "typo").exists()
    config = tmp_path / "groupkit.toml"
    config.write_text(f'mode = "production"\n[database]\nurl = "{url}"\n', encoding="utf-8")
    with pytest.raises(SystemExit, match="typo does not exist"):
        main(["migrate", "--config", str(config)])
    assert main(["migrate", "--create", "--config", str(config)]) == 0
    assert (tmp_path / "typo" / "groupkit.db").is_file()
