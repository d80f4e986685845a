#!/usr/bin/env python3
"""Writes the tiny basemap fixture beside this script, by hand (Python standard library only).

    python3 Tests/Fixtures/basemap/make_fixture.py

The files are invented test data (no licence needed):

- land.shp/.shx/.dbf/.cpg  polygon shapefile, 3 records:
    1 "Squareland": lon -10..30, lat 35..60, with a hole lon 5..10, lat 40..45
    2 "Côte d'Edge" (UTF-8): a strip around the world, lon -180..180, lat -90..-70 (clamped to
      -85.05 in Web Mercator), an island of one degree at lon 100, lat 0, and an island of 0.01
      degree at lon 120, lat 10 (under a pixel below band 3)
    3 a null shape, whose table record is marked deleted
  The table has NAME, LABELRANK, MIN_LABEL, POP_EST, LABEL_X, LABEL_Y; record 2 has no label point
  and no MIN_LABEL (the builder falls back to the centroid and to LABELRANK).
- lines.shp/.shx  polyline shapefile, 2 records:
    1 two parts: along lat 40 from lon -170 to 170 every 10 degrees; a short line near Paris
    2 a line of 0.001 degree (under a pixel below band 4)
- cities.csv  GeoNames-like: six cities of each population band, one quoted name with a comma,
  one at lon 180 / lat 89, one row with a bad latitude.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def ring_box(parts):
    xs = [x for part in parts for x, _ in part]
    ys = [y for part in parts for _, y in part]
    return min(xs), min(ys), max(xs), max(ys)


def shape_content(shape_type, parts):
    """The content of a polyline (3) or polygon (5) record; None for a null shape."""
    if parts is None:
        return struct.pack("<i", 0)
    points = [p for part in parts for p in part]
    content = struct.pack("<i", shape_type)
    content += struct.pack("<4d", *ring_box(parts))
    content += struct.pack("<ii", len(parts), len(points))
    start = 0
    for part in parts:
        content += struct.pack("<i", start)
        start += len(part)
    for x, y in points:
        content += struct.pack("<2d", x, y)
    return content


def write_shapefile(name, shape_type, records):
    contents = [shape_content(shape_type, parts) for parts in records]
    all_parts = [part for parts in records if parts for part in parts]
    box = ring_box(all_parts)

    def header(length_bytes):
        # File code and length (in 16-bit words) big-endian; version, type and box little-endian.
        h = struct.pack(">i", 9994) + b"\0" * 20 + struct.pack(">i", length_bytes // 2)
        h += struct.pack("<ii", 1000, shape_type) + struct.pack("<4d", *box) + struct.pack("<4d", 0, 0, 0, 0)
        assert len(h) == 100
        return h

    body = b""
    index = b""
    offset = 100
    for number, content in enumerate(contents, start=1):
        index += struct.pack(">ii", offset // 2, len(content) // 2)
        record = struct.pack(">ii", number, len(content) // 2) + content
        body += record
        offset += len(record)
    with open(os.path.join(HERE, name + ".shp"), "wb") as f:
        f.write(header(100 + len(body)) + body)
    with open(os.path.join(HERE, name + ".shx"), "wb") as f:
        f.write(header(100 + len(index)) + index)


def write_dbf(name, fields, rows):
    """dBase III: header, 32-byte field descriptors, 0x0D, fixed-width records, 0x1A."""
    record_length = 1 + sum(length for _, _, length, _ in fields)
    header_length = 32 + 32 * len(fields) + 1
    out = struct.pack("<BBBBIHH", 3, 126, 1, 1, len(rows), header_length, record_length) + b"\0" * 20
    for field_name, field_type, length, decimals in fields:
        out += field_name.encode("ascii").ljust(11, b"\0") + field_type.encode("ascii") + b"\0" * 4
        out += struct.pack("<BB", length, decimals) + b"\0" * 14
    out += b"\x0d"
    for deleted, values in rows:
        out += b"*" if deleted else b" "
        for (field_name, field_type, length, decimals), value in zip(fields, values):
            if value is None:
                text = b" " * length
            elif field_type == "C":
                text = value.encode("utf-8").ljust(length, b" ")
            else:
                text = (("%.*f" % (decimals, value)) if decimals else str(int(value))).encode("ascii").rjust(length, b" ")
            assert len(text) == length, (field_name, value)
            out += text
    out += b"\x1a"
    with open(os.path.join(HERE, name + ".dbf"), "wb") as f:
        f.write(out)
    with open(os.path.join(HERE, name + ".cpg"), "w") as f:
        f.write("UTF-8")


def main():
    # Outer rings clockwise (with y up), holes counter-clockwise, each closed: the shapefile rules.
    square = [(-10, 35), (-10, 60), (30, 60), (30, 35), (-10, 35)]
    hole = [(5, 40), (10, 40), (10, 45), (5, 45), (5, 40)]
    strip = [(-180, -90), (-180, -70), (180, -70), (180, -90), (-180, -90)]
    island = [(100, 0), (100, 1), (101, 0), (100, 0)]
    tiny = [(120, 10), (120, 10.01), (120.01, 10.01), (120.01, 10), (120, 10)]
    write_shapefile("land", 5, [[square, hole], [strip, island, tiny], None])
    write_dbf(
        "land",
        [("NAME", "C", 24, 0), ("LABELRANK", "N", 2, 0), ("MIN_LABEL", "N", 4, 1),
         ("POP_EST", "N", 12, 1), ("LABEL_X", "N", 11, 6), ("LABEL_Y", "N", 10, 6)],
        [
            (False, ["Squareland", 2, 1.7, 50000000.0, 10.0, 50.0]),
            (False, ["Côte d'Edge", 5, None, 1000.0, None, None]),
            (True, ["Deleted", 1, 0.0, 1.0, 0.0, 0.0]),
        ])

    along = [(lon, 40) for lon in range(-170, 171, 10)]
    near_paris = [(2.0, 48.0), (2.5, 48.5), (3.0, 49.0)]
    tiny_line = [(50, 20), (50.001, 20)]
    write_shapefile("lines", 3, [[along, near_paris], [tiny_line]])

    with open(os.path.join(HERE, "cities.csv"), "w", newline="") as f:
        f.write("geonameid,name,countrycode,latitude,longitude,population,timezone\n")
        f.write("1,Bigcity,XX,20.0,-40.0,6000000,Etc/UTC\n")
        f.write("2,Paris,FR,48.85341,2.3488,2138551,Europe/Paris\n")
        f.write('3,"Comma, Town",XX,45.0,0.0,400000,Etc/UTC\n')
        f.write("4,Midtown,XX,50.0,20.0,150000,Etc/UTC\n")
        f.write("5,Smallville,XX,40.0,-5.0,20000,Etc/UTC\n")
        f.write("6,Edgetown,XX,89.0,180.0,15000,Etc/UTC\n")
        f.write("7,Badrow,XX,abc,0.0,15000,Etc/UTC\n")


if __name__ == "__main__":
    main()
