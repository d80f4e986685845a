#!/usr/bin/env python3
"""Writes Examples/helsinki-walk.gpx: the day of Examples/helsinki.json walked along real streets.

The places become waypoints (with mymap's id extension); the walk is one GPX track that goes from each
place to the next in date order by the shortest way over the walkable streets, paths and squares of
../shared/data/osm/helsinki.osm.pbf (© OpenStreetMap contributors, ODbL), at 1.25 m/s, leaving each place
just in time to arrive at the next one's time. Deterministic: the same inputs give the same bytes.

    pip install osmium==4.3.2
    python3 Scripts/make-helsinki-walk.py [--osm PATH] [--places PATH] [--out PATH]
"""
import argparse
import heapq
import json
import math
from datetime import datetime, timedelta, timezone
from xml.sax.saxutils import escape

import osmium

WALKABLE = {
    "footway", "pedestrian", "path", "steps", "living_street", "residential", "service", "unclassified",
    "tertiary", "tertiary_link", "secondary", "secondary_link", "primary", "primary_link", "cycleway",
    "track",
}
SPEED = 1.25  # metres a second: an unhurried city walk


def distance(a, b):
    """Metres between (lat, lon) pairs (haversine, mean Earth radius)."""
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


class Streets(osmium.SimpleHandler):
    """The walkable graph: node id -> (lat, lon), and neighbours with the distances between them."""

    def __init__(self):
        super().__init__()
        self.nodes = {}
        self.edges = {}

    def way(self, way):
        tags = way.tags
        if tags.get("highway") not in WALKABLE:
            return
        if tags.get("foot") == "no" or tags.get("access") in ("private", "no"):
            return
        # Helsinki's underground service tunnels are roads for lorries, not for a walk.
        if tags.get("tunnel") == "yes" and tags.get("highway") not in ("footway", "pedestrian", "steps", "path"):
            return
        previous = None
        for node in way.nodes:
            # A node outside the extract breaks the way: never join across the gap.
            if not node.location.valid():
                previous = None
                continue
            self.nodes[node.ref] = (node.location.lat, node.location.lon)
            if previous is not None:
                d = distance(self.nodes[previous], self.nodes[node.ref])
                self.edges.setdefault(previous, []).append((node.ref, d))
                self.edges.setdefault(node.ref, []).append((previous, d))
            previous = node.ref


def nearest(streets, point):
    """The graph node nearest `point`; ties broken by node id, so the choice is deterministic."""
    return min(streets.edges, key=lambda n: (distance(streets.nodes[n], point), n))


def shortest_path(streets, start, goal):
    """Dijkstra over the street graph; the node ids from start to goal."""
    best = {start: 0.0}
    previous = {}
    queue = [(0.0, start)]
    while queue:
        cost, node = heapq.heappop(queue)
        if node == goal:
            break
        if cost > best[node]:
            continue
        for neighbour, d in sorted(streets.edges[node]):
            total = cost + d
            if total < best.get(neighbour, math.inf):
                best[neighbour] = total
                previous[neighbour] = node
                heapq.heappush(queue, (total, neighbour))
    if goal not in best:
        raise SystemExit(f"no walkable way between OSM nodes {start} and {goal}")
    path = [goal]
    while path[-1] != start:
        path.append(previous[path[-1]])
    return path[::-1]


def parse_time(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def iso(moment):
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--osm", default="../shared/data/osm/helsinki.osm.pbf")
    parser.add_argument("--places", default="Examples/helsinki.json")
    parser.add_argument("--out", default="Examples/helsinki-walk.gpx")
    args = parser.parse_args()

    streets = Streets()
    streets.apply_file(args.osm, locations=True)
    places = sorted(json.load(open(args.places, encoding="utf-8"))["locations"], key=lambda p: p["date"])

    # Each leg: the place, its nearest street node, the shortest way to the next place's node, the place.
    points = []  # (lat, lon, time)
    for here, there in zip(places, places[1:]):
        a = (here["latitude"], here["longitude"])
        b = (there["latitude"], there["longitude"])
        path = shortest_path(streets, nearest(streets, a), nearest(streets, b))
        leg = [a] + [streets.nodes[n] for n in path] + [b]
        length = sum(distance(p, q) for p, q in zip(leg, leg[1:]))
        arrive = parse_time(there["date"])
        leave = max(parse_time(here["date"]), arrive - timedelta(seconds=length / SPEED))
        walked = 0.0
        for index, point in enumerate(leg):
            if index:
                walked += distance(leg[index - 1], point)
            if points and index == 0 and points[-1][:2] == point:
                continue
            moment = leave + timedelta(seconds=round(walked / SPEED))
            points.append((point[0], point[1], moment))

    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<gpx version="1.1" creator="mymap Scripts/make-helsinki-walk.py" '
        'xmlns="http://www.topografix.com/GPX/1/1" xmlns:mymap="urn:mymap:gpx:1">',
        "  <metadata>",
        "    <name>A day in central Helsinki</name>",
        "    <desc>The places of Examples/helsinki.json, walked in date order along the streets of"
        " OpenStreetMap.</desc>",
        '    <copyright author="OpenStreetMap contributors">',
        "      <license>https://opendatacommons.org/licenses/odbl/</license>",
        "    </copyright>",
        '    <link href="https://www.openstreetmap.org/copyright"><text>© OpenStreetMap contributors</text></link>',
        "  </metadata>",
    ]
    for place in places:
        out.append(f'  <wpt lat="{place["latitude"]}" lon="{place["longitude"]}">')
        out.append(f"    <time>{iso(parse_time(place['date']))}</time>")
        out.append(f"    <name>{escape(place['description'])}</name>")
        out.append(f"    <type>{escape(place['category'])}</type>")
        out.append(f"    <extensions><mymap:id>{escape(place['id'])}</mymap:id></extensions>")
        out.append("  </wpt>")
    out.append("  <trk>")
    out.append("    <name>Walk through central Helsinki</name>")
    out.append("    <extensions><mymap:id>helsinki-walk</mymap:id></extensions>")
    out.append("    <trkseg>")
    for lat, lon, moment in points:
        out.append(f'      <trkpt lat="{lat:.7f}" lon="{lon:.7f}"><time>{iso(moment)}</time></trkpt>')
    out.append("    </trkseg>")
    out.append("  </trk>")
    out.append("</gpx>")
    with open(args.out, "w", encoding="utf-8", newline="\n") as handle:
        handle.write("\n".join(out) + "\n")
    total = sum(distance(p[:2], q[:2]) for p, q in zip(points, points[1:]))
    print(f"wrote {args.out}: {len(places)} places, {len(points)} track points, {total / 1000:.2f} km")


if __name__ == "__main__":
    main()
