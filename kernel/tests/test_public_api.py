"""The surface a plugin may import is exactly `groupkit.__all__`."""

from __future__ import annotations

import groupkit


def test_all_is_the_public_surface() -> None:
    exported = set(groupkit.__all__)
    assert len(exported) == len(groupkit.__all__)
    for name in exported:
        assert hasattr(groupkit, name), name
    public = {name for name in vars(groupkit) if not name.startswith("_")}
    modules = {name for name in public if type(getattr(groupkit, name)).__name__ == "module"}
    assert public - modules - {"annotations"} == exported - {"__version__"}
