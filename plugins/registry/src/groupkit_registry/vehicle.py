"""The vehicle: a pixel-art campervan, side on, built from 126 parts.

Every part owns its own pixels on one grid (later paint wins, so details sit on panels), has a
fixed price in cents and a stable id `p001`..`p126`. Prices live here and nowhere else: a
request never carries one. The picture is drawn from this table on every page, so a claimed
part is shown built (its colours) and an open one as a blueprint tile (see registry.css).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from functools import cache

from groupkit import N_
from groupkit import gettext

WIDTH, HEIGHT = 86, 50
VAN = 14  # x of the van's rear edge: the van is drawn from here to WIDTH - 9

Cell = tuple[int, int]

# Palette: a cream-over-teal camper with its wedding trimmings.
CREAM, CREAM_SHADE = "#f4ead2", "#e2d3ae"
TEAL, TEAL_DARK = "#3fa39b", "#2b7c75"
CHROME, CHROME_DARK = "#d5dce2", "#9aa6b1"
GLASS, GLASS_SHINE = "#9fd3e6", "#e3f5fb"
TYRE, TYRE_TREAD = "#2b2b2e", "#47474c"
HUB, HUB_SHADE = "#eef2f5", "#b9c3cc"
RED, RED_DARK = "#d9534f", "#a83834"
PINK, PINK_DARK = "#f4b6c8", "#e07c9b"
YELLOW, ORANGE, BLUE = "#f6c945", "#f39c4a", "#2f6fb0"
BROWN, BROWN_DARK = "#b07a46", "#7a5230"
WHITE, INK = "#ffffff", "#3b3440"
FLAGS = ("#e85d75", "#f6c945", "#4fb3bf", "#8bc34a", "#f39c4a")

LETTERS = {
    "J": ["..#", "..#", "..#", "#.#", ".#."], "U": ["#.#", "#.#", "#.#", "#.#", "###"],
    "S": ["###", "#..", "###", "..#", "###"], "T": ["###", ".#.", ".#.", ".#.", ".#."],
    "M": ["#.#", "###", "#.#", "#.#", "#.#"], "A": [".#.", "#.#", "###", "#.#", "#.#"],
    "R": ["##.", "#.#", "##.", "#.#", "#.#"], "I": ["###", ".#.", ".#.", ".#.", "###"],
    "E": ["###", "#..", "##.", "#..", "###"], "D": ["##.", "#.#", "#.#", "#.#", "##."],
    "♥": ["...", "#.#", "###", ".#.", "..."],
}


@dataclasses.dataclass(frozen=True)
class Rect:
    """One run of same-coloured pixels; `detail` pixels stay visible on a blueprint tile."""

    x: int
    y: int
    w: int
    h: int
    fill: str
    detail: bool


@dataclasses.dataclass(frozen=True)
class Part:
    id: str
    name: str  # in English, as the API says it
    words: str  # the name's template in the catalogs ("Balloon {n}"), filled with `values`
    values: tuple[tuple[str, str | int], ...]
    section: str
    price_cents: int
    rects: tuple[Rect, ...]
    box: tuple[int, int, int, int]  # x, y, width, height of the part's pixels
    outline: str  # SVG path data tracing the part's edge
    shade: int  # blueprint shade, different from every neighbour's


class _Canvas:
    """Paint parts in order; a pixel belongs to whichever part painted it last."""

    def __init__(self) -> None:
        self.owner: dict[Cell, int] = {}
        self.colour: dict[Cell, tuple[str, bool]] = {}
        self.specs: list[tuple[str, str, int, tuple[tuple[str, str | int], ...]]] = []

    def part(self, name: str, section: str, dollars: int, **values: str | int) -> int:
        """A new part: `name` is its words (marked for the catalogs), filled with `values`."""
        self.specs.append((name, section, dollars * 100, tuple(values.items())))
        return len(self.specs) - 1

    def paint(self, index: int, cells: Iterable[Cell], fill: str, detail: bool = False) -> None:
        for x, y in cells:
            if 0 <= x < WIDTH and 0 <= y < HEIGHT:
                self.owner[(x, y)] = index
                self.colour[(x, y)] = (fill, detail)


def box(x0: int, y0: int, x1: int, y1: int) -> list[Cell]:
    """Every cell from (x0, y0) to (x1, y1), both included."""
    return [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]


def splits(start: int, end: int, count: int) -> list[tuple[int, int]]:
    """`count` nearly equal column ranges covering start..end."""
    size = end - start + 1
    edges = [start + round(size * n / count) for n in range(count + 1)]
    return [(edges[n], edges[n + 1] - 1) for n in range(count)]


def glyph(x: int, y: int, rows: list[str]) -> list[Cell]:
    return [(x + dx, y + dy) for dy, row in enumerate(rows) for dx, c in enumerate(row)
            if c == "#"]


def _draw(c: _Canvas) -> None:
    v = VAN

    # Balloons tied to the ladder, floating off the back.
    for n, (bx, by, fill) in enumerate([(1, 1, RED), (5, 0, YELLOW), (9, 2, PINK),
                                         (2, 6, "#4fb3bf"), (6, 5, ORANGE), (10, 7, RED)]):
        p = c.part(N_("Balloon {n}"), "Balloons & bunting", 15, n=n + 1)
        c.paint(p, [(bx + 1, by), *box(bx, by + 1, bx + 2, by + 2), (bx + 1, by + 3)], fill)
        c.paint(p, [(bx, by + 1)], WHITE, True)
        c.paint(p, [(bx + 1, by + 4), (bx + 2, by + 5)], INK, True)

    # Ladder up the back, to the roof rack.
    p = c.part(N_("Roof ladder"), "On the roof", 45)
    c.paint(p, box(v - 2, 9, v - 1, 26), CHROME_DARK)
    c.paint(p, [(v - 2, y) for y in range(10, 27, 3)], CHROME, True)

    # Surfboard and picnic basket on the rack.
    board = [*box(v + 10, 5, v + 43, 5), *box(v + 8, 6, v + 46, 6), *box(v + 10, 7, v + 43, 7)]
    for name, (x0, x1), dollars in zip(
            [N_("Surfboard tail"), N_("Surfboard deck (back)"), N_("Surfboard deck (middle)"),
             N_("Surfboard deck (front)"), N_("Surfboard nose")],
            [(v + 8, v + 15), (v + 16, v + 23), (v + 24, v + 31), (v + 32, v + 39),
             (v + 40, v + 46)], [40, 45, 45, 45, 50], strict=True):
        p = c.part(name, "On the roof", dollars)
        c.paint(p, [cell for cell in board if x0 <= cell[0] <= x1], YELLOW)
        c.paint(p, [(x, 6) for x in range(max(x0, v + 12), min(x1, v + 41) + 1)], BLUE, True)
    p = c.part(N_("Picnic basket"), "On the roof", 60)
    c.paint(p, box(v + 50, 5, v + 56, 7), BROWN)
    c.paint(p, [*box(v + 52, 4, v + 54, 4), *[(x, 6) for x in range(v + 50, v + 57, 2)]],
            BROWN_DARK, True)

    for n, (x0, x1) in enumerate(splits(v + 2, v + 57, 4)):
        p = c.part(N_("Roof rack, section {n}"), "On the roof", 35, n=n + 1)
        c.paint(p, box(x0, 8, x1, 8), CHROME_DARK)
        c.paint(p, [(x0 + 1, 9), (x1 - 1, 9)], CHROME_DARK, True)

    # The pop-top: JUST ♥ MARRIED, one tile per letter.
    p = c.part(N_("Pop-top canvas (back)"), "Pop-top", 40)
    c.paint(p, box(v + 4, 10, v + 6, 14), WHITE)
    c.paint(p, box(v + 4, 14, v + 6, 14), RED, True)
    x = v + 7
    for n, letter in enumerate("JUST♥MARRIED"):
        if letter == "♥":
            p = c.part(N_("Pop-top heart"), "Pop-top", 50)
        elif letter == "R":
            first = "JUST♥MARRIED".index("R") == n
            p = c.part(N_("Pop-top letter R (first)") if first else N_("Pop-top letter R (second)"),
                       "Pop-top", 25)
        else:
            p = c.part(N_("Pop-top letter {letter}"), "Pop-top", 25, letter=letter)
        c.paint(p, box(x, 10, x + 3, 14), WHITE)
        c.paint(p, glyph(x, 10, LETTERS[letter]), RED, True)
        x += 4
    p = c.part(N_("Pop-top canvas (front)"), "Pop-top", 40)
    c.paint(p, box(x, 10, v + 57, 14), WHITE)
    c.paint(p, box(x, 14, v + 57, 14), RED, True)

    # The cream top half: roof band, pillars, windows, the band under the windows.
    for n, (x0, x1) in enumerate(splits(v, v + 63, 6)):
        p = c.part(N_("Roof panel {n}"), "Body", 30, n=n + 1)
        c.paint(p, box(x0, 15, x1, 16), CREAM)
        c.paint(p, box(x0, 15, x1, 15), CREAM_SHADE, True)
    for n, (x0, x1) in enumerate([(0, 1), (8, 9), (19, 20), (30, 31), (41, 43), (53, 54)]):
        p = c.part(N_("Window pillar {n}"), "Body", 25, n=n + 1)
        c.paint(p, box(v + x0, 17, v + x1, 23), CREAM)
    windows = [(N_("Back side window"), 2, 7, 55), (N_("Side window 1"), 10, 18, 70),
               (N_("Side window 2"), 21, 29, 70), (N_("Side window 3"), 32, 40, 70),
               (N_("Driver's window"), 44, 52, 65), (N_("Windscreen"), 55, 63, 120)]
    for name, x0, x1, dollars in windows:
        p = c.part(name, "Cabin", dollars)
        c.paint(p, box(v + x0, 17, v + x1, 23), GLASS)
        c.paint(p, [(v + x0 + 1 + k, 22 - k) for k in range(4)], GLASS_SHINE, True)
        if name == "Windscreen":
            c.paint(p, [(v + 63, y) for y in range(17, 24)], CREAM)
    for n, x0 in enumerate([10, 21, 32]):
        p = c.part(N_("Gingham curtain {n}"), "Cabin", 20, n=n + 1)
        c.paint(p, box(v + x0, 17, v + x0 + 2, 23), PINK)
        c.paint(p, [(v + x0 + (y % 2), y) for y in range(17, 24)], PINK_DARK, True)
    p = c.part(N_("Co-pilot pup"), "Cabin", 80)
    c.paint(p, [*box(v + 46, 19, v + 50, 23), *box(v + 47, 18, v + 49, 18)], BROWN)
    c.paint(p, [(v + 46, 18), (v + 50, 18), (v + 46, 19), (v + 50, 19)], BROWN_DARK, True)
    c.paint(p, [(v + 47, 20), (v + 49, 20), (v + 48, 22)], INK, True)
    c.paint(p, [(v + 48, 23)], PINK_DARK, True)
    p = c.part(N_("Steering wheel"), "Cabin", 90)
    c.paint(p, [(v + 56, 20), (v + 55, 21), (v + 57, 21), (v + 56, 22), (v + 55, 23),
                (v + 57, 23)], INK)
    c.paint(p, [(v + 56, 21)], CHROME_DARK, True)
    p = c.part(N_("Side mirror"), "Cabin", 30)
    c.paint(p, box(v + 64, 18, v + 65, 20), CHROME_DARK)
    c.paint(p, [(v + 65, 19)], CHROME, True)
    for n, (x0, x1) in enumerate(splits(v, v + 63, 8)):
        p = c.part(N_("Waist panel {n}"), "Body", 35, n=n + 1)
        c.paint(p, box(x0, 24, x1, 27), CREAM)
        c.paint(p, box(x0, 27, x1, 27), CREAM_SHADE, True)
    p = c.part(N_("Headlight"), "Cabin", 60)
    c.paint(p, box(v + 62, 24, v + 64, 27), CHROME_DARK)
    c.paint(p, box(v + 63, 25, v + 64, 26), "#fff3b0", True)

    # The chrome belt line and the bunting hanging from it.
    for n, (x0, x1) in enumerate(splits(v, v + 63, 6)):
        p = c.part(N_("Chrome trim {n}"), "Body", 30, n=n + 1)
        c.paint(p, box(x0, 28, x1, 28), CHROME)

    # The teal bottom half: two rows of panels with the wheel arches cut out.
    for n, (x0, x1) in enumerate(splits(v, v + 63, 8)):
        p = c.part(N_("Door panel {n}") if 3 <= n <= 6 else N_("Side panel {n}"),
                   "Body", 45 if 3 <= n <= 6 else 40, n=n + 1)
        c.paint(p, box(x0, 29, x1, 34), TEAL)
    for name, x0, x1, dollars in [(N_("Rear skirt"), 0, 6, 35), (N_("Sill panel 1"), 22, 28, 40),
                                  (N_("Sill panel 2"), 29, 35, 40),
                                  (N_("Sill panel 3"), 36, 42, 40),
                                  (N_("Front skirt"), 58, 63, 35)]:
        p = c.part(name, "Body", dollars)
        c.paint(p, box(v + x0, 35, v + x1, 40), TEAL)
    for n, centre in enumerate((14, 50)):
        p = c.part(N_("Rear wheel arch") if n == 0 else N_("Front wheel arch"), "Wheels", 35)
        c.paint(p, [(x, y) for x in range(v + centre - 7, v + centre + 8) for y in range(33, 41)
                    if math.dist((x, y), (v + centre, 42)) > 6.4
                    and (y >= 35 or math.dist((x, y), (v + centre, 42)) <= 8.6)], TEAL_DARK)

    for n, x0 in enumerate(range(v + 1, v + 60, 6)):
        p = c.part(N_("Bunting flag {n}"), "Balloons & bunting", 12, n=n + 1)
        c.paint(p, [*box(x0, 29, x0 + 4, 29), *box(x0 + 1, 30, x0 + 3, 30), (x0 + 2, 31)],
                FLAGS[n % len(FLAGS)])
    p = c.part(N_("Tail light"), "Bits & bobs", 35)
    c.paint(p, box(v, 30, v + 1, 33), RED)
    c.paint(p, [(v, 30)], "#ffb3ae", True)
    # Two-row fittings: a body colour and a one-row shade (louvre slats, handle undersides).
    for name, dollars, (x0, x1, y), colour, shade, (sx0, sx1, sy) in [
            (N_("Engine louvres (top)"), 35, (2, 6, 32), TEAL, TEAL_DARK, (3, 5, 32)),
            (N_("Engine louvres (bottom)"), 35, (2, 6, 35), TEAL, TEAL_DARK, (3, 5, 35)),
            (N_("Sliding door handle"), 18, (22, 24, 32), CHROME, CHROME_DARK, (22, 24, 33)),
            (N_("Driver's door handle"), 18, (44, 46, 32), CHROME, CHROME_DARK, (44, 46, 33))]:
        p = c.part(name, "Bits & bobs", dollars)
        c.paint(p, box(v + x0, y, v + x1, y + 1), colour)
        c.paint(p, box(v + sx0, sy, v + sx1, sy), shade, True)
    p = c.part(N_("Fuel cap"), "Bits & bobs", 45)
    c.paint(p, [(v + 33, 36), *box(v + 32, 37, v + 34, 37), (v + 33, 38)], CHROME_DARK)
    c.paint(p, [(v + 33, 37)], CHROME, True)
    p = c.part(N_("Indicator"), "Bits & bobs", 25)
    c.paint(p, box(v + 61, 30, v + 63, 31), ORANGE)
    p = c.part(N_("Heart badge"), "Bits & bobs", 50)
    c.paint(p, [(v + 57, 32), (v + 59, 32), *box(v + 57, 33, v + 59, 33), (v + 58, 34)], RED)
    c.paint(p, [(v + 58, 32)], WHITE, True)
    p = c.part(N_("Door step"), "Bits & bobs", 30)
    c.paint(p, box(v + 24, 41, v + 38, 41), CHROME_DARK)

    # Bumpers, exhaust (puffing a heart), mudflaps.
    for name, x0, x1 in [(N_("Rear bumper (corner)"), -3, -1), (N_("Rear bumper"), 0, 2),
                         (N_("Front bumper"), 61, 63), (N_("Front bumper (corner)"), 64, 66)]:
        p = c.part(name, "Bits & bobs", 40)
        c.paint(p, box(v + x0, 39, v + x1, 40), CHROME)
        c.paint(p, box(v + x0, 40, v + x1, 40), CHROME_DARK, True)
    p = c.part(N_("Exhaust pipe"), "Bits & bobs", 30)
    c.paint(p, box(v - 4, 41, v - 1, 42), CHROME_DARK)
    c.paint(p, [(v - 4, 41)], INK, True)
    p = c.part(N_("Exhaust puff (a heart)"), "Bits & bobs", 20)
    c.paint(p, glyph(v - 8, 37, ["#.#", "###", ".#."]), "#d9d4de")
    for name, x0 in [(N_("Rear mudflap"), 6), (N_("Front mudflap"), 42)]:
        p = c.part(name, "Wheels", 20)
        c.paint(p, box(v + x0, 40, v + x0 + 1, 44), INK)

    # Wheels: four tyre quarters and a hubcap each.
    # Each wheel's words: its tyre quarters (top back, top front, bottom front, bottom back)
    # and its hubcap, whole names so that each language can word them its own way.
    for centre, quarters, hubcap in (
            (14, (N_("Rear tyre (top back)"), N_("Rear tyre (top front)"),
                  N_("Rear tyre (bottom front)"), N_("Rear tyre (bottom back)")),
             N_("Rear hubcap")),
            (50, (N_("Front tyre (top back)"), N_("Front tyre (top front)"),
                  N_("Front tyre (bottom front)"), N_("Front tyre (bottom back)")),
             N_("Front hubcap"))):
        cx, cy = v + centre, 42
        around = [(x, y) for x in range(cx - 6, cx + 7) for y in range(cy - 6, cy + 7)]
        for quarter, (dx_sign, dy_sign) in zip(
                quarters, [(-1, -1), (1, -1), (1, 1), (-1, 1)], strict=True):
            p = c.part(quarter, "Wheels", 55)
            cells = [(x, y) for x, y in around if 3.6 < math.dist((x, y), (cx, cy)) <= 6.4
                     and (x - cx) * dx_sign >= 0 and (y - cy) * dy_sign >= 0
                     and not ((x - cx) * dx_sign == 0 and dx_sign > 0)
                     and not ((y - cy) * dy_sign == 0 and dy_sign > 0)]
            c.paint(p, cells, TYRE)
            c.paint(p, [cell for cell in cells if math.dist(cell, (cx, cy)) > 5.6
                        and (cell[0] + cell[1]) % 2 == 0], TYRE_TREAD, True)
        p = c.part(hubcap, "Wheels", 65)
        hub = [(x, y) for x, y in around if math.dist((x, y), (cx, cy)) <= 3.6]
        c.paint(p, hub, WHITE)
        c.paint(p, [cell for cell in hub if math.dist(cell, (cx, cy)) <= 2.3], HUB)
        c.paint(p, [(cx, cy)], HUB_SHADE, True)

    # Tin cans rattling along behind.
    for n, (x0, y0) in enumerate([(0, 44), (3, 45), (6, 44), (9, 45)]):
        p = c.part(N_("Tin can {n}"), "Balloons & bunting", 10, n=n + 1)
        c.paint(p, box(x0, y0, x0 + 1, y0 + 2), CHROME)
        c.paint(p, box(x0, y0, x0 + 1, y0), CHROME_DARK, True)
        c.paint(p, [(x0 + 1, y0 - 1), (x0 + 2, y0 - 2)], INK, True)


def _runs(cells: list[tuple[Cell, tuple[str, bool]]]) -> list[Rect]:
    """Merge a part's pixels into horizontal runs of one colour, then stack equal runs."""
    rows: list[Rect] = []
    for (x, y), (fill, detail) in sorted(cells, key=lambda item: (item[0][1], item[0][0])):
        last = rows[-1] if rows else None
        if last and last.y == y and last.x + last.w == x and (last.fill, last.detail) == (
                fill, detail):
            rows[-1] = dataclasses.replace(last, w=last.w + 1)
        else:
            rows.append(Rect(x, y, 1, 1, fill, detail))
    stacked: list[Rect] = []
    for rect in sorted(rows, key=lambda r: (r.x, r.w, r.fill, r.detail, r.y)):
        last = stacked[-1] if stacked else None
        if last and (last.x, last.w, last.fill, last.detail) == (
                rect.x, rect.w, rect.fill, rect.detail) and last.y + last.h == rect.y:
            stacked[-1] = dataclasses.replace(last, h=last.h + 1)
        else:
            stacked.append(rect)
    # Base colours first, details on top.
    return sorted(stacked, key=lambda r: (r.detail, r.y, r.x))


def _outline(cells: set[Cell]) -> str:
    """Path data for every edge between a part's pixel and a pixel that is not the part's,
    collinear unit edges merged."""
    rows: dict[int, list[int]] = {}
    columns: dict[int, list[int]] = {}
    for x, y in cells:
        if (x, y - 1) not in cells:
            rows.setdefault(y, []).append(x)
        if (x, y + 1) not in cells:
            rows.setdefault(y + 1, []).append(x)
        if (x - 1, y) not in cells:
            columns.setdefault(x, []).append(y)
        if (x + 1, y) not in cells:
            columns.setdefault(x + 1, []).append(y)
    path = [f"M{x} {y}h{length}" for y, xs in sorted(rows.items())
            for x, length in _spans(xs)]
    path += [f"M{x} {y}v{length}" for x, ys in sorted(columns.items())
             for y, length in _spans(ys)]
    return "".join(path)


def _spans(values: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive integers as (start, length)."""
    spans: list[tuple[int, int]] = []
    for value in sorted(values):
        if spans and spans[-1][0] + spans[-1][1] == value:
            spans[-1] = (spans[-1][0], spans[-1][1] + 1)
        else:
            spans.append((value, 1))
    return spans


def _shades(owner: dict[Cell, int], count: int) -> list[int]:
    """A shade per part so that no two touching parts share one (greedy colouring)."""
    touching: list[set[int]] = [set() for _ in range(count)]
    for (x, y), index in owner.items():
        for other in (owner.get((x + 1, y)), owner.get((x, y + 1))):
            if other is not None and other != index:
                touching[index].add(other)
                touching[other].add(index)
    shades: list[int] = []
    for index in range(count):
        used = {shades[other] for other in touching[index] if other < index}
        shades.append(next(shade for shade in range(count) if shade not in used))
    return shades


@cache
def parts() -> tuple[Part, ...]:
    """The 126 parts in build-sheet order."""
    canvas = _Canvas()
    _draw(canvas)
    cells: dict[int, list[tuple[Cell, tuple[str, bool]]]] = {}
    for cell, index in canvas.owner.items():
        cells.setdefault(index, []).append((cell, canvas.colour[cell]))
    shades = _shades(canvas.owner, len(canvas.specs))
    built = []
    for index, (words, section, cents, values) in enumerate(canvas.specs):
        mine = cells.get(index, [])
        xs = [x for (x, _), _ in mine] or [0]
        ys = [y for (_, y), _ in mine] or [0]
        built.append(Part(id=f"p{index + 1:03d}", name=words.format(**dict(values)),
                          words=words, values=values, section=section,
                          price_cents=cents, rects=tuple(_runs(mine)),
                          box=(min(xs), min(ys), max(xs) - min(xs) + 1,
                               max(ys) - min(ys) + 1),
                          outline=_outline({cell for cell, _ in mine}),
                          shade=shades[index]))
    return tuple(built)


@cache
def by_id() -> dict[str, Part]:
    return {part.id: part for part in parts()}


def pixel_count(part: Part) -> int:
    return sum(rect.w * rect.h for rect in part.rects)


SECTIONS = (N_("Balloons & bunting"), N_("On the roof"), N_("Pop-top"), N_("Cabin"), N_("Body"),
            N_("Wheels"), N_("Bits & bobs"))


def spoken_name(part: Part) -> str:
    """The part's name in the language being spoken (a page's reader's; the API's English)."""
    return gettext(part.words).format(**dict(part.values))
