#!/usr/bin/env python3
"""tests/scripts/png_colours.py FILE: prints "WIDTH HEIGHT COLOURS NON_WHITE" of a PNG (8-bit RGB or RGBA, not
interlaced, as headless Chromium writes screenshots): its size, how many distinct colours it holds and the share of
its pixels that are not white. A small decoder (zlib and the five row filters), so no imaging library is needed."""
import struct
import sys
import zlib


def chunks(data):
    """The (type, body) of each chunk after the signature."""
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length


def paeth(a, b, c):
    """The Paeth predictor of PNG's filter type 4."""
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def rows(width, height, channels, raw):
    """The unfiltered rows of the image, each a bytearray of width * channels bytes."""
    stride = width * channels
    previous = bytearray(stride)
    pos = 0
    for _ in range(height):
        kind = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                line[i] = (line[i] + paeth(left, up, corner)) & 0xFF
        yield line
        previous = line


def main(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(path + ": not a PNG")
    header = next(body for kind, body in chunks(data) if kind == b"IHDR")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        sys.exit(path + ": only 8-bit RGB or RGBA, not interlaced")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(body for kind, body in chunks(data) if kind == b"IDAT"))
    colours = set()
    non_white = 0
    for line in rows(width, height, channels, raw):
        for x in range(0, len(line), channels):
            pixel = bytes(line[x:x + 3])
            colours.add(pixel)
            if pixel != b"\xff\xff\xff":
                non_white += 1
    print(width, height, len(colours), "%.4f" % (non_white / float(width * height)))


if __name__ == "__main__":
    main(sys.argv[1])
