#!/usr/bin/env bash
# rod-cq: the rod benchmark (3 m x 1 m x 1 m steel, fixed at x = 0, traction p H(t) on x = 3 m) by CQ-BEM.
# Usage: run.sh [--out DIR] [--from STAGE | --only STAGE [-- STAGE_OPTIONS...]]   STAGE: mesh, laplace, time
# Options after `--` go to the one stage of --only and win over its config.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage copies its config into the output folder, runs from that copy,
# and reads only the previous stage's files from the output folder.
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=rod-cq
stages=(mesh laplace time)

run_mesh() {
  need geobem-mesh
  copy_config mesh.ini
  "$bin/geobem-mesh" --config "$out/mesh.ini" --out "$out/rod.vtu" ${extra[@]+"${extra[@]}"}
}
run_laplace() {
  need geobem-laplace
  need_file rod.vtu mesh
  copy_config laplace.ini
  "$bin/geobem-laplace" --config "$out/laplace.ini" --mesh "$out/rod.vtu" --out "$out/laplace" \
    ${extra[@]+"${extra[@]}"}
}
run_time() {
  need geobem-time
  need_file laplace/manifest.ini laplace
  copy_config time.ini
  "$bin/geobem-time" --config "$out/time.ini" --laplace "$out/laplace" --out "$out/time" \
    ${extra[@]+"${extra[@]}"}
}

run_workflow "$@"
