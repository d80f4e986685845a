"""Glyph ranges for maplibre-native, made from the fonts installed on this machine.

maplibre-native draws text from signed-distance-field glyphs that a style's `glyphs` URL serves as
protobuf files, one per font stack and range of 256 code points. No such files are installed, and
nothing can be fetched, so this module makes them: each glyph is rasterised with FreeType at 24 px
(the size the format assumes), padded by 3 px, and turned into a distance field with SciPy's
Euclidean distance transform (the edge at value 192, 8 px of falloff, as the format's readers
expect). The font of a stack is the first of its names that fontconfig knows ("Noto Sans Regular"
is the family "Noto Sans", style "Regular"). This is a looking aid for the reference renderer, not
mymap's text (mymap shapes text itself with Pango).

Needs freetype-py, numpy and scipy (PyPI) and fontconfig's `fc-list`.
"""

import functools
import os
import subprocess
import urllib.parse

import freetype
import numpy
from scipy.ndimage import distance_transform_edt

# Ranges once made are kept here (relative to the package root, where the scripts run), so a timed
# maplibre-native run does not pay for making glyphs.
CACHE_DIR = os.path.join(".build", "reference-glyphs")
SIZE = 24
BUFFER = 3
RADIUS = 8.0
CUTOFF = 0.25


@functools.cache
def installed_fonts():
    """{"Family Style": font file} for every family and style name fontconfig lists."""
    listing = subprocess.run(
        ["fc-list", "--format", "%{file}\t%{family}\t%{style}\n"],
        capture_output=True, text=True, check=True,
    ).stdout
    fonts = {}
    for line in sorted(listing.splitlines()):
        parts = line.split("\t")
        if len(parts) != 3 or not parts[0].lower().endswith((".ttf", ".otf")):
            continue
        for family in parts[1].split(","):
            for style in parts[2].split(","):
                fonts.setdefault(f"{family} {style}", parts[0])
    return fonts


def font_for_stack(stack):
    fonts = installed_fonts()
    for name in stack.split(","):
        if name.strip() in fonts:
            return fonts[name.strip()]
    return fonts.get("DejaVu Sans Book") or next(iter(fonts.values()))


def _varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field_varint(number, value):
    return _varint(number << 3) + _varint(value)


def _field_bytes(number, data):
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _zigzag(value):
    return (value << 1) ^ (value >> 31)


def _distance_field(alpha):
    """Bytes of the signed distance field of a coverage bitmap padded by BUFFER."""
    padded = numpy.pad(alpha.astype(numpy.float64) / 255.0, BUFFER + 8)
    inside = padded >= 0.5
    outside_distance = distance_transform_edt(~inside) - 0.5
    inside_distance = distance_transform_edt(inside) - 0.5
    distance = numpy.where(inside, -inside_distance, outside_distance)
    edge = (padded > 0) & (padded < 1)
    distance = numpy.where(edge, 0.5 - padded, distance)
    values = 255 - 255 * (distance / RADIUS + CUTOFF)
    values = numpy.clip(numpy.round(values), 0, 255).astype(numpy.uint8)
    return values[8:-8, 8:-8].tobytes()


@functools.cache
def glyph_range(stack, start):
    """The protobuf bytes of the glyphs start..start+255 of a font stack."""
    path = os.path.join(CACHE_DIR, urllib.parse.quote(stack, safe=""), f"{start}-{start + 255}.pbf")
    if os.path.exists(path):
        with open(path, "rb") as f:
            return f.read()
    data = _make_glyph_range(stack, start)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    return data


def _make_glyph_range(stack, start):
    face = freetype.Face(font_for_stack(stack))
    face.set_pixel_sizes(0, SIZE)
    ascender = face.size.ascender >> 6
    glyphs = b""
    for code in range(start, start + 256):
        if face.get_char_index(code) == 0:
            continue
        face.load_char(code, freetype.FT_LOAD_RENDER | freetype.FT_LOAD_NO_HINTING)
        slot = face.glyph
        bitmap = slot.bitmap
        width, height = bitmap.width, bitmap.rows
        message = _field_varint(1, code)
        if width and height:
            alpha = numpy.array(bitmap.buffer, dtype=numpy.uint8).reshape(height, bitmap.pitch)[:, :width]
            message += _field_bytes(2, _distance_field(alpha))
        message += _field_varint(3, width) + _field_varint(4, height)
        message += _field_varint(5, _zigzag(slot.bitmap_left) & 0xFFFFFFFF)
        message += _field_varint(6, _zigzag(slot.bitmap_top - ascender) & 0xFFFFFFFF)
        message += _field_varint(7, round(slot.advance.x / 64))
        glyphs += _field_bytes(3, message)
    stack_message = _field_bytes(1, stack.encode()) + _field_bytes(2, f"{start}-{start + 255}".encode())
    return _field_bytes(1, stack_message + glyphs)
