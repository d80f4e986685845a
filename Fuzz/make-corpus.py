#!/usr/bin/env python3
"""Writes the seed corpora of Fuzz/Corpus/<harness>/: small files taken from the project's fixtures and
examples, plus a few written here (text seeds, and PNG variants the fixtures lack). Run from anywhere:
`python3 Fuzz/make-corpus.py`; it replaces Fuzz/Corpus. Only the standard library is needed."""

import gzip
import hashlib
import json
import shutil
import sqlite3
import struct
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "Fuzz" / "Corpus"
PLACES = ROOT / "Tests" / "PlacesTests" / "Fixtures"
IMAGES = ROOT / "Tests" / "Fixtures" / "images"
LARGEST = 10_000  # bytes: seeds stay small, so that mutations stay fast


def put(harness, data, name=None):
    data = data.encode() if isinstance(data, str) else data
    assert len(data) <= LARGEST, f"{harness}/{name}: {len(data)} bytes"
    folder = CORPUS / harness
    folder.mkdir(parents=True, exist_ok=True)
    (folder / (name or hashlib.sha1(data).hexdigest()[:12])).write_bytes(data)


def copy(harness, *paths):
    for path in paths:
        put(harness, path.read_bytes(), path.name)


# --- PNG variants, written by hand (the fixtures have only 8-bit RGB and RGBA) -------------------------

def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png(width, height, depth, color, rows, extra=b"", interlaced=False):
    """`rows` are the raw scanlines without filter bytes; `interlaced` writes them as Adam7 passes."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    if interlaced:
        bits = [[(row[x * depth * channels // 8: (x + 1) * depth * channels // 8]) for x in range(width)]
                for row in rows] if depth >= 8 else None
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        raw = b""
        for x0, y0, dx, dy in passes:
            for y in range(y0, height, dy):
                pixels = b"".join(bits[y][x] for x in range(x0, width, dx))
                if pixels:
                    raw += b"\0" + pixels
    else:
        raw = b"".join(b"\0" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 1 if interlaced else 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def png_seeds():
    gray = [bytes((x * 32 + y) % 256 for x in range(8)) for y in range(8)]
    put("png", png(8, 8, 8, 0, gray), "gray-8x8.png")
    put("png", png(8, 8, 8, 0, gray, interlaced=True), "gray-interlaced.png")
    palette = chunk(b"PLTE", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]))
    transparency = chunk(b"tRNS", bytes([255, 128, 0]))
    put("png", png(4, 4, 2, 3, [bytes([0b00011011])] * 4, palette + transparency), "palette-2bit-trns.png")
    put("png", png(2, 2, 16, 6, [bytes(range(16))] * 2), "rgba-16bit.png")
    put("png", png(3, 1, 8, 4, [bytes([10, 255, 20, 128, 30, 0])]), "gray-alpha.png")
    put("png", png(1, 1, 1, 0, [b"\x80"], chunk(b"gAMA", struct.pack(">I", 45455))), "1bit-gamma.png")
    copy("png", IMAGES / "quadrants.png", IMAGES / "quadrants-alpha.png")


# --- Keyed archives: the placemarks of the Core Data fixture -------------------------------------------

def keyed_archive_seeds():
    with sqlite3.connect(PLACES / "coredata" / "DataModel.sqlite") as database:
        for key, blob in database.execute("SELECT Z_PK, ZPLACEMARK FROM ZLOCATION WHERE ZPLACEMARK IS NOT NULL"):
            put("keyed-archive", blob, f"placemark-{key}.bplist")


# --- PMTiles: the fixtures, and their directories as the directory decoder sees them (inflated) ------------

def pmtiles_seeds():
    fixtures = ROOT / "Tests" / "Fixtures" / "pmtiles"
    for name in ["vector.pmtiles", "leaves.pmtiles"]:
        archive = (fixtures / name).read_bytes()
        put("pmtiles", archive, name)
        root_offset, root_length, _, _, leaf_offset, leaf_length = struct.unpack_from("<6Q", archive, 8)
        gzipped = archive[97] == 2
        unpack = gzip.decompress if gzipped else bytes
        put("pmtiles-directory", unpack(archive[root_offset:root_offset + root_length]), f"{name}-root")
        if leaf_length:
            # The first leaf: a gzip stream ends at its own end, so inflating the section gives just that one.
            leaves = archive[leaf_offset:leaf_offset + leaf_length]
            first = zlib.decompressobj(31).decompress(leaves) if gzipped else leaves
            put("pmtiles-directory", first[:LARGEST], f"{name}-leaf")


def main():
    shutil.rmtree(CORPUS, ignore_errors=True)
    examples = ROOT / "Examples"
    styles = ROOT / "Styles"
    copy("json", examples / "cupertino.json", styles / "dark.json", PLACES / "asia.geojson")
    for text in ['[1e308, -0, 0.1, 1E-7, 12345678901234567890, -2.5e-324]', '"\\u00e9\\ud83d\\ude00\\n\\t\\\\"',
                 '[[[{"a": [], "b": {}}]]]', '{"a": null, "b": true, "c": false}', '\ufeff{}']:
        put("json", text)

    copy("locations-json", examples / "cupertino.json", examples / "world-trip.json", PLACES / "europe.json")
    put("locations-json", '{"locations": [{"latitude": 1, "longitude": 2}]}')
    put("locations-json", '{"user": {"latitude": -33.9, "longitude": 151.2}, "locations": []}')
    copy("geojson", PLACES / "asia.geojson", PLACES / "mixed.geojson")
    put("geojson", '{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.35, 48.85]}, '
        '"properties": {"name": "Paris", "id": "p"}}')
    copy("gpx", *(PLACES / name for name in
                  ["garmin.gpx", "gpx10.gpx", "osmand-favourites.gpx", "bad-coordinate.gpx", "broken-tag.gpx"]))
    put("gpx", '<gpx xmlns="http://www.topografix.com/GPX/1/1" xmlns:m="urn:mymap:gpx:1"><wpt lat="1" lon="2">'
        '<name>A &amp; B</name><extensions><m:id>a</m:id><m:placemark><m:locality>X</m:locality>'
        '</m:placemark></extensions></wpt><trk/></gpx>')
    copy("csv", PLACES / "spreadsheet.csv", PLACES / "bad-latitude.csv", PLACES / "unclosed-quote.csv")
    put("csv", "latitude;longitude;description\n1,5;2,5;a\n")
    copy("locations", examples / "world-trip.json", PLACES / "mixed.geojson", PLACES / "gpx10.gpx",
         PLACES / "spreadsheet.csv")
    copy("style", styles / "dark.json", styles / "default.json")

    # MapLibre styles: the bundled ones cut into small styles of a few layers each.
    for name in ["light", "dark"]:
        style = json.loads((styles / "vector" / f"{name}.json").read_text())
        layers = style["layers"]
        for start in range(0, len(layers), 8 if name == "light" else 16):
            part = {"version": 8, "sources": style["sources"], "layers": layers[start:start + 4]}
            put("map-style", json.dumps(part, separators=(",", ":")), f"{name}-{start}.json")
    keyed_archive_seeds()
    pmtiles_seeds()
    vector = ROOT / "Tests" / "Fixtures" / "vector"
    copy("vector-tile", vector / "known.mvt", vector / "value-types.mvt")
    png_seeds()
    copy("jpeg", *(IMAGES / name for name in
                   ["baseline.jpg", "cmyk.jpg", "grayscale.jpg", "progressive.jpg", "tile-256.jpg"]))
    copy("webp", *(IMAGES / name for name in
                   ["lossless-alpha.webp", "lossy-alpha.webp", "lossy.webp", "tile-256.webp"]))

    for template in ["https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png",
                     "https://api.example.com/tiles/{z}/{x}/{-y}{r}.webp?key={key:KEY}",
                     "http://user:pass@{s:1234}.example.org:8080/{z}/{x}/{y}.jpg",
                     "HTTPS://{s:t1, t2}.example.org/{z}/{x}/{y}"]:
        put("tile-url-template", template)
    for headers in ["Cache-Control: max-age=3600\nETag: \"abc\"\nAge: 100",
                    "Expires: Sun, 06 Nov 1994 08:49:37 GMT\nDate: Sun, 06 Nov 1994 08:00:00 GMT",
                    "expires: Sunday, 06-Nov-94 08:49:37 GMT\nLast-Modified: Sun Nov  6 08:49:37 1994",
                    "Cache-Control: public, no-cache=\"set-cookie\", max-age=\"60\"\nExpires: 0"]:
        put("http-cache-headers", headers)

    header = (IMAGES / "quadrants.png").read_bytes()
    put("mbtiles-metadata", "attribution=<a href=\"x\">&copy; OSM</a>\nformat=png\nbounds=-180,-85,180,85\n"
        "minzoom=0\nmaxzoom=3\ntile 0 0 0\n\0".encode() + header, "metadata-and-tile")
    put("mbtiles-metadata", b"tilesize=512\nname=x\ntile 2 1 1\ntile 3 7 7\n\0" + header[:24], "tilesize")

    for argv in ["render\n--out\nmap.png\n--size=800x600\nplaces.json", "delete\n--all\n--\n-1\nb",
                 "tiles\nfetch\n-z\n3\n-z=4\n-33.9,151.2", "tiles\n--help", "rendr\n--outt\nx", "list\n-h"]:
        put("arguments", argv)


main()
