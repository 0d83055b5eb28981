"""Names that moved in groupkit 0.2.0 keep working for one minor version, with a
DeprecationWarning naming the new home: the building blocks' names read from `groupkit`, and
the test kit read as `groupkit.testing` / `groupkit.allstates`."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import groupkit
import groupkit.entries
import groupkit.integrations
import groupkit.signups
import groupkit_testing
import groupkit_testing.allstates

#: Names the building blocks gained after 0.2.0: never in `groupkit`, so nothing moved.
ADDED_LATER = {"Invitations", "ask_for_news", "forget_news", "send_news", "CLAIM_BY_LINK",
               "PersonalLinks"}
MOVED = [(name, module) for module in (groupkit.signups, groupkit.entries, groupkit.integrations)
         for name in module.__all__ if name not in ADDED_LATER]


def test_every_public_name_of_a_building_block_is_listed_as_moved() -> None:
    """A name added to a building block later is no old name: only these 36 moved."""
    assert len(MOVED) == 36
    assert {name for name, _ in MOVED} == set(groupkit._MOVED)  # type: ignore[attr-defined]
    assert not {name for name, _ in MOVED} & set(groupkit.__all__)


@pytest.mark.parametrize(("name", "module"), MOVED, ids=[name for name, _ in MOVED])
def test_an_old_name_still_works_and_says_where_it_went(name: str, module: object) -> None:
    with pytest.warns(DeprecationWarning, match=rf"groupkit\.{name} moved to "
                      rf"{module.__name__}\.{name} in groupkit 0\.2\.0"):  # type: ignore
        old = getattr(groupkit, name)
    assert old is getattr(module, name)


def test_from_import_of_an_old_name_warns_too() -> None:
    with pytest.warns(DeprecationWarning, match="groupkit.signups.SignUp"):
        from groupkit import SignUp  # type: ignore[attr-defined]
    assert SignUp is groupkit.signups.SignUp


def test_a_name_that_never_existed_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'board_viewz'"):
        groupkit.board_viewz  # type: ignore[attr-defined]  # noqa: B018


@pytest.mark.parametrize(("old", "new"), [("groupkit.testing", groupkit_testing),
                                          ("groupkit.allstates", groupkit_testing.allstates)])
def test_the_kit_s_old_module_names_warn_and_re_export_the_kit(old: str, new: object,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    monkeypatch.delitem(sys.modules, old, raising=False)
    with pytest.warns(DeprecationWarning, match=rf"{old} moved to {new.__name__}"):  # type: ignore
        alias = importlib.import_module(old)
    assert alias.__all__ == new.__all__  # type: ignore[attr-defined]
    assert all(getattr(alias, name) is getattr(new, name)
               for name in new.__all__)  # type: ignore[attr-defined]


def test_the_current_names_import_without_a_warning() -> None:
    """Plugins moved to the new names: loading every installed tool, in a fresh process that
    makes a DeprecationWarning an error, loads them all."""
    script = ("from groupkit.core._config import Settings\n"
              "from groupkit.ops._plugins import load_tools\n"
              "registry = load_tools(Settings())\n"
              "refused = [i.name for i in registry.installed if i.problem is not None]\n"
              "print(len(registry.tools), len(refused))\n")
    done = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c", script],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded, problems = done.stdout.split()
    assert int(loaded) >= 21 and problems == "0", done.stderr
