#!/usr/bin/env python3
"""Give tilemaker's MBTiles the metadata a map needs, and write the same tiles as a PMTiles v3 archive.

tilemaker 2.2 writes name, format, bounds, center, minzoom, maxzoom and json (vector_layers) from its
config, but not `attribution` (its `filemetadata` setting only reaches a folder's metadata.json), and
it cannot write PMTiles. This script rewrites the MBTiles metadata (sorted, so the table is the same
whatever order tilemaker used), compacts the file, and converts it with the `pmtiles` package's writer:
gzip tiles (as stored), tile type MVT, identical tiles stored once; the PMTiles metadata carries the
same keys, with `vector_layers` unpacked from the MBTiles `json` value as the PMTiles spec suggests.

Needs pmtiles (PyPI). Usage:
  finish-vector-tiles.py TILES.mbtiles OUT.pmtiles --name NAME --attribution TEXT --description TEXT
                         [--center-zoom Z]
"""

import argparse
import json
import os
import sqlite3

from pmtiles.convert import mbtiles_to_header_json
from pmtiles.tile import zxy_to_tileid
from pmtiles.writer import write


def rewrite_metadata(path, args):
    db = sqlite3.connect(path)
    metadata = dict(db.execute("SELECT name, value FROM metadata"))
    west, south, east, north = (float(v) for v in metadata["bounds"].split(","))
    metadata.update(
        name=args.name,
        description=args.description,
        attribution=args.attribution,
        format="pbf",
        type="baselayer",
        center=f"{(west + east) / 2:.6f},{(south + north) / 2:.6f},{args.center_zoom}",
    )
    json.loads(metadata["json"])  # tilemaker's vector_layers must be valid JSON
    with db:
        db.execute("DELETE FROM metadata")
        db.executemany("INSERT INTO metadata (name, value) VALUES (?, ?)", sorted(metadata.items()))
    db.execute("VACUUM")
    db.close()
    return metadata


def write_pmtiles(mbtiles_path, pmtiles_path, metadata):
    db = sqlite3.connect(f"file:{mbtiles_path}?mode=ro", uri=True)
    rows = db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles").fetchall()
    db.close()
    tiles = sorted((zxy_to_tileid(z, x, (1 << z) - 1 - row), data) for z, x, row, data in rows)
    for tile_id, data in tiles:
        if data[:2] != b"\x1f\x8b":
            raise SystemExit(f"finish-vector-tiles: tile {tile_id} is not gzip-compressed")
    header, _ = mbtiles_to_header_json(metadata)
    pm_metadata = {k: v for k, v in sorted(metadata.items()) if k != "json"}
    pm_metadata["vector_layers"] = json.loads(metadata["json"])["vector_layers"]
    temporary = pmtiles_path + ".tmp"
    with write(temporary) as writer:
        for tile_id, data in tiles:
            writer.write_tile(tile_id, data)
        writer.finalize(header, pm_metadata)
    os.replace(temporary, pmtiles_path)
    return len(tiles)


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("mbtiles")
    parser.add_argument("pmtiles")
    parser.add_argument("--name", required=True)
    parser.add_argument("--attribution", required=True)
    parser.add_argument("--description", required=True)
    parser.add_argument("--center-zoom", type=int, default=14)
    args = parser.parse_args()
    metadata = rewrite_metadata(args.mbtiles, args)
    count = write_pmtiles(args.mbtiles, args.pmtiles, metadata)
    print(f"finish-vector-tiles: metadata set, {count} tiles written to {args.pmtiles}")


if __name__ == "__main__":
    main()
