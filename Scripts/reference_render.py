#!/usr/bin/env python3
"""Render a MapLibre style over local vector tiles with maplibre-native (PyPI `mapli`), the reference
renderer that mymap's vector renderer is judged against. Run it through Scripts/reference-render,
which sets up the venv and the EGL environment.

The style is used as written, except that every vector source reads the given MBTiles or PMTiles
file (maplibre-native's own mbtiles:// and pmtiles://file:// sources), `sprite` is dropped, and
`glyphs` points at glyphs made from the installed fonts (sdf_glyphs.py, served in-process through a
URL scheme of our own, so nothing is fetched). With --no-text every symbol layer is removed: those are
the reference images, since labels are judged by rules, not pixels.

Zoom is MapLibre's (512-px tiles); mymap's zoom is this plus one. `render` prints how long the first
render took in the process (pool, style, tiles, glyphs, one frame) and, with --repeat N, the median of
N more renders of the same camera (warm: everything loaded). Renders without text are the same bytes
run to run; with text they are not (label placement varies).

Commands:
  render  --style S --tiles T --center LAT,LON --zoom Z [--size 1200x800] [--pixel-ratio 1]
          [--no-text] [--repeat N] --out PNG
  goldens [--tiles T] [--out-dir DIR]   the committed references: both bundled styles, three cameras
"""

import argparse
import json
import os
import sys
import time
import urllib.parse
from importlib import metadata as package_metadata

import mapli

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdf_glyphs  # noqa: E402

GLYPHS_URL = "glyphs://{fontstack}/{range}.pbf"
GOLDEN_STYLES = ("light", "dark")
# The first camera holds the whole extract (and the empty ground around it); the others are the
# city centre, the last one over-zoomed 2.7 zooms past the data's 14.
GOLDEN_CAMERAS = (
    {"name": "z14", "latitude": 60.17163, "longitude": 24.94430, "maplibreZoom": 14.0},
    {"name": "z15.5", "latitude": 60.1699, "longitude": 24.9450, "maplibreZoom": 15.5},
    {"name": "z16.7", "latitude": 60.1699, "longitude": 24.9450, "maplibreZoom": 16.7},
)
GOLDEN_SIZE = (1200, 800)


def serve_glyphs(request):
    """glyphs://{fontstack}/{start}-{end}.pbf, made from the installed fonts."""
    path = request.url[len("glyphs://"):]
    stack, _, file_name = path.rpartition("/")
    start = int(file_name.split("-")[0])
    if start % 256:
        raise ValueError(f"glyph range {file_name} does not start at a multiple of 256")
    return sdf_glyphs.glyph_range(urllib.parse.unquote(stack), start)


def source_url(tiles):
    path = os.path.abspath(tiles)
    with open(path, "rb") as f:
        magic = f.read(16)
    if magic.startswith(b"PMTiles"):
        return "pmtiles://file://" + path
    if magic.startswith(b"SQLite format 3"):
        return "mbtiles://" + path
    raise SystemExit(f"reference-render: {tiles} is neither PMTiles nor MBTiles")


def prepared_style(style_path, tiles, no_text):
    with open(style_path) as f:
        style = json.load(f)
    url = source_url(tiles)
    for source in style.get("sources", {}).values():
        if source.get("type") == "vector":
            source.pop("tiles", None)
            source["url"] = url
    style.pop("sprite", None)
    style["glyphs"] = GLYPHS_URL
    if no_text:
        style["layers"] = [layer for layer in style["layers"] if layer.get("type") != "symbol"]
    return style


def new_pool():
    mapli.register_scheme_handler("glyphs", serve_glyphs)
    return mapli.RenderPool(workers=1)


def render_once(pool, style_id, camera, size, pixel_ratio):
    return pool.render(
        style_id,
        lon=camera["longitude"],
        lat=camera["latitude"],
        zoom=camera["maplibreZoom"],
        width=size[0],
        height=size[1],
        pixel_ratio=pixel_ratio,
    )


def write_atomically(path, data):
    temporary = path + ".tmp"
    with open(temporary, "wb") as f:
        f.write(data)
    os.replace(temporary, path)


def parse_size(text):
    width, _, height = text.partition("x")
    return int(width), int(height)


def command_render(args):
    lat, _, lon = args.center.partition(",")
    camera = {"latitude": float(lat), "longitude": float(lon), "maplibreZoom": args.zoom}
    size = parse_size(args.size)
    started = time.perf_counter()
    pool = new_pool()
    pool.register_style("style", json=prepared_style(args.style, args.tiles, args.no_text))
    png = render_once(pool, "style", camera, size, args.pixel_ratio)
    first = time.perf_counter() - started
    write_atomically(args.out, png)
    warm = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        render_once(pool, "style", camera, size, args.pixel_ratio)
        warm.append(time.perf_counter() - t)
    line = f"reference-render: {args.out} ({size[0]}x{size[1]} @{args.pixel_ratio}x), "
    line += f"first render {first:.3f} s"
    if warm:
        warm.sort()
        line += f", warm median {warm[len(warm) // 2]:.3f} s over {len(warm)}"
    print(line)


def command_goldens(args):
    os.makedirs(args.out_dir, exist_ok=True)
    pool = new_pool()
    images = []
    for style_name in GOLDEN_STYLES:
        style_path = os.path.join("Styles", "vector", f"{style_name}.json")
        pool.register_style(style_name, json=prepared_style(style_path, args.tiles, no_text=True))
        for camera in GOLDEN_CAMERAS:
            file_name = f"{style_name}-{camera['name']}.png"
            png = render_once(pool, style_name, camera, GOLDEN_SIZE, 1.0)
            write_atomically(os.path.join(args.out_dir, file_name), png)
            images.append({"file": file_name, "style": style_path, "camera": camera["name"]})
    manifest = {
        "about": "maplibre-native renders of the bundled vector styles with every symbol (text) layer "
        "removed, the goldens for mymap's vector renderer; made by Scripts/reference-render goldens",
        "renderer": {"package": "mapli", "version": package_metadata.version("mapli"),
                     "engine": "MapLibre Native (inside mapli), Mesa EGL surfaceless (llvmpipe)"},
        "tiles": args.tiles,
        "width": GOLDEN_SIZE[0],
        "height": GOLDEN_SIZE[1],
        "pixelRatio": 1,
        "symbolLayersRemoved": True,
        "zoomConvention": "maplibreZoom counts 512-px tiles; mymapZoom = maplibreZoom + 1 (256-px tiles)",
        "cameras": [dict(camera, mymapZoom=camera["maplibreZoom"] + 1) for camera in GOLDEN_CAMERAS],
        "images": images,
    }
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    write_atomically(os.path.join(args.out_dir, "references.json"), text.encode())
    print(f"reference-render: {len(images)} references in {args.out_dir}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    render = commands.add_parser("render")
    render.add_argument("--style", required=True)
    render.add_argument("--tiles", required=True)
    render.add_argument("--center", required=True, help="LAT,LON")
    render.add_argument("--zoom", type=float, required=True, help="MapLibre zoom (mymap zoom - 1)")
    render.add_argument("--size", default="1200x800")
    render.add_argument("--pixel-ratio", type=float, default=1.0)
    render.add_argument("--no-text", action="store_true")
    render.add_argument("--repeat", type=int, default=0, help="warm renders to time after the first")
    render.add_argument("--out", required=True)
    goldens = commands.add_parser("goldens")
    goldens.add_argument("--tiles", default="Examples/tiles/helsinki.pmtiles")
    goldens.add_argument("--out-dir", default="Tests/Fixtures/vector/reference")
    args = parser.parse_args()
    {"render": command_render, "goldens": command_goldens}[args.command](args)


if __name__ == "__main__":
    main()
