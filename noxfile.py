"""Developer and CI sessions. Run them through uv, e.g. `uv run nox -s lint types`.

Every session runs its tools with `uv run` inside the workspace's own uv-managed environment
(.venv), so nox creates no virtualenvs and installs nothing itself. Arguments after `--` go to
the tool, e.g. `uv run nox -s tests -- -k limits -x`.

    tests           the whole suite, as `uv run pytest` (SQLite; browser tests included)
    tests_postgres  the suite without browser tests against $GROUPKIT_TEST_POSTGRES_URL
                    (start a throwaway server with `.ci/postgres.sh`, which prints the URL)
    e2e             only the browser tests (headless Chromium; set $GROUPKIT_CHROMIUM)
    build           wheels and sdists of the kernel and every plugin in dist/
    lint            ruff check and the import contracts (lint-imports)
    types           mypy over the kernel and every plugin
    docs            the documentation site (mkdocs.yml) built strictly into build/docs, then
                    docs/check_reference.py: every name of each public module's __all__
                    has an entry in the reference
    i18n            the message catalogs (Babel): extract each package's strings, update
                    and compile every language's catalog; `-- init de` starts a language
    bench           throughput, latency and CPU as ratios to bare Quart, driven by wrk
                    (bench/run.py; fails if the bare route misses 2,000 req/s)
    mutate          mutation testing (mutmut) of the kernel's fields, limits, credentials
                    and edits and of the pulse, poll and plate tools: the score per target,
                    the survivors in build/mutate/survivors.txt (and in each target's
                    folder); `-- credentials` measures one target (docs/development.md,
                    "Mutation testing")
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import nox

ROOT = Path(__file__).resolve().parent

nox.options.default_venv_backend = "none"
# A bare `uv run nox` runs these; tests_postgres and e2e need outside services.
nox.options.sessions = ["lint", "types", "tests"]


def uv_run(session: nox.Session, *args: str, env: dict[str, str] | None = None) -> None:
    session.run("uv", "run", *args, env=env or {}, external=True)


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite on SQLite, browser tests included."""
    uv_run(session, "pytest", *session.posargs)


@nox.session
def tests_postgres(session: nox.Session) -> None:
    """The test suite (without browser tests) against a real PostgreSQL server."""
    url = os.environ.get("GROUPKIT_TEST_POSTGRES_URL", "").strip()
    if not url:
        session.error(
            "GROUPKIT_TEST_POSTGRES_URL is not set. Start a test server with "
            "`.ci/postgres.sh` and run: GROUPKIT_TEST_POSTGRES_URL=$(.ci/postgres.sh) "
            "uv run nox -s tests_postgres"
        )
    uv_run(
        session,
        "pytest",
        "-m",
        "not browser",
        *session.posargs,
        env={"GROUPKIT_TEST_POSTGRES_URL": url},
    )


@nox.session
def e2e(session: nox.Session) -> None:
    """Only the browser tests: Playwright driving headless Chromium."""
    uv_run(session, "pytest", "-m", "browser", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """Ruff over the whole repository, then the import contracts (`lint-imports`: the
    kernel's layers, no import cycle, plugins independent and on the public surface only,
    no test kit in production; pyproject.toml, [tool.importlinter])."""
    uv_run(session, "ruff", "check", *(session.posargs or ["."]))
    uv_run(session, "lint-imports", "--no-logo")


@nox.session
def types(session: nox.Session) -> None:
    """Mypy over the kernel and the source of every plugin."""
    targets = session.posargs or [
        str(path.relative_to(ROOT))
        for path in [ROOT / "kernel" / "src", ROOT / "kernel-testing" / "src",
                     *sorted(ROOT.glob("plugins/*/src")), *sorted(ROOT.glob("contrib/*/src"))]
        if path.is_dir()
    ]
    # One run per distribution: each plugin is its own package (with its own `models`,
    # `api`... modules), checked as it is installed, against the kernel's public API.
    for target in targets:
        uv_run(session, "mypy", target)


@nox.session
def docs(session: nox.Session) -> None:
    """The documentation site, built with MkDocs and mkdocstrings into build/docs; any
    warning (a broken link or anchor, a page left out of the nav, a docstring mkdocstrings
    cannot read) fails it. Then docs/check_reference.py reads the built inventory
    (build/docs/objects.inv) and fails listing each name of a public module's `__all__`
    that has no entry in the reference."""
    uv_run(session, "mkdocs", "build", "--strict", "--site-dir", "build/docs",
           *session.posargs)
    uv_run(session, "python", "docs/check_reference.py", "build/docs/objects.inv")


def _catalog_packages() -> list[tuple[str, Path]]:
    """Every package that carries its own catalog: (gettext domain, package folder)."""
    packages = [("groupkit", Path("kernel/src/groupkit"))]
    for source in sorted([*Path("plugins").glob("*/src/groupkit_*"),
                          *Path("contrib").glob("*/src/groupkit_*")]):
        packages.append((source.name, source))
    return packages


@nox.session
def i18n(session: nox.Session) -> None:
    """Message catalogs with Babel: extract every translatable string of the kernel and of
    each plugin into that package's own template (`locale/<domain>.pot`), merge it into
    each language's catalog (`locale/<language>/LC_MESSAGES/<domain>.po`) and compile
    those (`.mo`, shipped in the wheels). `nox -s i18n -- init de` starts a language."""
    languages = session.posargs[1:] if session.posargs[:1] == ["init"] else []
    for domain, package in _catalog_packages():
        locale = package / "locale"
        template = locale / f"{domain}.pot"
        locale.mkdir(exist_ok=True)
        uv_run(session, "pybabel", "-q", "extract", "-F", "babel.cfg", "-k", "N_", "-k", "words",
               "--no-location", "--sort-output", "--project", domain,
               "-o", str(template), str(package))
        for language in languages:
            uv_run(session, "pybabel", "-q", "init", "-D", domain, "-i", str(template),
                   "-d", str(locale), "-l", language)
        if any(locale.glob(f"*/LC_MESSAGES/{domain}.po")):
            uv_run(session, "pybabel", "-q", "update", "-D", domain, "-i", str(template),
                   "-d", str(locale), "--ignore-obsolete")
            uv_run(session, "pybabel", "-q", "compile", "-D", domain, "-d", str(locale),
                   "--statistics")


@nox.session
def fuzz(session: nox.Session) -> None:
    """The long hostile-input profile: schemathesis with 60 examples per operation and the
    fuzzer with up to 600 bodies per operation, a third of them any JSON drawn anew (the
    test run uses a bounded profile)."""
    uv_run(session, "pytest", "-q", "-s", "tests/test_schemathesis.py", "tests/test_fuzz.py",
           *session.posargs, env={"GROUPKIT_FUZZ_EXAMPLES": "60",
                                  "GROUPKIT_FUZZ_EXAMPLES_PER_TOOL": "600"})


@nox.session
def build(session: nox.Session) -> None:
    """Wheels and sdists of the kernel and of every plugin, each with its own version, in
    dist/ (`uv build --all-packages`); install them with `pip install dist/*.whl` or
    `uv pip install --find-links dist groupkit groupkit-plate`."""
    session.run("uv", "build", "--all-packages", "--out-dir", "dist", *session.posargs,
                external=True)


@nox.session
def bench(session: nox.Session) -> None:
    """Throughput, p50/p99 and CPU per request of every scenario as ratios to a bare Quart
    route on the same server, driven by wrk; the fan-out and 1,000 open streams; writes
    bench/results.json and docs/performance.md. Fails when wrk is missing, when the bare route
    stays under 2,000 requests/s on one worker (the machine, not groupkit, is then measured),
    or when a scenario gets a non-2xx answer (a refused write is cheaper than a write)."""
    if shutil.which("wrk") is None:
        session.error("wrk is not installed (Debian/Ubuntu: apt install wrk)")
    uv_run(session, "python", "bench/run.py", *session.posargs)


#: What `nox -s mutate` mutates, and the tests that judge it: (the distribution's source
#: folder, the files mutated in it, the tests run). mutmut runs, for each mutant, only those
#: of these tests that call the mutated function. The selections are the fastest honest
#: subsets: every test file that exercises the module directly, and the contract suite's
#: checks of the tool (docs/development.md, "Mutation testing", says what each run costs).
MUTATION_TARGETS: dict[str, tuple[str, list[str], list[str]]] = {
    "credentials": ("kernel/src", ["groupkit/core/_credentials.py"],
                    ["kernel/tests/test_credentials.py", "kernel/tests/test_tokens.py"]),
    "limits": ("kernel/src", ["groupkit/core/_limits.py"],
               ["kernel/tests/test_limits.py"]),
    "fields": ("kernel/src", ["groupkit/core/_fields.py"],
               ["kernel/tests/test_fields.py", "kernel/tests/test_field_properties.py",
                "kernel/tests/test_field_openapi.py", "kernel/tests/test_field_edges.py",
                "kernel/tests/test_text_key.py",
                "kernel/tests/test_openapi.py"]),
    "edits": ("kernel/src", ["groupkit/core/_edits.py"],
              ["kernel/tests/test_edit.py", "kernel/tests/test_edit_words.py",
               "tests/test_edit_versions.py", "tests/test_edit_details.py"]),
    "pulse": ("plugins/pulse/src", ["groupkit_pulse/*"],
              ["plugins/pulse/tests", "tests/test_contract.py::TestEveryInstalledTool",
               "tests/test_chat_webhooks.py::"
               "test_pulse_reminds_on_friday_and_posts_a_result_only_past_the_threshold",
               "-k", "pulse or not TestEveryInstalledTool"]),
    "poll": ("plugins/poll/src", ["groupkit_poll/*"],
             ["plugins/poll/tests", "tests/test_contract.py::TestEveryInstalledTool", "-k",
              "poll or not TestEveryInstalledTool"]),
    "plate": ("plugins/plate/src", ["groupkit_plate/*"],
              ["plugins/plate/tests", "tests/test_contract.py::TestEveryInstalledTool", "-k",
               "plate or not TestEveryInstalledTool"]),
}

#: A test that runs longer than this (seconds) under a mutant fails, so a mutant that makes
#: the code hang counts as killed (pytest-timeout); mutmut also stops a whole mutant run
#: that takes far longer than its tests did unmutated, and that counts as killed too.
MUTATION_TEST_TIMEOUT = 60


def _mutmut_config(only: list[str], tests: list[str]) -> str:
    """mutmut's setup.cfg for one target's folder (build/mutate/<target>): a setup.cfg, not a
    pyproject.toml, so that uv and pytest there still find the workspace's own."""
    options = {
        "source_paths": ["src/"],
        "only_mutate": [f"src/{pattern}" for pattern in only],
        # pytest reads the workspace's configuration, less xdist, in the one process mutmut
        # forks per mutant; the tests are found through links in mutmut's folder.
        "pytest_add_cli_args_test_selection": tests,
        "pytest_add_cli_args": ["-n", "0", "-p", "no:cacheprovider",
                                f"--timeout={MUTATION_TEST_TIMEOUT}"],
    }
    lines = ["[mutmut]"]
    for key, values in options.items():
        lines.append(f"{key}=")
        lines.extend(f"    {value}" for value in values)
    return "\n".join(lines) + "\n"


def _survivor_line(diff: str, source: Path) -> int:
    """The line of the original file a mutant changes: mutmut's diff is of the function
    alone, so find the first removed line in the file, after the function's `def` (in its
    class, for a method)."""
    removed = next((line[1:].strip() for line in diff.splitlines()
                    if line.startswith("-") and not line.startswith("---")), "")
    name = re.search(r"\.x(?:_|ǁ([^ǁ]+)ǁ)(\w+?)__mutmut", diff)
    lines = source.read_text().splitlines()
    start = 0
    if name:
        for pattern in ([rf"class {name.group(1)}\b"] if name.group(1) else []) + [
                rf"(async )?def {re.escape(name.group(2))}\b"]:
            start = next((number for number, line in enumerate(lines[start:], start)
                          if re.match(rf"\s*{pattern}", line)), start)
    for number in range(start, len(lines)):
        if lines[number].strip() == removed:
            return number + 1
    return start + 1


_SHOW_EACH = """\
import sys
from mutmut.__main__ import cli
for name in sys.argv[1:]:
    cli(["show", name], standalone_mode=False)
    print("\\f")
"""


@nox.session
def mutate(session: nox.Session) -> None:
    """Mutation testing with mutmut, one target after another (`-- fields pulse` picks some):
    each in its own folder, build/mutate/<target>, where mutmut copies the distribution's
    source, mutates the target's files and imports them in place of the installed ones. One
    test process, under `nice`: the machines are shared. Prints the score (killed, a timeout
    included, over every mutant) per target and writes each survivor, file:line and diff, to
    build/mutate/survivors.txt."""
    names = session.posargs or list(MUTATION_TARGETS)
    unknown = sorted(set(names) - set(MUTATION_TARGETS))
    if unknown:
        session.error(f"unknown target {unknown}; the targets: {', '.join(MUTATION_TARGETS)}")
    base = ROOT / "build" / "mutate"
    scores: list[str] = []
    survivors: list[str] = []
    for name in names:
        first_survivor = len(survivors)
        source, only, tests = MUTATION_TARGETS[name]
        work = base / name
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        (work / "src").symlink_to(ROOT / source, target_is_directory=True)
        (work / "setup.cfg").write_text(_mutmut_config(only, tests))
        # mutmut runs pytest in work/mutants with that as its rootdir: the test folders are
        # linked in there, or pytest would name the tests without their files.
        for arg in tests:
            parts = Path(arg.split("::")[0]).parts
            if "tests" in parts:
                folder = Path(*parts[:parts.index("tests") + 1])
                link = work / "mutants" / folder
                if not link.exists():
                    link.parent.mkdir(parents=True, exist_ok=True)
                    link.symlink_to(ROOT / folder, target_is_directory=True)
        with session.chdir(work):
            session.run("nice", "-n", "19", "uv", "run", "mutmut", "run", "--max-children", "1",
                        external=True)
            session.run("uv", "run", "mutmut", "export-cicd-stats", external=True, silent=True)
            stats = json.loads((work / "mutants" / "mutmut-cicd-stats.json").read_text())
            listing = session.run("uv", "run", "mutmut", "results", external=True,
                                  silent=True) or ""
            left = {mutant: status.strip() for mutant, status
                    in re.findall(r"^\s*(\S+): (.+)$", str(listing), re.M)
                    if status.strip() not in ("killed", "timeout")}
            # `mutmut show` for every survivor, in one process (one each took a second).
            shown = str(session.run("uv", "run", "python", "-c", _SHOW_EACH, *left,
                                    external=True, silent=True) or "") if left else ""
            for mutant, diff in zip(left, shown.split("\f")[:len(left)], strict=True):
                status = left[mutant]
                path = re.search(r"^--- (\S+)", diff, re.M)
                where = "?"
                if path:
                    file = ROOT / source / Path(path.group(1)).relative_to("src")
                    where = f"{file.relative_to(ROOT)}:{_survivor_line(diff, file)}"
                survivors.append(f"{where}  {mutant} ({status})\n{diff.strip()}\n")
        (work / "survivors.txt").write_text("\n".join(survivors[first_survivor:]))
        killed = stats["killed"] + stats["timeout"]
        scores.append(f"{name}: {killed} / {stats['total']} killed "
                      f"({100 * killed / max(stats['total'], 1):.1f}%), "
                      f"{stats['survived']} survived, {stats['no_tests']} with no test")
    (base / "survivors.txt").write_text("\n".join(survivors))
    for line in scores:
        session.log(line)
    session.log(f"survivors: {base / 'survivors.txt'}")
