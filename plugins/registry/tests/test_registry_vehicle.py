"""The van: 126 parts with fixed prices, each a visible region of its own pixels."""

from __future__ import annotations

from typing import Any

from groupkit_registry.vehicle import HEIGHT
from groupkit_registry.vehicle import SECTIONS
from groupkit_registry.vehicle import WIDTH
from groupkit_registry.vehicle import parts
from groupkit_registry.vehicle import pixel_count


def cells(part: Any) -> set[tuple[int, int]]:
    return {(x, y) for rect in part.rects for x in range(rect.x, rect.x + rect.w)
            for y in range(rect.y, rect.y + rect.h)}


def test_there_are_126_parts_with_stable_ids() -> None:
    assert [part.id for part in parts()] == [f"p{n:03d}" for n in range(1, 127)]
    assert len({part.name for part in parts()}) == 126


def test_prices_are_whole_dollars_within_reason() -> None:
    for part in parts():
        assert isinstance(part.price_cents, int)
        assert part.price_cents % 100 == 0 and 1000 <= part.price_cents <= 20000, part


def test_every_part_is_a_visible_region_of_its_own() -> None:
    seen: dict[tuple[int, int], str] = {}
    for part in parts():
        mine = cells(part)
        assert pixel_count(part) == len(mine) >= 5, part.name
        # Some of it is not detail: it has a body to click on.
        assert any(not rect.detail for rect in part.rects), part.name
        for cell in mine:
            assert 0 <= cell[0] < WIDTH and 0 <= cell[1] < HEIGHT
            assert cell not in seen, (part.name, seen.get(cell))
            seen[cell] = part.name
        x, y, w, h = part.box
        assert min(c[0] for c in mine) == x and max(c[0] for c in mine) == x + w - 1
        assert min(c[1] for c in mine) == y and max(c[1] for c in mine) == y + h - 1
        assert part.outline.startswith("M")


def test_touching_parts_have_different_blueprint_shades() -> None:
    owner = {cell: part for part in parts() for cell in cells(part)}
    for (x, y), part in owner.items():
        for neighbour in (owner.get((x + 1, y)), owner.get((x, y + 1))):
            if neighbour is not None and neighbour is not part:
                assert neighbour.shade != part.shade, (part.name, neighbour.name)


def test_sections() -> None:
    assert {part.section for part in parts()} == set(SECTIONS)


async def test_public_view_lists_the_vehicle(h: Any, client: Any,
                                             registry: dict[str, str]) -> None:
    view = await h.read(client, registry["slug"])
    assert view["canvas"] == {"width": WIDTH, "height": HEIGHT}
    assert [(p["id"], p["name"], p["section"], p["priceCents"]) for p in view["parts"]] == [
        (p.id, p.name, p.section, p.price_cents) for p in parts()]
    first = view["parts"][0]
    assert first["shape"]["outline"] == parts()[0].outline
    assert first["shape"]["rects"][0] == [parts()[0].rects[0].x, parts()[0].rects[0].y,
                                          parts()[0].rects[0].w, parts()[0].rects[0].h,
                                          parts()[0].rects[0].fill,
                                          int(parts()[0].rects[0].detail)]
    assert view["sections"] == list(SECTIONS)


async def test_export_leaves_the_drawing_out(client: Any, registry: dict[str, str]) -> None:
    response = await client.post(f"/api/registry/{registry['editToken']}/export")
    data = (await response.get_json())["data"]
    assert len(data["parts"]) == 126 and "shape" not in data["parts"][0]
