"""The app's routes build their URL-building code when a URL is first built from them
(`_app._LazyBuildRule`), and build the same URLs werkzeug's own rules build."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from werkzeug.routing import Map
from werkzeug.routing import Rule

from groupkit.core._credentials import new_slug


def sample_values(rule: Any) -> dict[str, str]:
    """A value for each of the route's placeholders that its converter takes."""
    values = {}
    for name in rule.arguments:
        regex = rule._converters[name].regex
        values[name] = next(value for value in ("x9", new_slug("Party"), "a/b")
                            if re.fullmatch(regex, value))
    return values


def test_adding_a_route_compiles_no_url_builder(make_app: Callable[..., Any]) -> None:
    app = make_app()
    lazy = [rule for rule in app.url_map.iter_rules() if rule.endpoint != "static"]
    assert len(lazy) > 100
    assert all(rule._build.__name__ == "build" == rule._build_unknown.__name__
               for rule in lazy)


def test_every_route_builds_what_werkzeug_builds_and_matches_back(
        make_app: Callable[..., Any]) -> None:
    app = make_app()
    adapter = app.url_map.bind("localhost")
    plain = Map([Rule(rule.rule, endpoint=rule.endpoint, methods=rule.methods)
                 for rule in app.url_map.iter_rules()],
                converters=app.url_map.converters).bind("localhost")
    checked = 0
    for rule in app.url_map.iter_rules():
        method = sorted(rule.methods - {"HEAD", "OPTIONS"})[0]
        values = sample_values(rule)
        for extra in ({}, {"page": "2"}):  # an unknown value goes to the query string
            built = adapter.build(rule.endpoint, {**values, **extra}, method=method)
            assert built == plain.build(rule.endpoint, {**values, **extra}, method=method)
            assert ("?page=2" in built) == bool(extra)
            path = re.sub(r"\?.*", "", built)
            assert adapter.match(path, method=method) == (rule.endpoint, values)
        assert adapter.build(rule.endpoint, {**values, "page": "2"}, method=method,
                             append_unknown=False) == path
        checked += 1
    assert checked == len(list(app.url_map.iter_rules()))
    # Built once, each builder is werkzeug's compiled one from then on.
    assert all(rule._build.__name__.startswith("<builder:")
               and rule._build_unknown.__name__.startswith("<builder:")
               for rule in app.url_map.iter_rules())
