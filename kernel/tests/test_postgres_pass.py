"""CI's PostgreSQL pass skips only tests that cannot reach a database (groupkit_testing)."""

from __future__ import annotations

import pytest

pytest_plugins = ("pytester",)

SAMPLE = '''
def test_pure():
    assert 1 + 1 == 2

def test_with_database(database_url):
    assert database_url
'''

PICKS_BACKEND = '''
from groupkit_testing import server_backends

def test_picks():
    assert server_backends()
'''


def collected(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
              backends: str | None) -> list[str]:
    if backends is None:
        monkeypatch.delenv("GROUPKIT_TEST_BACKENDS", raising=False)
    else:
        monkeypatch.setenv("GROUPKIT_TEST_BACKENDS", backends)
    result = pytester.runpytest_inprocess("--collect-only", "-q", "-p", "no:xdist",
                                          "-o", "addopts=",
                                          "-o", "asyncio_default_fixture_loop_scope=function")
    return sorted(line.split("::")[1] for line in result.outlines if "::" in line)


@pytest.fixture
def sample(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(test_sample=SAMPLE, test_picks=PICKS_BACKEND)
    return pytester


def test_postgres_pass_keeps_only_tests_that_reach_a_database(
        sample: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    assert collected(sample, monkeypatch, "postgres") == ["test_picks", "test_with_database"]


@pytest.mark.parametrize("backends", [None, "sqlite", "sqlite,postgres"])
def test_other_passes_keep_everything(sample: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                      backends: str | None) -> None:
    everything = ["test_picks", "test_pure", "test_with_database"]
    assert collected(sample, monkeypatch, backends) == everything
