"""Times mymap against two Python static-map renderers and a C floor on the ../shared/bench scenes.

Run through Scripts/bench-peers, which sets up the venv (py-staticmaps[cairo], staticmap, and their Pillow)
and builds the floor. Modes:
  run     the benchmark: warm-up, then round-robin rounds, then the table of medians and ratios
  serve   the synthetic tile server (started and stopped by `run`)
  peer    one render by a peer, as a whole process (started by `run`)

The tiles are synthetic and deterministic: streets on a grid, blocks of buildings, parks and water, drawn
per tile in world pixels so that neighbours join. They are made on demand by the server the first time any
renderer asks for one and kept in a {z}/{x}/{y}.png folder: mymap and the floor read that folder, the peers
read the same files over HTTP from the server on 127.0.0.1 (neither reads file:// URLs).
"""

import argparse
import http.server
import json
import math
import os
import statistics
import subprocess
import sys
import threading
import time

# Name: (places file in ../shared/bench, width, height). city-4800 is the city at 4800×3200, where memory
# shows (issue 13: peak RSS ≤ 1.5× the floor's).
SCENES = {
    "one": ("one", 800, 600),
    "city": ("city", 1200, 800),
    "many": ("many", 1200, 800),
    "trip": ("trip", 1600, 1000),
    "city-4800": ("city", 4800, 3200),
}
TILE_VERSION = "2"


# MARK: Synthetic tiles


def mix(*values):
    """A deterministic hash of integers, 0 ≤ result < 2^32."""
    h = 0x9E3779B9
    for v in values:
        h ^= (v & 0xFFFFFFFF) + 0x9E3779B9 + ((h << 6) & 0xFFFFFFFF) + (h >> 2)
        h = (h * 0x85EBCA6B) & 0xFFFFFFFF
        h ^= h >> 13
    return h


def make_tile(z, x, y):
    """PNG bytes of tile z/x/y: a street grid whose blocks hold buildings, parks or water, main roads, a
    diagonal avenue and street names; drawn at twice the size and scaled down, so that edges are smooth
    as in real map tiles (whose PNGs, 10–30 KB, cost about as much to decode)."""
    from io import BytesIO

    from PIL import Image, ImageDraw, ImageFont

    size, k = 256, 2
    image = Image.new("RGB", (size * k, size * k), (242, 239, 233))
    draw = ImageDraw.Draw(image)
    ox, oy = x * size, y * size
    cell, road = 96, 7

    def box(left, top, right, bottom):
        return [left * k, top * k, right * k, bottom * k]

    fills = [(217, 208, 201)] * 6 + [(200, 250, 204)] * 2 + [(170, 211, 223), (242, 239, 233)]
    for j in range(oy // cell - 1, (oy + size) // cell + 2):
        for i in range(ox // cell - 1, (ox + size) // cell + 2):
            h = mix(z, i, j)
            left, top = i * cell - ox + road, j * cell - oy + road
            right, bottom = left + cell - 2 * road, top + cell - 2 * road
            fill = fills[h % len(fills)]
            draw.rectangle(box(left, top, right, bottom), fill=fill)
            if fill == (217, 208, 201):
                # Buildings: a few rectangles per block, their sizes from the hash.
                for n in range(4 + (h >> 8) % 5):
                    g = mix(h, n)
                    bx = left + 3 + g % (cell - 2 * road - 20)
                    by = top + 3 + (g >> 8) % (cell - 2 * road - 20)
                    bw, bh = 8 + (g >> 16) % 22, 8 + (g >> 24) % 22
                    draw.rectangle(
                        box(bx, by, min(right - 2, bx + bw), min(bottom - 2, by + bh)),
                        fill=(205, 193, 184),
                        outline=(190, 176, 166),
                        width=k,
                    )
            elif fill == (200, 250, 204):
                for n in range(6):
                    g = mix(h, n, 7)
                    cx, cy, r = left + g % (cell - 2 * road), top + (g >> 8) % (cell - 2 * road), 3 + (g >> 16) % 6
                    draw.ellipse(box(cx - r, cy - r, cx + r, cy + r), fill=(173, 209, 158))
    # Main roads every fourth street, and a diagonal avenue across each 8×8 blocks.
    for j in range(oy // cell, (oy + size) // cell + 2):
        if j % 4 == 0:
            line = box(0, j * cell - oy, size, j * cell - oy)
            draw.line(line, fill=(224, 208, 144), width=11 * k)
            draw.line(line, fill=(247, 250, 191), width=8 * k)
    for i in range(ox // cell, (ox + size) // cell + 2):
        if i % 4 == 0:
            line = box(i * cell - ox, 0, i * cell - ox, size)
            draw.line(line, fill=(224, 208, 144), width=11 * k)
            draw.line(line, fill=(247, 250, 191), width=8 * k)
    span = cell * 8
    for d in range((ox - oy) // span - 2, (ox + size - oy) // span + 2):
        x0 = d * span - ox + oy
        draw.line(box(x0, 0, x0 + size, size), fill=(255, 255, 255), width=6 * k)
    # Street names along the streets, each in its own tile (as real tiles cut labels at their edges).
    font = ImageFont.load_default(size=11 * k)
    for j in range(oy // cell, (oy + size) // cell + 1):
        for i in range(ox // cell, (ox + size) // cell + 1):
            h = mix(z, i, j, 99)
            name = ["Oak", "Elm", "Main", "Market", "Mission", "Harbor", "Hill", "Park"][h % 8] + f" St {h % 97}"
            at = ((i * cell - ox + 12) * k, (j * cell - oy - 5) * k)
            draw.text(at, name, fill=(90, 90, 90), font=font)
    image = image.resize((size, size), Image.LANCZOS)
    out = BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


class TileHandler(http.server.BaseHTTPRequestHandler):
    root = "."
    lock = threading.Lock()

    def do_GET(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        try:
            z, x = int(parts[0]), int(parts[1])
            y = int(parts[2].removesuffix(".png"))
            if len(parts) != 3 or not parts[2].endswith(".png") or not (0 <= z <= 20):
                raise ValueError
            if not (0 <= x < 2**z and 0 <= y < 2**z):
                raise ValueError
        except (ValueError, IndexError):
            self.send_error(404)
            return
        path = os.path.join(self.root, str(z), str(x), f"{y}.png")
        with self.lock:
            if not os.path.exists(path):
                os.makedirs(os.path.dirname(path), exist_ok=True)
                temporary = f"{path}.tmp{os.getpid()}"
                with open(temporary, "wb") as f:
                    f.write(make_tile(z, x, y))
                os.replace(temporary, path)
        with open(path, "rb") as f:
            body = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=31536000")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def serve(root):
    TileHandler.root = root
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), TileHandler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


# MARK: The peers


def peer(name, scene, width, height, url, out):
    with open(scene) as f:
        data = json.load(f)
    places = [(p["latitude"], p["longitude"]) for p in data["locations"]]
    user = data.get("user")
    if name == "py-staticmaps":
        import staticmaps

        context = staticmaps.Context()
        pattern = url.replace("{z}", "$z").replace("{x}", "$x").replace("{y}", "$y")
        context.set_tile_provider(staticmaps.TileProvider("bench-synthetic-" + TILE_VERSION, pattern, max_zoom=18))
        for lat, lon in places:
            context.add_object(staticmaps.Marker(staticmaps.create_latlng(lat, lon), color=staticmaps.GREEN, size=12))
        if user:
            where = staticmaps.create_latlng(user["latitude"], user["longitude"])
            context.add_object(staticmaps.Marker(where, color=staticmaps.BLUE, size=8))
        context.render_cairo(width, height).write_to_png(out)
    elif name == "staticmap":
        from staticmap import CircleMarker, StaticMap

        smap = StaticMap(width, height, url_template=url)
        for lat, lon in places:
            smap.add_marker(CircleMarker((lon, lat), "#52d166", 14))
        if user:
            smap.add_marker(CircleMarker((user["longitude"], user["latitude"]), "#1a73e8", 12))
        smap.render().save(out)
    else:
        raise SystemExit(f"unknown peer {name}")


# MARK: Timing


def timed(command, env=None):
    """Runs `command` under /usr/bin/time; returns its wall time (ms), CPU time (user + system, ms, from
    wait4, which counts the waited-for command) and peak RSS (MB, from /usr/bin/time: wait4's would count
    the forking Python's pages, ~28 MB, and hide a small C program's own)."""
    report = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"bench-peers-time-{os.getpid()}")
    started = time.perf_counter()
    process = subprocess.Popen(
        ["/usr/bin/time", "-f", "%M", "-o", report] + command,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = (time.perf_counter() - started) * 1000
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}")
    with open(report) as f:
        kilobytes = f.read().split()[-1]
    os.remove(report)
    return wall, (usage.ru_utime + usage.ru_stime) * 1000, int(kilobytes) / 1024


def world(lat, lon):
    lat = max(-85.05112878, min(85.05112878, lat))
    s = math.sin(math.radians(lat))
    return (lon + 180) / 360, 0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)


def run(args):
    work = os.path.abspath(args.work)
    tiles = os.path.join(work, "tiles-v" + TILE_VERSION)
    outputs = os.path.join(work, "out")
    os.makedirs(tiles, exist_ok=True)
    os.makedirs(outputs, exist_ok=True)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"), PYTHONDONTWRITEBYTECODE="")
    server = subprocess.Popen(
        [args.python, __file__, "serve", tiles], stdout=subprocess.PIPE, env=env, text=True
    )
    try:
        port = int(server.stdout.readline())
        url = f"http://127.0.0.1:{port}/{{z}}/{{x}}/{{y}}.png"
        commands = {}
        for scene, (places, width, height) in SCENES.items():
            path = os.path.join(args.scenes, places + ".json")
            out = lambda who: os.path.join(outputs, f"{scene}-{who}.png")
            size = f"{width}x{height}"
            # Warm-up: mymap through the server (which keeps every tile it makes in the folder), then
            # from the folder with its layout, which gives the floor its view.
            layout = os.path.join(outputs, f"{scene}-layout.json")
            subprocess.run(
                [args.mymap, "render", "--locations", path, "--size", size, "--tiles", url,
                 "--contact", "bench@example.invalid", "--out", out("mymap"), "--quiet"],
                env=env, check=True, stdout=subprocess.DEVNULL)
            mymap = [args.mymap, "render", "--locations", path, "--size", size, "--tiles", tiles,
                     "--out", out("mymap")]
            subprocess.run(mymap + ["--layout-json", layout, "--quiet"], env=env, check=True, stdout=subprocess.DEVNULL)
            with open(layout) as f:
                view = json.load(f)
            if view["tiles"]["missing"]:
                raise SystemExit(f"{scene}: mymap misses {view['tiles']['missing']} tiles of the folder")
            zoom = view["tiles"]["zoom"]
            cx, cy = world(view["camera"]["center"]["latitude"], view["camera"]["center"]["longitude"])
            floor = [args.floor, "render", tiles, str(width), str(height), str(zoom), repr(cx), repr(cy), out("floor")]
            subprocess.run(floor, check=True, stdout=subprocess.DEVNULL)
            commands[scene] = {
                "mymap": mymap,
                "py-staticmaps": [args.python, __file__, "peer", "py-staticmaps", path, str(width), str(height), url, out("pysm")],
                "staticmap": [args.python, __file__, "peer", "staticmap", path, str(width), str(height), url, out("staticmap")],
                "floor": floor,
            }
            for name in ("py-staticmaps", "staticmap"):
                subprocess.run(commands[scene][name], env=env, check=True, stdout=subprocess.DEVNULL)
        results = {(s, n): [] for s in SCENES for n in ("mymap", "py-staticmaps", "staticmap", "floor")}
        version = []
        for _ in range(args.rounds):
            for scene in SCENES:
                for name, command in commands[scene].items():
                    results[(scene, name)].append(timed(command, env))
            for _ in range(5):
                version.append(timed([args.mymap, "--version"])[:2])
        report(results, version, outputs, args)
    finally:
        server.terminate()
        server.wait()


def median(values):
    return statistics.median(values) if values else float("nan")


def report(results, version, outputs, args):
    def figure(scene, name):
        runs = results[(scene, name)]
        return tuple(median([run[k] for run in runs]) for k in range(3))

    print(f"\nmedians of {args.rounds} rounds, whole process: wall ms (CPU ms, user + system), peak RSS MB; "
          f"load average {os.getloadavg()[0]:.1f} at the end")
    print("mymap (release) and the floor read the tile folder; py-staticmaps (its tile cache warmed) and "
          "staticmap (no cache: loopback HTTP in every run) read the same tiles from the local server")
    header = ["scene", "mymap", "py-staticmaps", "staticmap", "C floor", "mymap/py-sm", "mymap/floor"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for scene, (_, width, height) in SCENES.items():
        m, p, s, f = (figure(scene, n) for n in ("mymap", "py-staticmaps", "staticmap", "floor"))
        cells = [f"{scene} {width}×{height}"] + [f"{w:.0f} ({c:.0f}) ms, {r:.0f} MB" for w, c, r in (m, p, s, f)]
        cells += [f"{m[0] / p[0]:.2f} ({m[1] / p[1]:.2f})", f"{m[0] / f[0]:.2f} ({m[1] / f[1]:.2f})"]
        print("| " + " | ".join(cells) + " |")
    many, city = figure("many", "mymap"), figure("city", "mymap")
    print("(ratios: wall, CPU in brackets)")
    print(f"\nmymap many/city: {many[0] / city[0]:.2f} ({many[1] / city[1]:.2f})")
    large, floor = figure("city-4800", "mymap"), figure("city-4800", "floor")
    print(f"city-4800 peak RSS, mymap/floor: {large[2]:.0f} / {floor[2]:.0f} MB = {large[2] / floor[2]:.2f}")
    print(f"mymap --version: {median([w for w, _ in version]):.1f} ms "
          f"({median([c for _, c in version]):.1f} ms CPU), median of {len(version)}")
    print("PNG size, mymap / the same pixels re-encoded by libpng at zlib level 6 (its encode time):")
    for scene in SCENES:
        mine = os.path.join(outputs, f"{scene}-mymap.png")
        again = os.path.join(outputs, f"{scene}-mymap-zlib6.png")
        phases = subprocess.run([args.floor, "reencode", mine, again], check=True, capture_output=True, text=True)
        encode = float(phases.stdout.split()[1])
        a, b = os.path.getsize(mine), os.path.getsize(again)
        print(f"  {scene}: {a / 1024:.0f} KiB / {b / 1024:.0f} KiB = {a / b:.2f} (zlib 6: {encode:.0f} ms)")


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("run")
    r.add_argument("--mymap", required=True)
    r.add_argument("--floor", required=True)
    r.add_argument("--python", required=True)
    r.add_argument("--scenes", required=True)
    r.add_argument("--work", required=True)
    r.add_argument("--rounds", type=int, default=5)
    s = sub.add_parser("serve")
    s.add_argument("root")
    p = sub.add_parser("peer")
    for name in ("name", "scene", "width", "height", "url", "out"):
        p.add_argument(name)
    args = parser.parse_args()
    if args.mode == "serve":
        serve(args.root)
    elif args.mode == "peer":
        peer(args.name, args.scene, int(args.width), int(args.height), args.url, args.out)
    else:
        run(args)


if __name__ == "__main__":
    main()
