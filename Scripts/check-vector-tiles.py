#!/usr/bin/env python3
"""Check a vector MBTiles or PMTiles file: per zoom, the tiles, and each layer's feature count.

For MBTiles it also checks what the format requires of us: metadata `format=pbf`, gzip-compressed tile
data that decodes as Mapbox Vector Tiles, and TMS rows (the row of the tile holding the metadata's
center, flipped, must be in the file at the top zoom). For PMTiles it checks the v3 header (tile type
MVT, gzip tiles) and that it holds the same tiles as a given MBTiles file, byte for byte.

Needs mapbox-vector-tile (PyPI) and, for PMTiles, pmtiles (PyPI).
Usage: check-vector-tiles.py FILE.mbtiles [--same-as FILE.pmtiles]
"""

import collections
import gzip
import math
import sqlite3
import sys

import mapbox_vector_tile


def fail(message):
    sys.exit(f"check-vector-tiles: {message}")


def mbtiles_tiles(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    metadata = dict(db.execute("SELECT name, value FROM metadata"))
    tiles = {(z, x, y): data for z, x, y, data in db.execute(
        "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")}
    db.close()
    return metadata, tiles


def pmtiles_tiles(path):
    from pmtiles.reader import MmapSource, Reader, all_tiles
    from pmtiles.tile import Compression, TileType

    with open(path, "rb") as f:
        reader = Reader(MmapSource(f))
        header = reader.header()
        if header["tile_type"] != TileType.MVT:
            fail(f"{path}: tile type {header['tile_type']}, expected MVT")
        if header["tile_compression"] != Compression.GZIP:
            fail(f"{path}: tile compression {header['tile_compression']}, expected gzip")
        tiles = {key: data for key, data in all_tiles(reader.get_bytes)}
        return header, reader.metadata(), tiles


def check_tms_rows(metadata, tiles):
    lon, lat, _ = (float(v) for v in metadata["center"].split(","))
    z = int(metadata["maxzoom"])
    n = 2**z
    x = int((lon + 180) / 360 * n)
    y_xyz = int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)
    if (z, x, n - 1 - y_xyz) not in tiles:
        fail(f"the center tile {z}/{x}/{y_xyz} is not stored at TMS row {n - 1 - y_xyz}")


def layer_counts(tiles):
    """{zoom: (tile count, Counter of layer -> features)}."""
    per_zoom = collections.defaultdict(lambda: [0, collections.Counter()])
    for (z, _x, _y), data in sorted(tiles.items()):
        if data[:2] != b"\x1f\x8b":
            fail(f"tile {z}/{_x}/{_y} is not gzip-compressed")
        decoded = mapbox_vector_tile.decode(gzip.decompress(data))
        per_zoom[z][0] += 1
        for name, layer in decoded.items():
            per_zoom[z][1][name] += len(layer["features"])
    return per_zoom


def main():
    args = sys.argv[1:]
    if len(args) not in (1, 3) or (len(args) == 3 and args[1] != "--same-as"):
        fail(__doc__.strip().splitlines()[-1])
    metadata, tiles = mbtiles_tiles(args[0])
    for key in ("name", "format", "bounds", "center", "minzoom", "maxzoom", "json", "attribution"):
        if key not in metadata:
            fail(f"{args[0]}: metadata has no {key}")
    if metadata["format"] != "pbf":
        fail(f"{args[0]}: metadata format is {metadata['format']!r}, expected 'pbf'")
    check_tms_rows(metadata, tiles)
    print(f"{args[0]}: {len(tiles)} tiles; attribution: {metadata['attribution']}")
    for z, (count, layers) in sorted(layer_counts(tiles).items()):
        listed = ", ".join(f"{name} {n}" for name, n in sorted(layers.items())) or "empty"
        print(f"  z{z:<2} {count} tile{'s' if count != 1 else ' '}: {listed}")
    if len(args) == 3:
        header, pm_metadata, pm_tiles = pmtiles_tiles(args[2])
        flipped = {(z, x, 2**z - 1 - y): data for (z, x, y), data in tiles.items()}
        if pm_tiles != flipped:
            fail(f"{args[2]}: does not hold the same tiles as {args[0]}")
        if pm_metadata.get("attribution") != metadata["attribution"]:
            fail(f"{args[2]}: attribution {pm_metadata.get('attribution')!r} differs")
        print(f"{args[2]}: PMTiles v{header['version']}, {len(pm_tiles)} tiles, the same as the MBTiles")


if __name__ == "__main__":
    main()
