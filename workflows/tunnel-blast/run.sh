#!/usr/bin/env bash
# tunnel-blast: a Friedlander blast on a 5 m section of a 60 m tunnel (5 m diameter) in granite-like rock, by CQ-BEM.
# Usage: run.sh [--out DIR] [--from STAGE | --only STAGE [-- STAGE_OPTIONS...]]   STAGE: mesh, laplace, time, plot
# Options after `--` go to the one stage of --only and win over its config.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage reads its INI file from this folder; the results go to OUT
# (tunnel.vtu with its options in tunnel.vtu.ini, laplace/, time/, tunnel.png).
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=tunnel-blast
stages=(mesh laplace time plot)

run_mesh() {
  need geobem-mesh
  "$bin/geobem-mesh" --config "$here/mesh.ini" --input "$here/tunnel.geo" --output "$out/tunnel.vtu" \
    ${extra[@]+"${extra[@]}"}
}
run_laplace() {
  need geobem-laplace
  need_file tunnel.vtu mesh
  "$bin/geobem-laplace" --config "$here/laplace.ini" --mesh "$out/tunnel.vtu" --out "$out/laplace" \
    ${extra[@]+"${extra[@]}"}
}
run_time() {
  need geobem-time
  need_file laplace/manifest.ini laplace
  "$bin/geobem-time" --config "$here/time.ini" --laplace "$out/laplace" --out "$out/time" ${extra[@]+"${extra[@]}"}
}
# Debian's python3 with python3-matplotlib (scripts/setup.sh installs it).
run_plot() {
  need_file time/receivers.csv time
  /usr/bin/python3 "$here/plot.py" "$out/time" "$out/tunnel.png" ${extra[@]+"${extra[@]}"}
}

run_workflow "$@"
