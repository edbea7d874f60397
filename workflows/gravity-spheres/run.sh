#!/usr/bin/env bash
# gravity-spheres: prism model of seven spheres -> gravity on a station grid.
# Usage: run.sh [--out DIR] [--from STAGE | --only STAGE [-- STAGE_OPTIONS...]]   STAGE: model, gravity
# Options after `--` go to the one stage of --only and win over its config.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage copies its config into the output folder, runs from that copy,
# and reads only the previous stage's files from the output folder.
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=gravity-spheres
stages=(model gravity)

run_model() {
  need geobem-model
  copy_config model.ini
  "$bin/geobem-model" --config "$out/model.ini" --out "$out" ${extra[@]+"${extra[@]}"}
}
run_gravity() {
  need geobem-gravity
  need_file prisms.csv model
  copy_config gravity.ini
  # A grid model goes as its grid: geobem-gravity then evaluates it on grid nodes.
  local model="$out/prisms.csv"
  [ -f "$out/model.vtr" ] && model="$out/model.vtr"
  "$bin/geobem-gravity" --config "$out/gravity.ini" --prisms "$model" --out "$out" ${extra[@]+"${extra[@]}"}
}

run_workflow "$@"
