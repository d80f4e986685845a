#!/usr/bin/env python3
"""Write mymap's bundled MapLibre styles for OpenMapTiles vector tiles: Styles/vector/light.json and
Styles/vector/dark.json.

Both styles share one set of layers (what is drawn, in which order, how wide) and differ only in
their palettes, so they stay in step; this script is their source. They use only the part of the
MapLibre style specification (version 8) that mymap draws: background, fill, line and text-only symbol
layers; legacy and expression filters; zoom functions as `stops`, `interpolate` and `step`; the paint
and layout properties listed in issue 11. Zooms are MapLibre's (512-px tiles): mymap's zoom minus one.

The tiles are the OpenMapTiles schema as tilemaker 2.2 writes it: names in `name:latin` (other tools
write `name`, so text falls back from one to the other), road classes motorway ... path, `brunnel`
for bridges and tunnels, the sea as `water` class `ocean`.

Python 3 standard library only. Usage: make-vector-styles.py [OUTPUT_DIR] (default Styles/vector)
"""

import json
import os
import sys

LIGHT = {
    "land": "#efece6",
    "residential": "#ecebe7",
    "commercial": "#eeeae4",
    "institution": "#ece6df",
    "railway_area": "#e8e5e0",
    "park": "#d9e7cb",
    "park_outline": "#cadcb9",
    "pitch": "#d3e4c3",
    "wood": "#cfe1bf",
    "wetland": "#d7e6d8",
    "water": "#c3d6e3",
    "water_line": "#b3cadb",
    "building": "#e5e1da",
    "building_outline": "#d7d1c7",
    "road": "#ffffff",
    "road_major": "#ffffff",
    "road_casing": "#d6d1c9",
    "road_casing_major": "#cdc7be",
    "bridge_casing": "#bfb8ae",
    "tunnel": "#f6f4f0",
    "tunnel_casing": "#d3cec6",
    "path": "#fbfaf7",
    "rail": "#bdb7ae",
    "tram": "#cbc5bc",
    "platform": "#dcd7cf",
    "boundary": "#b9aec4",
    "street_label": "#6f6a62",
    "label_halo": "rgba(255, 255, 255, 0.9)",
    "place_label": "#7b766d",
    "poi_label": "#8a8377",
    "water_label": "#5b7c94",
    "water_label_halo": "rgba(232, 240, 246, 0.8)",
}

DARK = {
    "land": "rgb(43, 46, 51)",
    "residential": "#2c2f34",
    "commercial": "#2d3035",
    "institution": "#2f3136",
    "railway_area": "#2a2d31",
    "park": "#28342b",
    "park_outline": "#2e3b31",
    "pitch": "#2a372d",
    "wood": "#263229",
    "wetland": "#27332f",
    "water": "rgb(18, 31, 51)",
    "water_line": "#1b2c45",
    "building": "#35383e",
    "building_outline": "#3e4148",
    "road": "#43474e",
    "road_major": "#50555e",
    "road_casing": "#24272b",
    "road_casing_major": "#202327",
    "bridge_casing": "#191b1f",
    "tunnel": "#383b41",
    "tunnel_casing": "#2a2d32",
    "path": "#3f434a",
    "rail": "#555961",
    "tram": "#474b52",
    "platform": "#3a3d43",
    "boundary": "#5d5668",
    "street_label": "hsl(218, 10%, 76%)",
    "label_halo": "hsla(220, 14%, 9%, 0.85)",
    "place_label": "#a2a7af",
    "poi_label": "#8d929a",
    "water_label": "#6f8fb3",
    "water_label_halo": "hsla(216, 48%, 10%, 0.8)",
}

FONT = ["Noto Sans Regular", "DejaVu Sans Book"]
FONT_BOLD = ["Noto Sans Bold", "DejaVu Sans Bold"]
FONT_ITALIC = ["Noto Sans Italic", "DejaVu Sans Oblique"]
NAME = ["coalesce", ["get", "name:latin"], ["get", "name"]]

# Fill widths of road classes, in pixels at MapLibre zooms; casings add BORDER on each side.
ROAD_WIDTHS = {
    "motorway": {10: 1.2, 12: 2.0, 14: 5.0, 16: 14.0, 18: 40.0},
    "trunk": {10: 1.0, 12: 1.8, 14: 4.6, 16: 13.0, 18: 38.0},
    "primary": {10: 0.8, 12: 1.6, 14: 4.4, 16: 13.0, 18: 36.0},
    "secondary": {11: 0.8, 12: 1.3, 14: 4.0, 16: 12.0, 18: 32.0},
    "tertiary": {12: 0.8, 14: 3.2, 16: 10.0, 18: 28.0},
    "minor": {13: 0.6, 14: 2.2, 16: 8.0, 18: 24.0},
    "service": {14: 0.6, 15: 1.5, 16: 3.5, 18: 12.0},
}
BORDER = {12: 0.3, 14: 0.6, 16: 1.0, 18: 1.6}
# Points of interest named on the map: landmarks a visitor walks to, not every shop.
POI_SUBCLASSES = ["museum", "library", "university", "station", "place_of_worship", "theatre", "townhall",
                  "park", "garden", "marketplace", "attraction", "castle", "monument"]
MAJOR = ["motorway", "trunk", "primary", "secondary"]
ROAD_ORDER = ["service", "minor", "tertiary", "secondary", "primary", "trunk", "motorway"]


def width_at(stops, zoom, base=1.4):
    """The width a stop table gives at `zoom`, interpolated the way the style will."""
    zs = sorted(stops)
    if zoom <= zs[0]:
        return stops[zs[0]]
    if zoom >= zs[-1]:
        return stops[zs[-1]]
    for a, b in zip(zs, zs[1:]):
        if a <= zoom <= b:
            t = (base ** (zoom - a) - 1) / (base ** (b - a) - 1)
            return stops[a] + t * (stops[b] - stops[a])
    raise AssertionError(zoom)


def interpolate(stops, base=1.4):
    out = ["interpolate", ["exponential", base], ["zoom"]]
    for zoom in sorted(stops):
        out += [zoom, round(stops[zoom], 2)]
    return out


def casing_stops(road_class):
    stops = ROAD_WIDTHS[road_class]
    zooms = sorted(set(stops) | {z for z in BORDER if z >= min(stops)})
    return {z: width_at(stops, z) + 2 * width_at(BORDER, z) for z in zooms}


def casing_width(road_class):
    return interpolate(casing_stops(road_class))


def width_by_class(tables, default, default_base=1.4):
    """A width per road class as one zoom interpolation whose stops each match the class: MapLibre
    accepts ["zoom"] only as the input of a top-level interpolate or step (a match of interpolations
    is refused, and maplibre-native then drops the whole layer). Each class's width is exact at every
    stop of the union and follows its own curve closely between them."""
    zooms = sorted(set().union(*(set(stops) for stops in tables.values()), set(default)))
    out = ["interpolate", ["exponential", 1.4], ["zoom"]]
    for zoom in zooms:
        match = ["match", ["get", "class"]]
        for road_class, stops in tables.items():
            match += [road_class, round(width_at(stops, zoom), 2)]
        out += [zoom, match + [round(width_at(default, zoom, default_base), 2)]]
    return out


def class_filter(classes, brunnel=None):
    clauses = [["match", ["get", "class"], classes, True, False]]
    if brunnel == "none":
        clauses.append(["!", ["match", ["get", "brunnel"], ["bridge", "tunnel"], True, False]])
    elif brunnel:
        clauses.append(["==", ["get", "brunnel"], brunnel])
    return ["all", ["==", ["geometry-type"], "LineString"]] + clauses


def fill(layer_id, source_layer, filter_, color, minzoom=None, **paint):
    layer = {"id": layer_id, "type": "fill", "source": "openmaptiles", "source-layer": source_layer}
    if minzoom is not None:
        layer["minzoom"] = minzoom
    if filter_ is not None:
        layer["filter"] = filter_
    layer["paint"] = {"fill-color": color, **{k.replace("_", "-"): v for k, v in paint.items()}}
    return layer


def line(layer_id, source_layer, filter_, paint, minzoom=None, layout=None):
    layer = {"id": layer_id, "type": "line", "source": "openmaptiles", "source-layer": source_layer}
    if minzoom is not None:
        layer["minzoom"] = minzoom
    layer["filter"] = filter_
    layer["layout"] = {"line-cap": "round", "line-join": "round", **(layout or {})}
    layer["paint"] = paint
    return layer


def area_layers(c):
    return [
        {"id": "background", "type": "background", "paint": {"background-color": c["land"]}},
        fill("landuse-residential", "landuse", ["in", "class", "residential", "suburb", "neighbourhood"],
             c["residential"], fill_opacity=0.7),
        fill("landuse-commercial", "landuse", ["in", "class", "commercial", "retail", "industrial"],
             c["commercial"], fill_opacity=0.6),
        fill("landuse-institution", "landuse",
             ["match", ["get", "class"], ["school", "university", "college", "kindergarten", "hospital",
                                          "library"], True, False],
             c["institution"]),
        fill("landuse-railway", "landuse", ["==", "class", "railway"], c["railway_area"]),
        fill("landcover-wood", "landcover", ["==", ["get", "class"], "wood"], c["wood"]),
        fill("landcover-wetland", "landcover", ["==", ["get", "class"], "wetland"], c["wetland"]),
        fill("landcover-grass", "landcover", ["match", ["get", "class"], ["grass", "farmland"], True, False],
             c["park"], **{"fill-outline-color": c["park_outline"]}),
        fill("park", "park", None, c["park"], fill_opacity=0.8),
        fill("landuse-pitch", "landuse",
             ["any", ["==", ["get", "class"], "pitch"], ["==", ["get", "class"], "playground"],
              ["==", ["get", "class"], "stadium"]],
             c["pitch"]),
        fill("water", "water", ["!=", ["get", "brunnel"], "tunnel"], c["water"]),
        line("waterway", "waterway",
             ["all", ["!=", ["get", "brunnel"], "tunnel"],
              ["match", ["get", "class"], ["river", "canal", "stream", "drain", "ditch"], True, False]],
             {"line-color": c["water_line"],
              "line-width": interpolate({12: 0.5, 15: 1.5, 18: 4.0}, 1.3)},
             minzoom=12),
        fill("building", "building", None, c["building"], minzoom=13,
             **{"fill-outline-color": c["building_outline"],
                "fill-opacity": {"stops": [[13, 0.5], [14.5, 1]]}}),
        fill("pier", "transportation", ["all", ["==", "$type", "Polygon"], ["==", "class", "pier"]],
             c["land"]),
    ]


def road_pass(c, part, brunnel):
    """One layer per road class: its casing or its fill, on the ground ("none") or in a tunnel."""
    tunnel = brunnel == "tunnel"
    layers = []
    for road_class in ROAD_ORDER[1:] if tunnel else ROAD_ORDER:
        major = road_class in MAJOR
        prefix = "tunnel" if tunnel else "road"
        if part == "casing":
            colour = c["tunnel_casing"] if tunnel else c["road_casing_major" if major else "road_casing"]
            paint = {"line-color": colour, "line-width": casing_width(road_class)}
            if tunnel:
                paint["line-dasharray"] = [1.5, 1]
            layer_id, layout = f"{prefix}-{road_class}-casing", {"line-cap": "butt"}
        else:
            colour = c["tunnel"] if tunnel else c["road_major" if major else "road"]
            paint = {"line-color": colour, "line-width": interpolate(ROAD_WIDTHS[road_class])}
            layer_id, layout = f"{prefix}-{road_class}", None
        minzoom = 14 if tunnel else min(ROAD_WIDTHS[road_class])
        layers.append(line(layer_id, "transportation", class_filter([road_class], brunnel), paint,
                           minzoom=minzoom, layout=layout))
    return layers


def road_layers(c):
    layers = road_pass(c, "casing", "tunnel") + road_pass(c, "fill", "tunnel")
    layers.append(line("transit", "transportation", ["all", ["==", ["get", "class"], "transit"],
                                                 ["!=", ["get", "brunnel"], "tunnel"]],
                       {"line-color": c["tram"], "line-width": interpolate({14: 0.6, 18: 1.5}, 1.2)},
                       minzoom=14))
    layers.append(line("tram-track", "transportation",
                       ["all", ["==", "class", "tram"], ["!=", "brunnel", "tunnel"]],
                       {"line-color": c["tram"], "line-width": interpolate({14: 0.5, 18: 1.4}, 1.2)},
                       minzoom=14))
    layers += road_pass(c, "casing", "none")
    layers.append(line("path", "transportation",
                       ["all", ["match", ["get", "class"], ["path", "track"], True, False],
                        ["!=", ["get", "brunnel"], "tunnel"]],
                       {"line-color": c["path"],
                        "line-width": interpolate({14: 0.5, 16: 1.0, 18: 2.2}, 1.3)},
                       minzoom=14))
    layers.append(line("platform", "transportation", ["==", ["get", "class"], "platform"],
                       {"line-color": c["platform"], "line-width": interpolate({15: 1.0, 18: 4.0}, 1.3)},
                       minzoom=15))
    layers += road_pass(c, "fill", "none")
    layers.append(line("road-construction", "transportation",
                       ["match", ["get", "class"], ["minor_construction", "tertiary_construction",
                                                    "secondary_construction", "primary_construction"],
                        True, False],
                       {"line-color": c["road"], "line-width": interpolate(ROAD_WIDTHS["minor"]),
                        "line-dasharray": [2, 2]},
                       minzoom=14, layout={"line-cap": "butt"}))
    layers.append(line("rail", "transportation",
                       ["all", ["==", ["get", "class"], "rail"], ["!=", ["get", "brunnel"], "tunnel"]],
                       {"line-color": c["rail"],
                        "line-width": interpolate({12: 0.4, 14: 0.8, 16: 1.6, 18: 3.0}, 1.3),
                        "line-opacity": ["case", ["has", "service"], 0.7, 1]},
                       minzoom=12))
    bridge_classes = ["path", "track"] + ROAD_ORDER
    layers.append(line("bridge-casing", "transportation",
                       ["all", ["==", ["get", "brunnel"], "bridge"],
                        ["match", ["get", "class"], ROAD_ORDER, True, False]],
                       {"line-color": c["bridge_casing"],
                        "line-width": width_by_class({k: casing_stops(k) for k in ROAD_ORDER}, {13: 1})},
                       minzoom=13, layout={"line-cap": "butt"}))
    layers.append(line("bridge", "transportation",
                       ["all", ["==", ["get", "brunnel"], "bridge"],
                        ["match", ["get", "class"], bridge_classes, True, False]],
                       {"line-color": ["case", ["match", ["get", "class"], ["path", "track"], True, False],
                                       c["path"], ["match", ["get", "class"], MAJOR, True, False],
                                       c["road_major"], c["road"]],
                        "line-width": width_by_class({k: ROAD_WIDTHS[k] for k in ROAD_ORDER},
                                                     {14: 0.6, 16: 1.1, 18: 2.2}, 1.3)},
                       minzoom=13))
    layers.append(line("boundary", "boundary",
                       ["all", ["<=", ["coalesce", ["get", "admin_level"], 99], 10],
                        ["!=", ["get", "maritime"], 1]],
                       {"line-color": c["boundary"],
                        "line-width": ["step", ["zoom"], 0.6, 14, 1.0, 16, 1.4],
                        "line-opacity": ["case", [">=", ["coalesce", ["get", "admin_level"], 99], 9], 0.45, 0.8],
                        "line-dasharray": [3, 2]},
                       layout={"line-cap": "butt"}))
    return layers


def symbol(layer_id, source_layer, filter_, layout, paint, minzoom=None, maxzoom=None):
    layer = {"id": layer_id, "type": "symbol", "source": "openmaptiles", "source-layer": source_layer}
    if minzoom is not None:
        layer["minzoom"] = minzoom
    if maxzoom is not None:
        layer["maxzoom"] = maxzoom
    layer["filter"] = filter_
    layer["layout"] = {"text-field": NAME, **layout}
    layer["paint"] = paint
    return layer


def label_layers(c):
    halo = {"text-halo-color": c["label_halo"], "text-halo-width": 1.4}
    street_size = {"base": 1.2, "stops": [[13, 9.5], [16, 12], [18, 14]]}
    return [
        symbol("water-name", "water_name", ["has", "name:latin"],
               {"text-font": FONT_ITALIC, "text-size": interpolate({13: 11, 17: 14}, 1.2),
                "text-letter-spacing": 0.08, "text-max-width": 6},
               {"text-color": c["water_label"], "text-halo-color": c["water_label_halo"],
                "text-halo-width": 1.2}, minzoom=13),
        symbol("street-name-minor", "transportation_name",
               ["all", ["==", ["geometry-type"], "LineString"],
                ["any", ["match", ["get", "class"], ["minor", "service"], True, False],
                 ["==", ["get", "subclass"], "pedestrian"]]],
               {"symbol-placement": "line", "symbol-spacing": 300, "text-font": FONT,
                "text-size": street_size, "text-max-angle": 30},
               {"text-color": c["street_label"], **halo}, minzoom=15),
        symbol("street-name-major", "transportation_name",
               ["all", ["==", ["geometry-type"], "LineString"],
                ["match", ["get", "class"], ["motorway", "trunk", "primary", "secondary", "tertiary"],
                 True, False]],
               {"symbol-placement": "line", "symbol-spacing": 350, "text-font": FONT,
                "text-size": street_size, "text-max-angle": 30},
               {"text-color": c["street_label"], **halo}, minzoom=13),
        symbol("poi", "poi",
               ["all", ["any", ["has", "name:latin"], ["has", "name"]],
                ["match", ["get", "subclass"], POI_SUBCLASSES, True, False]],
               {"text-font": FONT, "text-size": 10.5, "text-max-width": 8, "text-anchor": "top",
                "text-offset": [0, 0.2]},
               {"text-color": c["poi_label"], **halo}, minzoom=15.5),
        symbol("place-neighbourhood", "place",
               ["in", "class", "neighbourhood", "suburb", "quarter"],
               {"text-font": FONT_BOLD, "text-size": interpolate({12: 10, 16: 13}, 1.2),
                "text-transform": "uppercase", "text-letter-spacing": 0.16, "text-max-width": 8},
               {"text-color": c["place_label"], "text-halo-color": c["label_halo"],
                "text-halo-width": 1.6}, minzoom=12, maxzoom=16.5),
        symbol("place-city", "place", ["match", ["get", "class"], ["city", "town"], True, False],
               {"text-font": FONT_BOLD, "text-size": interpolate({8: 13, 12: 18}, 1.2),
                "text-max-width": 8},
               {"text-color": c["place_label"], "text-halo-color": c["label_halo"],
                "text-halo-width": 1.8}, maxzoom=13),
    ]


def style(name, palette):
    return {
        "version": 8,
        "name": f"mymap {name}",
        "metadata": {
            "mymap:about": f"mymap's bundled {name} street style for OpenMapTiles vector tiles, written "
            "by the mymap team (Scripts/make-vector-styles.py). The source and glyphs URLs are never "
            "fetched by mymap: --tiles gives the tiles and text is drawn with installed fonts.",
        },
        "sources": {
            "openmaptiles": {"type": "vector", "url": "pmtiles://helsinki.pmtiles",
                             "attribution": "© OpenMapTiles © OpenStreetMap contributors"}
        },
        "glyphs": "glyphs://{fontstack}/{range}.pbf",
        "layers": area_layers(palette) + road_layers(palette) + label_layers(palette),
    }


def formatted(value, depth=0):
    """JSON with objects and lists laid out down to a layer's paint and layout, compact below that."""
    pad = "  " * depth
    compact = depth >= 4 or (depth >= 3 and isinstance(value, list))
    if compact or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    if isinstance(value, dict):
        items = [f'{pad}  {json.dumps(k, ensure_ascii=False)}: {formatted(v, depth + 1)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    items = [f"{pad}  {formatted(v, depth + 1)}" for v in value]
    return "[\n" + ",\n".join(items) + f"\n{pad}]"


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join("Styles", "vector")
    os.makedirs(out_dir, exist_ok=True)
    for name, palette in (("light", LIGHT), ("dark", DARK)):
        path = os.path.join(out_dir, f"{name}.json")
        text = formatted(style(name, palette)) + "\n"
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
        print(f"make-vector-styles: {path}")


if __name__ == "__main__":
    main()
