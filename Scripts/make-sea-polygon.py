#!/usr/bin/env python3
"""Build the sea inside an OpenStreetMap extract's bounding box from the extract's own coastline.

tilemaker's OpenMapTiles config takes the sea from a world coastline shapefile (water_polygons.shp),
which is large and not something we can fetch here; a city extract carries its own `natural=coastline`
ways, and that is enough for the sea inside its box. OSM draws coastlines with the land on the left of
the way's direction and the water on the right. So: the coastline pieces (as cut to the box by
trim-osm-extract.py, each reaching the box's edge) and the edge of the box split the box into faces;
a face is sea when the points just right of the coastline inside it outnumber those just left of it.
A face no coastline touches is land. The result is written as a polygon shapefile in longitude and
latitude (WGS 84), exterior rings clockwise as the shapefile format wants, for tilemaker's `ocean`
layer, which writes it to the `water` layer with class `ocean`.

Needs pyosmium (PyPI `osmium`), shapely and pyshp.
Usage: make-sea-polygon.py TRIMMED.osm.pbf OUTPUT.shp
"""

import sys

import osmium
import shapefile
from shapely.geometry import LineString, Point, box
from shapely.geometry.polygon import orient
from shapely.ops import polygonize, unary_union

# How far beside a coastline segment the side test looks, in degrees (about 10 cm).
SIDE_OFFSET = 1e-6


def bounding_box(path):
    reader = osmium.io.Reader(path, osmium.osm.osm_entity_bits.NOTHING)
    b = reader.header().box()
    reader.close()
    if not b.valid():
        sys.exit(f"{path}: the header has no bounding box")
    return box(b.bottom_left.lon, b.bottom_left.lat, b.top_right.lon, b.top_right.lat)


def coastline_pieces(path, clip):
    pieces = []
    for way in osmium.FileProcessor(path, osmium.osm.NODE | osmium.osm.WAY).with_locations():
        if not way.is_way() or way.tags.get("natural") != "coastline":
            continue
        points = [(n.lon, n.lat) for n in way.nodes if n.location.valid()]
        if len(points) < 2:
            continue
        closed = points[0] == points[-1]
        if not closed:
            # An end the trimming could not carry to the edge is joined to the nearest edge point.
            for index in (0, -1):
                end = Point(points[index])
                if clip.exterior.distance(end) > 1e-9:
                    edge = clip.exterior.interpolate(clip.exterior.project(end))
                    if index == 0:
                        points.insert(0, (edge.x, edge.y))
                    else:
                        points.append((edge.x, edge.y))
        pieces.append(LineString(points))
    return pieces


def side_points(line):
    """Points just right (sea) and just left (land) of each segment's middle."""
    right, left = [], []
    coords = list(line.coords)
    for (x0, y0), (x1, y1) in zip(coords, coords[1:]):
        dx, dy = x1 - x0, y1 - y0
        length = (dx * dx + dy * dy) ** 0.5
        if length == 0:
            continue
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        nx, ny = dy / length * SIDE_OFFSET, -dx / length * SIDE_OFFSET
        right.append(Point(mx + nx, my + ny))
        left.append(Point(mx - nx, my - ny))
    return right, left


def sea(clip, pieces):
    noded = unary_union([clip.exterior] + pieces)
    faces = list(polygonize(noded))
    votes = [0] * len(faces)
    for piece in pieces:
        right, left = side_points(piece)
        for points, vote in ((right, 1), (left, -1)):
            for point in points:
                for index, face in enumerate(faces):
                    if face.contains(point):
                        votes[index] += vote
                        break
    sea_faces = [face for face, v in zip(faces, votes) if v > 0]
    return unary_union(sea_faces) if sea_faces else None, len(faces), len(sea_faces)


def write(path, geometry):
    polygons = list(geometry.geoms) if geometry.geom_type == "MultiPolygon" else [geometry]
    writer = shapefile.Writer(path, shapeType=shapefile.POLYGON)
    writer.field("class", "C", size=16)
    for polygon in polygons:
        polygon = orient(polygon, sign=-1.0)
        rings = [list(polygon.exterior.coords)] + [list(r.coords) for r in polygon.interiors]
        writer.poly(rings)
        writer.record("ocean")
    writer.close()
    with open(path[:-4] + ".prj", "w") as prj:
        prj.write(
            'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],'
            'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]'
        )


def main():
    if len(sys.argv) != 3 or not sys.argv[2].endswith(".shp"):
        sys.exit(__doc__.strip().splitlines()[-1])
    clip = bounding_box(sys.argv[1])
    pieces = coastline_pieces(sys.argv[1], clip)
    geometry, face_count, sea_count = sea(clip, pieces)
    if geometry is None or geometry.is_empty:
        sys.exit("make-sea-polygon: no sea found: the extract has no coastline inside its box")
    write(sys.argv[2], geometry)
    share = geometry.area / clip.area * 100
    print(
        f"make-sea-polygon: {len(pieces)} coastline pieces, {face_count} faces, {sea_count} sea; "
        f"sea covers {share:.1f} % of the box"
    )


if __name__ == "__main__":
    main()
