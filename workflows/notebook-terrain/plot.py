#!/usr/bin/env python3
"""The picture of the notebook stage's OUT/fields.csv and OUT/heights.npz (terrain.py's plot).

Usage: plot.py OUT PNG
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from terrain import plot  # noqa: E402

if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    for name in ("fields.csv", "heights.npz"):
        if not os.path.isfile(os.path.join(sys.argv[1], name)):
            sys.exit(f"plot.py: {os.path.join(sys.argv[1], name)} missing: run the notebook stage first")
    plot(sys.argv[1], sys.argv[2])
