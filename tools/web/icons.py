#!/usr/bin/env python3
"""Draws the web app's icons, a crowned black draughts piece on four squares of the board, as
PNG files of 192 and 512 pixels (the sizes the manifest names) into tools/web/assets/. Python's
standard library only (zlib for PNG), so the same script gives the same pixels anywhere; the
files are committed, and this script says how they were made:

    python3 tools/web/icons.py [--out tools/web/assets]
"""

import argparse
import os
import struct
import zlib

LIGHT = (0xF0, 0xD9, 0xB5)  # the page's board colours (style.css --light, --dark)
DARK = (0xA9, 0x7A, 0x54)
PIECE = (0x26, 0x26, 0x26)  # --black-piece
RIM = (0x55, 0x55, 0x55)
GOLD = (0xFF, 0xCF, 0x40)  # a black king's crown on the page
CENTRE, RADIUS = (0.5, 0.5), 0.36
# The crown, in units of the icon's side: a band with three points.
CROWN = [(0.33, 0.62), (0.30, 0.41), (0.41, 0.52), (0.50, 0.36), (0.59, 0.52), (0.70, 0.41),
         (0.67, 0.62)]
SAMPLES = 3  # per pixel and axis: the edges are smoothed by averaging 9 points


def inside(poly, x, y):
    """Whether (x, y) is inside the polygon (even-odd rule)."""
    hit = False
    j = len(poly) - 1
    for i, (xi, yi) in enumerate(poly):
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit


def colour(x, y):
    """The colour at (x, y), both from 0 to 1."""
    dx, dy = x - CENTRE[0], y - CENTRE[1]
    d = (dx * dx + dy * dy) ** 0.5
    if d <= RADIUS:
        if inside(CROWN, x, y):
            return GOLD
        # A ring inside the edge, as a draughts piece has.
        return RIM if RADIUS * 0.78 <= d <= RADIUS * 0.83 else PIECE
    return LIGHT if (x < 0.5) == (y < 0.5) else DARK


def png(size):
    """The icon as PNG bytes, `size` pixels square."""
    rows = []
    step = 1 / (size * SAMPLES)
    for py in range(size):
        row = bytearray(b"\0")  # filter: none
        for px in range(size):
            total = [0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = colour((px * SAMPLES + sx + 0.5) * step, (py * SAMPLES + sy + 0.5) * step)
                    total = [t + v for t, v in zip(total, c)]
            row.extend(round(t / SAMPLES ** 2) for t in total)
        rows.append(bytes(row))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "assets"))
    out = ap.parse_args().out
    for size in (192, 512):
        path = os.path.join(out, f"icon-{size}.png")
        with open(path, "wb") as f:
            f.write(png(size))
        print(path)


if __name__ == "__main__":
    main()
