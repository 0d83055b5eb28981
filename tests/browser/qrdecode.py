"""Reading a QR code back in tests: the SVG the server drew (segno's one-path form) rasterised
module by module, or a screenshot, decoded with zxing-cpp. `qr_text(svg)` / `png_qr_text(png)`."""

from __future__ import annotations

import io
import re

import zxingcpp
from PIL import Image

PIXELS_PER_MODULE = 8


def svg_modules(svg: str) -> list[list[bool]]:
    """The dark modules of an SVG whose dark path is drawn as 1-unit-high horizontal strokes
    (`M x y` / `m dx dy` moves, `h n` lines), as segno writes it."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))  # type: ignore[union-attr]
    path = re.search(r'<path[^>]*stroke="[^"]+"[^>]*\bd="([^"]+)"', svg)
    assert path, svg[:300]
    grid = [[False] * size for _ in range(size)]
    x = y = 0.0
    for command, numbers in re.findall(r"([MmHh])([^MmHh]*)", path.group(1)):
        values = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", numbers)]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            end = values[0] if command == "H" else x + values[0]
            for column in range(int(x), int(end)):
                grid[int(y)][column] = True
            x = end
    return grid


def qr_text(svg: str) -> str:
    grid = svg_modules(svg)
    size = len(grid) * PIXELS_PER_MODULE
    image = Image.new("L", (size, size), 255)
    pixels = image.load()
    assert pixels is not None
    for row, line in enumerate(grid):
        for column, dark in enumerate(line):
            if dark:
                for dy in range(PIXELS_PER_MODULE):
                    for dx in range(PIXELS_PER_MODULE):
                        pixels[column * PIXELS_PER_MODULE + dx, row * PIXELS_PER_MODULE + dy] = 0
    return image_qr_text(image)


def png_qr_text(png: bytes) -> str:
    return image_qr_text(Image.open(io.BytesIO(png)))


def image_qr_text(image: Image.Image) -> str:
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, f"{len(found)} codes found"
    assert found[0].format == zxingcpp.BarcodeFormat.QRCode
    return found[0].text
