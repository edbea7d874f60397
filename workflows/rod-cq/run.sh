#!/usr/bin/env bash
# rod-cq: the rod benchmark (3 m x 1 m x 1 m steel, fixed at x = 0, traction p H(t) on x = 3 m) by CQ-BEM.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage reads its INI file from this folder; the results go to OUT
# (rod.vtu with its options in rod.vtu.ini, laplace/, time/, rod.png).
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=rod-cq
stages=(mesh laplace time plot)
# 112 triangles, long steps, one period of the free end (4l/c = 2.32 ms).
coarse=(mesh:element-size=0.7072 laplace:beta=0.3 laplace:duration=0.0023202)

run_mesh() {
  need geobem-mesh
  "$bin/geobem-mesh" --config "$here/mesh.ini" --output "$out/rod.vtu" ${extra[@]+"${extra[@]}"}
}
run_laplace() {
  need geobem-laplace
  need_file rod.vtu mesh
  "$bin/geobem-laplace" --config "$here/laplace.ini" --mesh "$out/rod.vtu" --out "$out/laplace" \
    ${extra[@]+"${extra[@]}"}
}
run_time() {
  need geobem-time
  need_file laplace/manifest.ini laplace
  "$bin/geobem-time" --config "$here/time.ini" --laplace "$out/laplace" --out "$out/time" \
    ${extra[@]+"${extra[@]}"}
}
# Debian's python3 with python3-matplotlib (scripts/setup.sh installs it).
run_plot() {
  need_file time/probes.csv time
  /usr/bin/python3 "$here/plot.py" "$out/time" "$out/rod.png" ${extra[@]+"${extra[@]}"}
}

run_workflow "$@"
