#!/usr/bin/env bash
# tunnel-blast: a Friedlander blast on a 5 m section of a 60 m tunnel (5 m diameter) in granite-like rock, by CQ-BEM.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage reads its INI file from this folder; the results go to OUT
# (tunnel.vtu with its options in tunnel.vtu.ini, laplace/, time/, tunnel.png).
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=tunnel-blast
stages=(mesh laplace time plot)
# 370 triangles, long steps (beta = 0.5), 7 ms: the P wave reaches every
# receiver (the farthest, 28.5 m from the section, at 6 ms); the CI case.
coarse=(mesh:element-size=3 laplace:beta=0.5 laplace:duration=7e-3)

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
