#!/usr/bin/env python3
"""png_colors.py PNG NAME=#rrggbb... — count the pixels of a screenshot near
each named colour (within 40 per channel) and print "NAME N" lines, plus
"size WxH". Standard library only: a small PNG decoder for the 8-bit RGB(A)
images Chromium writes. Used by the report's screenshot test to prove the
chart and the search tree were rendered, not just written."""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG: " + path)
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                sys.exit("unsupported PNG (depth %d, colour type %d)" % (depth, ctype))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def main():
    w, h, bpp, rows = decode(sys.argv[1])
    want = {}
    for arg in sys.argv[2:]:
        name, _, hexc = arg.partition("=")
        want[name] = tuple(int(hexc.lstrip("#")[k:k + 2], 16) for k in (0, 2, 4))
    counts = dict.fromkeys(want, 0)
    for line in rows:
        for x in range(0, w * bpp, bpp):
            px = line[x:x + 3]
            for name, c in want.items():
                if all(abs(px[k] - c[k]) <= 40 for k in range(3)):
                    counts[name] += 1
    print("size %dx%d" % (w, h))
    for name in want:
        print(name, counts[name])


main()
