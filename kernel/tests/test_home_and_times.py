"""The home page's sections (a tool's declared group and icon, sorted by title) and moments
written for people: UTC in the page, the viewer's zone once the script runs."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from typing import Any

import demo_plugin
from groupkit.core._moments import local_time
from groupkit.core._moments import next_midnight
from groupkit.core._tool import GROUPS
from groupkit.core._tool import Tool
from groupkit.web._pages import home_groups


def tool(name: str, title: str, group: str = "other", icon: str = "") -> Tool:
    return dataclasses.replace(demo_plugin.groupkit_tool(), name=name, title=title,
                               group=group, icon=icon)


def test_tools_are_grouped_by_occasion_in_order_and_sorted_by_title() -> None:
    tools = [tool("zed", "Zebra draw", "games"), tool("kudo", "kudos wall", "work"),
             tool("abc", "Apple vote", "work"), tool("odd", "Odd one", "no such group"),
             tool("bare", "Bare tool")]
    groups = home_groups(tools)
    assert [group["key"] for group in groups] == ["work", "games", "other"]
    assert [group["title"] for group in groups] == [GROUPS["work"], GROUPS["games"],
                                                    GROUPS["other"]]
    assert [[t.title for t in group["tools"]] for group in groups] == [
        ["Apple vote", "kudos wall"], ["Zebra draw"], ["Bare tool", "Odd one"]]


async def test_home_page_shows_sections_icons_and_a_filter(client: Any) -> None:
    html = await (await client.get("/")).get_data(as_text=True)
    assert '<h2 id="group-other">More tools</h2>' in html
    assert 'data-tool-filter hidden' in html  # shown by the script, useless without it
    assert re.search(r'<li data-tool-item><a href="/new/demo">', html)


def test_a_moment_reads_in_utc_until_the_script_localises_it() -> None:
    assert local_time("2026-11-23T06:43:12.5+00:00") == (
        '<time datetime="2026-11-23T06:43:12.500000+00:00" data-local>'
        '23 Nov 2026, 06:43 UTC</time>')
    assert local_time("2026-11-23T17:43:00+11:00").startswith(
        '<time datetime="2026-11-23T06:43:00+00:00"')
    assert local_time(None) == "" and local_time("") == ""
    assert local_time("<b>soon</b>") == "&lt;b&gt;soon&lt;/b&gt;"


async def test_next_midnight_follows_the_zone_and_its_daylight_saving(
        demo_app: Any, clock: Any) -> None:
    async with demo_app.app_context():
        clock.now = dt.datetime(2026, 11, 22, 9, 15, tzinfo=dt.UTC)  # 20:15 in Sydney (DST)
        assert next_midnight("Australia/Sydney") == "2026-11-22T13:00:00Z"
        clock.now = dt.datetime(2026, 6, 22, 9, 15, tzinfo=dt.UTC)  # winter: UTC+10
        assert next_midnight("Australia/Sydney") == "2026-06-22T14:00:00Z"
        assert next_midnight("UTC") == "2026-06-23T00:00:00Z"
