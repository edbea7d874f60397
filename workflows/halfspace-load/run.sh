#!/usr/bin/env bash
# halfspace-load: surface settlement of an elastic half-space under a uniform disk pressure.
# Usage: run.sh [--out DIR] [--from STAGE | --only STAGE [-- STAGE_OPTIONS...]]   STAGE: radii, integrate, displacement
# Options after `--` go to the one stage of --only and win over its config.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage copies its config into the output folder, runs from that copy,
# and reads only the previous stage's files from the output folder.
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=halfspace-load
stages=(radii integrate displacement)

run_radii() {
  need geobem-halfspace
  copy_config halfspace.ini
  "$bin/geobem-halfspace" radii --config "$out/halfspace.ini" --out "$out" ${extra[@]+"${extra[@]}"}
}
run_integrate() {
  need geobem-integrate
  need_file radii.csv radii
  copy_config integrate.ini
  "$bin/geobem-integrate" longman --config "$out/integrate.ini" --input "$out/radii.csv" \
    --output "$out/integrals.csv" ${extra[@]+"${extra[@]}"}
}
run_displacement() {
  need geobem-halfspace
  need_file integrals.csv integrate
  copy_config halfspace.ini
  "$bin/geobem-halfspace" displacement --config "$out/halfspace.ini" --out "$out" ${extra[@]+"${extra[@]}"}
}

run_workflow "$@"
