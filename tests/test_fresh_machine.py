"""A fresh Debian machine: the README's first commands work there and name only what the
repository has, and `.ci/postgres.sh` gives each run its own cluster, so two runs on one
machine never share (or stop) each other's server."""

from __future__ import annotations

import glob
import os
import re
import subprocess
from pathlib import Path

from groupkit_testing import external_missing

REPO = Path(__file__).resolve().parents[1]
POSTGRES_SH = REPO / ".ci" / "postgres.sh"


def test_the_readme_opens_with_the_two_commands_and_installs_uv_the_debian_way() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    opening = text.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert [line.split("#")[0].strip() for line in opening] == [
        "uv run groupkit serve", "uv run pytest"]
    # Debian 12's own Python refuses a plain `pip install` (PEP 668).
    assert "python3 -m pip install uv" not in text
    assert "pipx install uv" in text


def test_the_readme_and_recipes_name_only_files_in_the_repository() -> None:
    for document in ("README.md", "docs/operating.md", "contrib/deploy/README.md"):
        text = (REPO / document).read_text(encoding="utf-8")
        assert "service-spec" not in text
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            assert (REPO / document).parent.joinpath(target).exists(), (document, target)


def postgres(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(POSTGRES_SH), *args], env=env, capture_output=True,
                          text=True, timeout=180)


def test_two_runs_get_two_clusters_and_stopping_one_leaves_the_other() -> None:
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        external_missing("PostgreSQL server binaries")
    env = {k: v for k, v in os.environ.items()
           if k not in ("GROUPKIT_PG_DIR", "GROUPKIT_PG_PORT")}
    # Status and stop need to be told which cluster: never a guess at someone else's.
    refused = postgres("stop", env=env)
    assert refused.returncode == 1 and "GROUPKIT_PG_DIR" in refused.stderr
    made: list[str] = []
    try:
        urls = []
        for _ in range(2):
            started = postgres(env=env)
            assert started.returncode == 0, started.stderr
            directory = re.search(r"GROUPKIT_PG_DIR=(\S+)", started.stderr)
            assert directory is not None, started.stderr
            made.append(directory.group(1))
            urls.append(started.stdout.strip())
        assert made[0] != made[1] and urls[0] != urls[1]  # own directory, own port
        stopped = postgres("stop", env={**env, "GROUPKIT_PG_DIR": made[0]})
        assert stopped.returncode == 0, stopped.stderr
        assert postgres("status", env={**env, "GROUPKIT_PG_DIR": made[0]}).returncode == 3
        assert postgres("status", env={**env, "GROUPKIT_PG_DIR": made[1]}).returncode == 0
        import psycopg2

        psycopg2.connect(urls[1]).close()
        # Started again from its directory, a cluster keeps its port.
        again = postgres(env={**env, "GROUPKIT_PG_DIR": made[0]})
        assert again.returncode == 0 and again.stdout.strip() == urls[0], again.stderr
    finally:
        for directory in made:
            postgres("destroy", env={**env, "GROUPKIT_PG_DIR": directory})
    assert not any(Path(directory).exists() for directory in made)

