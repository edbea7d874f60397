#!/usr/bin/env bash
# README command (a): set up, build, then run the default end-to-end workflows
# on data the project generates. Results land in each workflow's out/ folder;
# each workflow's last stage draws its PNG there, listed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
for workflow in gravity-spheres rod-cq cavity-pressure tunnel-blast halfspace-load terrain-jacksboro notebook-terrain; do
  if [ -x "workflows/$workflow/run.sh" ]; then
    echo "== workflow $workflow" >&2
    "workflows/$workflow/run.sh"
  fi
done
echo "== the workflows' plots:" >&2
ls -1 workflows/*/out/*.png >&2
