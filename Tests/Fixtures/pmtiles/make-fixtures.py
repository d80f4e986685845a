#!/usr/bin/env python3
"""Writes the PMTiles fixtures that TilesTests read, with the PyPI package pmtiles 3.8.1 (its writer and
its directory and header serialisation), and checks them with that package's reader.

    python3 -m venv venv && venv/bin/pip install pmtiles==3.8.1
    venv/bin/python Tests/Fixtures/pmtiles/make-fixtures.py

vector.pmtiles: gzip-compressed tiles of type MVT at zooms 0-3 whose content is the text "tile z/x/y"
(gzip with mtime 0), except that the ten z3 tiles with tile ids 21-30 all hold "sea", so the writer
stores them as one run; JSON metadata with a name, an attribution and vector_layers.

leaves.pmtiles: every tile of zooms 0-5 (1,365 tiles), uncompressed, holding the text "z/x/y", except
that the z5 tiles with tile ids 400-499 all hold "land"; cut into leaf directories of 50 entries, so a
lookup goes root -> leaf -> tile. The writer makes leaves only past a 16 KB root; a small leaf size
makes them here with the package's own build_roots_leaves.
"""

import gzip
import json
import os

from pmtiles.reader import MemorySource, Reader
from pmtiles.tile import Compression, TileType, serialize_header, tileid_to_zxy, zxy_to_tileid
from pmtiles.writer import Writer, build_roots_leaves, write

HERE = os.path.dirname(os.path.abspath(__file__))
HELSINKI = {"min_lon_e7": 249_352_000, "min_lat_e7": 601_642_000, "max_lon_e7": 249_534_000,
            "max_lat_e7": 601_791_000, "center_zoom": 2, "center_lon_e7": 249_443_000,
            "center_lat_e7": 601_716_500}


def vector_tile_text(tile_id):
    z, x, y = tileid_to_zxy(tile_id)
    return "sea" if 21 <= tile_id <= 30 else f"tile {z}/{x}/{y}"


def make_vector():
    path = os.path.join(HERE, "vector.pmtiles")
    last = zxy_to_tileid(3, 7, 7)
    with write(path) as writer:
        for tile_id in range(0, last + 1):
            writer.write_tile(tile_id, gzip.compress(vector_tile_text(tile_id).encode(), mtime=0))
        writer.finalize(
            {"tile_type": TileType.MVT, "tile_compression": Compression.GZIP, **HELSINKI},
            {"name": "mymap fixture", "attribution": "© mymap tests",
             "vector_layers": [{"id": "water", "fields": {"class": "String"}}]})
    with open(path, "rb") as f:
        reader = Reader(MemorySource(f.read()))
        for tile_id in range(0, last + 1):
            z, x, y = tileid_to_zxy(tile_id)
            assert gzip.decompress(reader.get(z, x, y)).decode() == vector_tile_text(tile_id)
        assert reader.get(4, 0, 0) is None
        assert reader.header()["root_length"] > 0 and reader.header()["leaf_directory_length"] == 0


def leaves_tile_text(tile_id):
    z, x, y = tileid_to_zxy(tile_id)
    return "land" if 400 <= tile_id <= 499 else f"{z}/{x}/{y}"


def make_leaves():
    last = zxy_to_tileid(5, 31, 0)  # the last tile of zoom 5 on the Hilbert curve
    assert tileid_to_zxy(last + 1)[0] == 6
    path = os.path.join(HERE, "leaves.pmtiles")
    with open(os.devnull, "wb") as sink:
        writer = Writer(sink)  # used for its deduplicating entries only; the file is assembled below
        for tile_id in range(0, last + 1):
            writer.write_tile(tile_id, leaves_tile_text(tile_id).encode())
        writer.tile_f.seek(0)
        tile_data = writer.tile_f.read()
    entries = sorted(writer.tile_entries, key=lambda e: e.tile_id)
    root, leaves, leaf_count = build_roots_leaves(entries, 50)
    assert leaf_count > 20
    metadata = gzip.compress(json.dumps({"name": "leaves"}).encode(), mtime=0)
    header = {
        "root_offset": 127, "root_length": len(root),
        "metadata_offset": 127 + len(root), "metadata_length": len(metadata),
        "leaf_directory_offset": 127 + len(root) + len(metadata), "leaf_directory_length": len(leaves),
        "tile_data_offset": 127 + len(root) + len(metadata) + len(leaves), "tile_data_length": len(tile_data),
        "addressed_tiles_count": last + 1, "tile_entries_count": len(entries),
        "tile_contents_count": len(writer.hash_to_offset), "clustered": True,
        "internal_compression": Compression.GZIP, "tile_compression": Compression.NONE,
        "tile_type": TileType.UNKNOWN, "min_zoom": 0, "max_zoom": 5,
    }
    data = serialize_header(header) + root + metadata + leaves + tile_data
    reader = Reader(MemorySource(data))
    for tile_id in range(0, last + 1):
        z, x, y = tileid_to_zxy(tile_id)
        assert reader.get(z, x, y).decode() == leaves_tile_text(tile_id), (z, x, y)
    with open(path, "wb") as out:
        out.write(data)


if __name__ == "__main__":
    make_vector()
    make_leaves()
