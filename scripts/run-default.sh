#!/usr/bin/env bash
# README command (a): set up, build, then run the default end-to-end workflows
# on data the project generates. Results land in each workflow's out/ folder.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
for workflow in gravity-spheres rod-cq cavity-pressure halfspace-load terrain-jacksboro; do
  if [ -x "workflows/$workflow/run.sh" ]; then
    echo "== workflow $workflow" >&2
    "workflows/$workflow/run.sh"
  fi
done
