#!/usr/bin/env python3
"""Side-by-side timing of mymap and maplibre-native on the Helsinki street map (Scripts/bench-vector runs
this; it builds the binaries and the venv first).

The same map for both: Examples/tiles/helsinki.pmtiles drawn with Styles/vector/light.json, labels on,
1200x800 PNG, at the camera mymap fits to Examples/helsinki.json (read from its layout JSON; MapLibre's
zoom is mymap's minus one). mymap also draws its pins and callouts; maplibre-native draws none.

Commands:
  rounds   the comparison: per round, round-robin, (a) mymap whole process, (b) maplibre-native whole
           process (this script's `maplibre-render` in the venv: Python, mapli, style, one render, PNG
           written), (c) mymap warm in-process (mymap-bench --vector: N renders in one process, each from
           the request on, decoded tiles kept between them as a batch keeps them, as maplibre-native
           keeps its parsed tiles), (d) maplibre-native warm (N renders of one pool); medians, the ratios
           mymap/maplibre per round and their median, and each whole process's peak RSS (wait4).
  huge     mymap over the example archive and over a 1 GiB sparse archive holding the same tiles plus a
           million more entries in leaf directories: open time, render time and peak RSS side by side.
  maplibre-render, maplibre-warm   the maplibre-native halves (run inside the venv).
"""

import argparse
import gzip
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(SCRIPTS)
GLYPH_CACHE = os.path.join(ROOT, ".build", "reference-glyphs")


# --- maplibre-native (inside the venv) ----------------------------------------------------------------


def serve_glyphs(request):
    """Glyph ranges from the cache Scripts/sdf_glyphs.py fills; made (slowly) only when missing, so a timed
    process does not import NumPy and SciPy."""
    import urllib.parse

    path = request.url[len("glyphs://"):]
    stack, _, file_name = path.rpartition("/")
    start = int(file_name.split("-")[0])
    cached = os.path.join(GLYPH_CACHE, urllib.parse.quote(urllib.parse.unquote(stack), safe=""),
                          f"{start}-{start + 255}.pbf")
    if os.path.exists(cached):
        with open(cached, "rb") as f:
            return f.read()
    sys.path.insert(0, SCRIPTS)
    import sdf_glyphs

    return sdf_glyphs.glyph_range(urllib.parse.unquote(stack), start)


def maplibre_pool(args):
    import mapli

    sys.path.insert(0, SCRIPTS)
    from reference_render import prepared_style

    mapli.register_scheme_handler("glyphs", serve_glyphs)
    pool = mapli.RenderPool(workers=1)
    pool.register_style("style", json=prepared_style(args.style, args.tiles, no_text=False))
    return pool


def maplibre_render(pool, args):
    lat, _, lon = args.center.partition(",")
    width, _, height = args.size.partition("x")
    return pool.render("style", lon=float(lon), lat=float(lat), zoom=args.zoom, width=int(width),
                       height=int(height), pixel_ratio=1.0)


def command_maplibre_render(args):
    png = maplibre_render(maplibre_pool(args), args)
    with open(args.out, "wb") as f:
        f.write(png)


def command_maplibre_warm(args):
    pool = maplibre_pool(args)
    maplibre_render(pool, args)
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        maplibre_render(pool, args)
        times.append((time.perf_counter() - start) * 1000)
    print("result " + json.dumps({"median_ms": statistics.median(times), "min_ms": min(times)}))


# --- timing processes ---------------------------------------------------------------------------------


def timed_process(argv, env=None, cpu=None):
    """Runs a command to its end: (wall milliseconds, peak RSS in MiB, stdout); its CPU milliseconds (user
    + system) are appended to `cpu` if given. The peak comes from /usr/bin/time, a small process: a child
    forked by this script would count this script's memory too."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(mode="r") as rss:
        start = time.perf_counter()
        code = subprocess.call(["/usr/bin/time", "-f", "%M %U %S", "-o", rss.name] + argv, stdout=out,
                               stderr=err, env=env, cwd=ROOT)
        elapsed = (time.perf_counter() - start) * 1000
        out.seek(0)
        err.seek(0)
        text = out.read().decode()
        if code != 0:
            raise SystemExit(f"bench-vector: {' '.join(argv)} failed ({code}):\n" + err.read().decode())
        peak, user, system = rss.read().split()[-3:]
        if cpu is not None:
            cpu.append((float(user) + float(system)) * 1000)
        return elapsed, int(peak) / 1024, text


def result_line(text):
    for line in text.splitlines():
        if line.startswith("result "):
            return json.loads(line[len("result "):])
    raise SystemExit(f"bench-vector: no result line in:\n{text}")


def mymap_command(args, tiles, out, layout=None):
    command = [args.mymap, "render", "--locations", args.locations, "--tiles", tiles, "--size", args.size,
               "--out", out, "--quiet"]
    return command + (["--layout-json", layout] if layout else [])


def fitted_camera(args, work):
    """mymap's camera for the example, as maplibre-native's centre and zoom."""
    layout_path = os.path.join(work, "layout.json")
    timed_process(mymap_command(args, args.tiles, os.path.join(work, "mymap.png"), layout_path))
    with open(layout_path) as f:
        camera = json.load(f)["camera"]
    return f"{camera['center']['latitude']},{camera['center']['longitude']}", camera["zoom"] - 1


def median_row(rows, key):
    return statistics.median(row[key] for row in rows)


def command_rounds(args):
    work = os.path.join(ROOT, ".build", "bench-vector")
    os.makedirs(work, exist_ok=True)
    center, zoom = fitted_camera(args, work)
    maplibre = [args.python, os.path.join(SCRIPTS, "bench_vector.py")]
    camera = ["--style", args.style, "--tiles", args.tiles, "--center", center, "--zoom", str(zoom),
              "--size", args.size]
    env = dict(os.environ, EGL_PLATFORM="surfaceless")
    # One untimed maplibre-native render first: it fills the glyph cache and the disk cache.
    timed_process(maplibre + ["maplibre-render"] + camera + ["--out", os.path.join(work, "maplibre.png")],
                  env)
    print(f"camera: centre {center}, mymap zoom {zoom + 1:.4f} (MapLibre {zoom:.4f}), {args.size}, "
          f"{args.rounds} rounds, {args.runs} warm renders per round")
    print("round  mymap-proc  maplibre-proc  ratio   mymap-warm  maplibre-warm  ratio   "
          "RSS mymap  RSS maplibre")
    rows = []
    phases = []
    mymap_cpu, maplibre_cpu = [], []
    for round_number in range(1, args.rounds + 1):
        row = {}
        row["mymap_proc"], row["mymap_rss"], _ = timed_process(
            mymap_command(args, args.tiles, os.path.join(work, "mymap.png")), cpu=mymap_cpu)
        row["maplibre_proc"], row["maplibre_rss"], _ = timed_process(
            maplibre + ["maplibre-render"] + camera + ["--out", os.path.join(work, "maplibre.png")], env,
            cpu=maplibre_cpu)
        _, _, text = timed_process([args.bench, "--vector", "--runs", str(args.runs), "--tiles", args.tiles,
                                    "--size", args.size])
        result = result_line(text)
        row["mymap_warm"] = result["median_ms"]
        row["mymap_warm_cpu"] = result["cpu_median_ms"]
        phases.append(result["phases_ms"])
        _, _, text = timed_process(maplibre + ["maplibre-warm", "--runs", str(args.runs)] + camera, env)
        row["maplibre_warm"] = result_line(text)["median_ms"]
        row["proc_ratio"] = row["mymap_proc"] / row["maplibre_proc"]
        row["warm_ratio"] = row["mymap_warm"] / row["maplibre_warm"]
        rows.append(row)
        print(f"{round_number:5}  {row['mymap_proc']:8.1f}ms  {row['maplibre_proc']:11.1f}ms  "
              f"{row['proc_ratio']:5.2f}  {row['mymap_warm']:8.1f}ms  {row['maplibre_warm']:11.1f}ms  "
              f"{row['warm_ratio']:5.2f}  {row['mymap_rss']:6.1f}MiB  {row['maplibre_rss']:8.1f}MiB",
              flush=True)
    print(f"median {median_row(rows, 'mymap_proc'):8.1f}ms  {median_row(rows, 'maplibre_proc'):11.1f}ms  "
          f"{median_row(rows, 'proc_ratio'):5.2f}  {median_row(rows, 'mymap_warm'):8.1f}ms  "
          f"{median_row(rows, 'maplibre_warm'):11.1f}ms  {median_row(rows, 'warm_ratio'):5.2f}  "
          f"{median_row(rows, 'mymap_rss'):6.1f}MiB  {median_row(rows, 'maplibre_rss'):8.1f}MiB")
    print(f"peak RSS, largest of the rounds: mymap {max(r['mymap_rss'] for r in rows):.1f} MiB, "
          f"maplibre-native {max(r['maplibre_rss'] for r in rows):.1f} MiB")
    print(f"whole-process CPU (user + system), medians: mymap {statistics.median(mymap_cpu):.0f} ms, "
          f"maplibre-native {statistics.median(maplibre_cpu):.0f} ms "
          f"(ratio {statistics.median(mymap_cpu) / statistics.median(maplibre_cpu):.2f})")
    print(f"mymap warm CPU per render (user + system, all threads), median of the rounds: "
          f"{median_row(rows, 'mymap_warm_cpu'):.1f} ms")
    print("mymap warm stages (medians over the rounds): " + ", ".join(
        f"{name} {statistics.median(p[name] for p in phases):.1f} ms" for name in phases[0]))
    print(f"images: {work}/mymap.png, {work}/maplibre.png")


# --- the huge archive ---------------------------------------------------------------------------------

HEADER = struct.Struct("<7sB8QQQQ")  # magic, version, 8 section offsets/lengths, 3 counts, then the rest


def write_varint(out, value):
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def read_varint(data, position):
    value = shift = 0
    while True:
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, position
        shift += 7


def decode_directory(data):
    count, position = read_varint(data, 0)
    columns = []
    for _ in range(4):
        column = []
        for _ in range(count):
            value, position = read_varint(data, position)
            column.append(value)
        columns.append(column)
    entries, tile_id, previous = [], 0, None
    for delta, run, length, offset in zip(*columns):
        tile_id += delta
        offset = previous[1] + previous[2] if offset == 0 else offset - 1
        previous = (tile_id, offset, length, run)
        entries.append(previous)
    return entries


def encode_directory(entries):
    out = bytearray()
    write_varint(out, len(entries))
    last = 0
    for tile_id, _, _, _ in entries:
        write_varint(out, tile_id - last)
        last = tile_id
    for entry in entries:
        write_varint(out, entry[3])
    for entry in entries:
        write_varint(out, entry[2])
    previous = None
    for _, offset, length, _ in entries:
        contiguous = previous is not None and offset == previous[0] + previous[1]
        write_varint(out, 0 if contiguous else offset + 1)
        previous = (offset, length)
    return gzip.compress(bytes(out), mtime=0)


def make_huge_archive(source, target, extra_entries, size):
    """A `size`-byte sparse archive: the source archive's tiles at the end of its tile data, and before
    them `extra_entries` tiles at zoom 14 elsewhere (a few hundred bytes to a kilobyte each, never read:
    holes), listed in leaf directories of 4096 entries, as a big real archive has them."""
    with open(source, "rb") as f:
        data = f.read()
    (magic, version, root_offset, root_length, meta_offset, meta_length, _, _, data_offset,
     data_length, _, _, _) = HEADER.unpack_from(data)
    if magic != b"PMTiles" or version != 3 or data[97] != 2:
        raise SystemExit(f"bench-vector: {source} is not a gzip-directory PMTiles v3 archive")
    entries = decode_directory(gzip.decompress(data[root_offset:root_offset + root_length]))
    if any(run == 0 for _, _, _, run in entries):
        raise SystemExit(f"bench-vector: {source} has leaf directories already")
    tiles = data[data_offset:data_offset + data_length]
    # Room for the directories first; the tile data section fills the rest of the file.
    section = size - (64 << 20)
    base = section - len(tiles)
    stride = base // max(extra_entries, 1)
    taken = {tile_id for tile_id, _, _, _ in entries}
    zoom14 = (4 ** 14 - 1) // 3
    ids = [zoom14 + i for i in range(extra_entries + len(taken)) if zoom14 + i not in taken][:extra_entries]
    extra = [(tile_id, i * stride, min(stride, 300 + i * 7919 % 900), 1) for i, tile_id in enumerate(ids)]
    every = sorted([(tile_id, offset + base, length, run) for tile_id, offset, length, run in entries] + extra)
    leaves, root = bytearray(), []
    for start in range(0, len(every), 4096):
        leaf = encode_directory(every[start:start + 4096])
        root.append((every[start][0], len(leaves), len(leaf), 0))
        leaves += leaf
    root_bytes = encode_directory(root)
    metadata = data[meta_offset:meta_offset + meta_length]
    header = bytearray(data[:127])
    root_offset = 127
    meta_offset = root_offset + len(root_bytes)
    leaf_offset = meta_offset + len(metadata)
    tile_offset = size - section
    if tile_offset < leaf_offset + len(leaves):
        raise SystemExit("bench-vector: the huge archive's directories do not fit")
    struct.pack_into("<11Q", header, 8, root_offset, len(root_bytes), meta_offset, len(metadata),
                     leaf_offset, len(leaves), tile_offset, section, len(every), len(every), len(every))
    temporary = target + ".tmp"
    with open(temporary, "wb") as f:
        f.write(header + root_bytes + metadata + leaves)
        f.truncate(tile_offset + base)
        f.seek(tile_offset + base)
        f.write(tiles)
    os.replace(temporary, target)
    return len(every), len(leaves)


def command_huge(args):
    work = os.path.join(ROOT, ".build", "bench-vector")
    os.makedirs(work, exist_ok=True)
    huge = os.path.join(work, "helsinki-1gib.pmtiles")
    count, leaf_bytes = make_huge_archive(args.tiles, huge, args.extra_entries, 1 << 30)
    print(f"{huge}: {os.path.getsize(huge) / (1 << 30):.2f} GiB sparse "
          f"({os.stat(huge).st_blocks * 512 / (1 << 20):.1f} MiB on disk), {count} tile entries, "
          f"{leaf_bytes / 1024:.0f} KiB of leaf directories; the example archive: "
          f"{os.path.getsize(args.tiles) / 1024:.0f} KiB")
    print("round  small-proc  huge-proc  ratio   small-warm  huge-warm  ratio   small-open  huge-open  "
          "RSS small  RSS huge")
    rows = []
    for round_number in range(1, args.rounds + 1):
        row = {}
        for name, tiles in (("small", args.tiles), ("huge", huge)):
            out = os.path.join(work, f"{name}.png")
            row[f"{name}_proc"], row[f"{name}_rss"], _ = timed_process(mymap_command(args, tiles, out))
            _, _, text = timed_process([args.bench, "--vector", "--runs", str(args.runs), "--tiles", tiles,
                                        "--size", args.size])
            result = result_line(text)
            row[f"{name}_warm"], row[f"{name}_open"] = result["median_ms"], result["open_ms"]
        row["proc_ratio"] = row["huge_proc"] / row["small_proc"]
        row["warm_ratio"] = row["huge_warm"] / row["small_warm"]
        rows.append(row)
        print(f"{round_number:5}  {row['small_proc']:8.1f}ms  {row['huge_proc']:7.1f}ms  "
              f"{row['proc_ratio']:5.2f}  {row['small_warm']:8.1f}ms  {row['huge_warm']:7.1f}ms  "
              f"{row['warm_ratio']:5.2f}  {row['small_open']:8.2f}ms  {row['huge_open']:7.2f}ms  "
              f"{row['small_rss']:6.1f}MiB  {row['huge_rss']:6.1f}MiB", flush=True)
    m = {key: median_row(rows, key) for key in rows[0]}
    print(f"median {m['small_proc']:8.1f}ms  {m['huge_proc']:7.1f}ms  {m['proc_ratio']:5.2f}  "
          f"{m['small_warm']:8.1f}ms  {m['huge_warm']:7.1f}ms  {m['warm_ratio']:5.2f}  {m['small_open']:8.2f}ms  "
          f"{m['huge_open']:7.2f}ms  {m['small_rss']:6.1f}MiB  {m['huge_rss']:6.1f}MiB")
    with open(os.path.join(work, "small.png"), "rb") as a, open(os.path.join(work, "huge.png"), "rb") as b:
        same = a.read() == b.read()
    print("the two maps are " + ("the same bytes" if same else "DIFFERENT"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("maplibre-render", "maplibre-warm"):
        command = commands.add_parser(name)
        command.add_argument("--style", required=True)
        command.add_argument("--tiles", required=True)
        command.add_argument("--center", required=True, help="LAT,LON")
        command.add_argument("--zoom", type=float, required=True, help="MapLibre zoom (mymap zoom - 1)")
        command.add_argument("--size", default="1200x800")
        command.add_argument("--out")
        command.add_argument("--runs", type=int, default=10)
    for name in ("rounds", "huge"):
        command = commands.add_parser(name)
        command.add_argument("--mymap", required=True)
        command.add_argument("--bench", required=True, help="the mymap-bench executable")
        command.add_argument("--python", help="the venv's Python, for maplibre-native")
        command.add_argument("--rounds", type=int, default=5)
        command.add_argument("--runs", type=int, default=10, help="warm renders per round")
        command.add_argument("--locations", default=os.path.join(ROOT, "Examples", "helsinki.json"))
        command.add_argument("--tiles", default=os.path.join(ROOT, "Examples", "tiles", "helsinki.pmtiles"))
        command.add_argument("--style", default=os.path.join(ROOT, "Styles", "vector", "light.json"))
        command.add_argument("--size", default="1200x800")
        command.add_argument("--extra-entries", type=int, default=1_000_000)
    args = parser.parse_args()
    {"maplibre-render": command_maplibre_render, "maplibre-warm": command_maplibre_warm,
     "rounds": command_rounds, "huge": command_huge}[args.command](args)


if __name__ == "__main__":
    main()
