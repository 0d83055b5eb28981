"""A tool plugin installed as `pip install --no-deps` leaves one: its package and its
dist-info (name, version, Requires-Dist, entry point) in a folder of their own, which a test
puts on the path of a `groupkit` subprocess (PYTHONPATH) or of its own process (`on_path`)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from collections.abc import Sequence
from pathlib import Path

from groupkit.ops import _plugins

#: A plugin built for another plugin API: every kernel of API 1 refuses it by its declaration.
OTHER_API = '''
import dataclasses

import demo_plugin
from groupkit import hookimpl


@hookimpl
def groupkit_tool():
    return dataclasses.replace(demo_plugin.groupkit_tool(), name="{name}", plugin_api=(2, 3))
'''

#: Nothing to import: a plugin refused by its metadata never gets as far as its package.
NOT_IMPORTED = 'raise ImportError("a plugin made for another groupkit was imported")\n'


def install_plugin(site: Path, name: str, source: str,
                   requires: Sequence[str] = ("groupkit>=0.1",)) -> Path:
    """The distribution `groupkit-{name}` 0.1.0, providing the tool `name`, in `site`."""
    package = site / f"groupkit_{name}"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(source.replace("{name}", name), encoding="utf-8")
    info = site / f"groupkit_{name}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: groupkit-{name}\nVersion: 0.1.0\n"
        + "".join(f"Requires-Dist: {line}\n" for line in requires), encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[groupkit.tools]\n{name} = groupkit_{name}\n",
                                           encoding="utf-8")
    return site


@contextlib.contextmanager
def on_path(site: Path) -> Iterator[None]:
    """`site` installed in this process, while the block runs (the kernel reads installed
    entry points once per process: forgotten on the way in and out)."""
    sys.path.insert(0, str(site))
    _plugins._installed_entry_points.cache_clear()
    try:
        yield
    finally:
        sys.path.remove(str(site))
        for module in [m for m in sys.modules if m.split(".")[0].startswith("groupkit_")
                       and str(site) in (getattr(sys.modules[m], "__file__", "") or "")]:
            del sys.modules[module]
        _plugins._installed_entry_points.cache_clear()
