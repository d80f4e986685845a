#!/usr/bin/env python3
"""Writes the vector tile fixtures that VectorTilesTests decode, each with a JSON file of what it holds.

The tiles are encoded by independent software: the PyPI package mapbox-vector-tile 2.2.0 (its encoder
for known.mvt; Google's protobuf runtime through its vector_tile_pb2 for value-types.mvt, whose value
types and layer versions the encoder cannot write) and, for the real tile, tilemaker 2.2.0.

    python3 -m venv venv && venv/bin/pip install mapbox-vector-tile==2.2.0
    venv/bin/python Tests/Fixtures/vector/make-fixtures.py [--mbtiles helsinki.mbtiles]

Without --mbtiles the real tile's files are left as they are (tilemaker's output differs between runs).
The JSON files describe geometry as the decoder under test presents it: rings open (the first vertex is
not repeated), `polygons` giving the number of rings of each polygon, exterior first.
"""

import argparse
import gzip
import json
import os
import sqlite3

import mapbox_vector_tile
from mapbox_vector_tile.Mapbox import vector_tile_pb2

HERE = os.path.dirname(os.path.abspath(__file__))
REAL_TILE = (14, 9326, 4742)  # z/x/y (XYZ rows): central Helsinki, the railway station's tile

# Exterior rings run clockwise on screen (positive area with y down), holes the other way, so the
# encoder's winding fix leaves them as written.
SQUARE = [(100, 100), (400, 100), (400, 400), (100, 400)]
HOLE = [(200, 200), (200, 300), (300, 300), (300, 200)]
TRIANGLE = [(1000, 1000), (1500, 1200), (1100, 1600)]

KNOWN_LAYERS = [
    {
        "name": "poi",
        "extent": 4096,
        "features": [
            {"id": 1, "type": "point", "parts": [[(25, 17)]],
             "properties": {"name": "Senaatintori", "rank": 3, "height": 12.5, "open": True}},
            {"id": 2, "type": "point", "parts": [[(5, 7), (3, 2), (-20, 4100)]],
             "properties": {"name": "Kauppatori", "rank": -7}},
            {"id": None, "type": "point", "parts": [[(4096, 0)]], "properties": {}},
        ],
    },
    {
        "name": "transportation",
        "extent": 4096,
        "features": [
            {"id": 10, "type": "linestring", "parts": [[(2, 2), (2, 10), (10, 10)]],
             "properties": {"class": "primary", "name": "Aleksanterinkatu"}},
            {"id": 11, "type": "linestring",
             "parts": [[(2, 2), (2, 10), (10, 10)], [(1, 1), (3, 5)], [(-64, -64), (4160, 4160)]],
             "properties": {"class": "service", "oneway": False}},
        ],
    },
    {
        "name": "water",
        "extent": 512,
        "features": [
            {"id": 20, "type": "polygon", "parts": [SQUARE, HOLE], "polygons": [2],
             "properties": {"class": "sea"}},
            {"id": 21, "type": "polygon", "parts": [SQUARE, HOLE, TRIANGLE], "polygons": [2, 1],
             "properties": {"class": "lake", "name": "Töölönlahti"}},
        ],
    },
]


def typed(value):
    """A property value as the JSON of the test: its protobuf type and value."""
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int):
        return {"int": value}
    if isinstance(value, float):
        return {"double": value}
    return {"string": value}


def shapely_geometry(feature):
    parts = [[list(p) for p in part] for part in feature["parts"]]
    if feature["type"] == "point":
        points = parts[0]
        return {"type": "Point", "coordinates": points[0]} if len(points) == 1 else {
            "type": "MultiPoint", "coordinates": points}
    if feature["type"] == "linestring":
        return {"type": "MultiLineString", "coordinates": parts} if len(parts) > 1 else {
            "type": "LineString", "coordinates": parts[0]}
    polygons, index = [], 0
    for count in feature["polygons"]:
        polygons.append([ring + [ring[0]] for ring in parts[index:index + count]])
        index += count
    return {"type": "MultiPolygon", "coordinates": polygons} if len(polygons) > 1 else {
        "type": "Polygon", "coordinates": polygons[0]}


def expected_json(layers, typed_value=typed):
    return {"layers": [{
        "name": layer["name"], "version": layer.get("version", 2), "extent": layer["extent"],
        "features": [{
            "id": feature["id"], "type": feature["type"],
            "properties": [[key, typed_value(value)] for key, value in feature["properties"].items()],
            "parts": [[list(point) for point in part] for part in feature["parts"]],
            "polygons": feature.get("polygons", []),
        } for feature in layer["features"]],
    } for layer in layers]}


def write(name, data):
    with open(os.path.join(HERE, name), "wb" if isinstance(data, bytes) else "w") as out:
        out.write(data)


def make_known():
    layers = []
    for layer in KNOWN_LAYERS:
        features = []
        for feature in layer["features"]:
            encoded = {"geometry": shapely_geometry(feature), "properties": feature["properties"]}
            if feature["id"] is not None:
                encoded["id"] = feature["id"]
            features.append(encoded)
        layers.append({"name": layer["name"], "features": features})
    options = {layer["name"]: {"extents": layer["extent"], "y_coord_down": True} for layer in KNOWN_LAYERS}
    data = mapbox_vector_tile.encode(layers, per_layer_options=options)
    check_round_trip(data, KNOWN_LAYERS)
    write("known.mvt", data)
    write("known.json", json.dumps(expected_json(KNOWN_LAYERS), ensure_ascii=False) + "\n")


def check_round_trip(data, layers):
    """The package's own decoder must read back what was meant (its rings are closed, ours open)."""
    decoded = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True, "geojson": False})
    for layer in layers:
        got = decoded[layer["name"]]
        assert got["extent"] == layer["extent"], layer["name"]
        for want, feature in zip(layer["features"], got["features"], strict=True):
            assert feature["properties"] == want["properties"], (want, feature)
            assert feature["geometry"] == shapely_geometry(want), (want, feature["geometry"])


def point_feature(layer, x, y, tags=(), feature_id=None, geometry_type=1):
    feature = layer.features.add()
    if feature_id is not None:
        feature.id = feature_id
    feature.tags.extend(tags)
    feature.type = geometry_type
    zigzag = lambda n: (n << 1) ^ (n >> 31)
    feature.geometry.extend([9, zigzag(x), zigzag(y)])


def make_value_types():
    tile = vector_tile_pb2.tile()
    values = tile.layers.add()
    values.version = 2
    values.name = "values"
    values.extent = 4096
    samples = [
        ("string_value", "Esplanadi"), ("float_value", 1.5), ("double_value", -0.1),
        ("int_value", -9_000_000_000), ("uint_value", 2**63 + 5), ("sint_value", -42), ("bool_value", True),
    ]
    values.keys.extend(["value"])
    expected_features = []
    for index, (field, value) in enumerate(samples):
        setattr(values.values.add(), field, value)
        point_feature(values, index, index, tags=[0, index], feature_id=index)
        kind = {"string_value": "string", "float_value": "float", "double_value": "double",
                "int_value": "int", "uint_value": "uint", "sint_value": "int", "bool_value": "bool"}[field]
        # JSON numbers are doubles to most readers: the 64-bit unsigned value travels as text.
        expected_features.append({"id": index, "type": "point", "parts": [[(index, index)]],
                                  "properties": {"value": {kind: str(value) if kind == "uint" else value}}})
    point_feature(values, 1, 1, feature_id=99, geometry_type=0)  # UNKNOWN type: skipped

    # Version 1 left the winding open: here the first ring runs counter-clockwise on screen and marks
    # the exteriors; the second ring, clockwise, is its hole.
    legacy = tile.layers.add()
    legacy.version = 1
    legacy.name = "legacy"
    legacy.extent = 256
    feature = legacy.features.add()
    feature.type = 3
    feature.geometry.extend([9, 0, 0, 26, 0, 20, 20, 0, 0, 19, 15, 9, 9, 10, 26, 4, 0, 0, 4, 3, 0, 15])
    legacy_ring = [(0, 0), (0, 10), (10, 10), (10, 0)]
    legacy_hole = [(5, 5), (7, 5), (7, 7), (5, 7)]

    future = tile.layers.add()
    future.version = 3
    future.name = "future"
    point_feature(future, 1, 1)

    data = tile.SerializeToString()
    # The package's decoder refuses UNKNOWN features, so it checks the legacy layer on its own.
    alone = vector_tile_pb2.tile()
    alone.layers.append(legacy)
    parsed = mapbox_vector_tile.decode(
        alone.SerializeToString(), default_options={"y_coord_down": True, "geojson": False})
    assert parsed["legacy"]["features"][0]["geometry"]["coordinates"] == [
        [list(p) for p in legacy_ring + legacy_ring[:1]], [list(p) for p in legacy_hole + legacy_hole[:1]]]
    write("value-types.mvt", data)
    layers = [
        {"name": "values", "extent": 4096, "features": expected_features},
        {"name": "legacy", "version": 1, "extent": 256, "features": [
            {"id": None, "type": "polygon", "parts": [legacy_ring, legacy_hole], "polygons": [2],
             "properties": {}}]},
    ]
    expected = expected_json(layers, typed_value=lambda value: value)
    expected["skippedLayerNames"] = ["future"]
    expected["skippedFeatures"] = {"values": 1}
    write("value-types.json", json.dumps(expected) + "\n")


def make_real(mbtiles):
    z, x, y = REAL_TILE
    with sqlite3.connect(mbtiles) as db:
        (data,) = db.execute(
            "select tile_data from tiles where zoom_level=? and tile_column=? and tile_row=?",
            (z, x, (1 << z) - 1 - y)).fetchone()
    raw = gzip.decompress(data)
    decoded = mapbox_vector_tile.decode(raw, default_options={"y_coord_down": True, "geojson": False})
    tile = vector_tile_pb2.tile()
    tile.ParseFromString(raw)
    summary = []
    for layer in tile.layers:
        features = decoded[layer.name]["features"]
        vertices, checksum, types, pairs = 0, 0, {"point": 0, "linestring": 0, "polygon": 0}, 0
        for raw_feature, feature in zip(layer.features, features, strict=True):
            types[["unknown", "point", "linestring", "polygon"][raw_feature.type]] += 1
            pairs += len(raw_feature.tags) // 2
            for point in flat_points(feature["geometry"]):
                vertices += 1
                checksum = (checksum + vertices * (point[0] * 31 + point[1])) % (1 << 61)
        summary.append({"name": layer.name, "version": layer.version, "extent": layer.extent,
                        "features": len(features), "types": types, "vertices": vertices,
                        "checksum": checksum, "propertyPairs": pairs})
    write("helsinki-14-9326-4742.mvt.gz", data)
    write("helsinki-14-9326-4742.json", json.dumps({"tile": list(REAL_TILE), "layers": summary}, indent=1) + "\n")


def flat_points(geometry):
    """Vertices in order as the decoder under test holds them: closed rings lose their last vertex."""
    kind, coordinates = geometry["type"], geometry["coordinates"]
    if kind == "Point":
        return [coordinates]
    if kind in ("MultiPoint", "LineString"):
        return coordinates
    if kind == "MultiLineString":
        return [point for line in coordinates for point in line]
    polygons = [coordinates] if kind == "Polygon" else coordinates
    return [point for polygon in polygons for ring in polygon for point in ring[:-1]]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mbtiles", help="tilemaker's Helsinki MBTiles, to refresh the real tile")
    arguments = parser.parse_args()
    make_known()
    make_value_types()
    if arguments.mbtiles:
        make_real(arguments.mbtiles)
