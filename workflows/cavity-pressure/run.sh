#!/usr/bin/env bash
# cavity-pressure: a spherical cavity (a = 1 m) in granite-like rock under a sudden 1 MPa pressure, by CQ-BEM.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage reads its INI file from this folder; the results go to OUT
# (cavity.vtu with its options in cavity.vtu.ini, laplace/, time/, cavity.png).
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=cavity-pressure
stages=(mesh laplace time plot)
# Gmsh's coarsest sphere (320 triangles), 0.6 ms (2.8 a/c: the wave reaches
# the receivers at 2a, not yet those at 5a): about 10 s in all.
coarse=(mesh:element-size=0.5 laplace:beta=0.3 laplace:duration=6e-4)

run_mesh() {
  need geobem-mesh
  "$bin/geobem-mesh" --config "$here/mesh.ini" --output "$out/cavity.vtu" ${extra[@]+"${extra[@]}"}
}
run_laplace() {
  need geobem-laplace
  need_file cavity.vtu mesh
  "$bin/geobem-laplace" --config "$here/laplace.ini" --mesh "$out/cavity.vtu" --out "$out/laplace" \
    ${extra[@]+"${extra[@]}"}
}
run_time() {
  need geobem-time
  need_file laplace/manifest.ini laplace
  "$bin/geobem-time" --config "$here/time.ini" --laplace "$out/laplace" --out "$out/time" \
    --receivers "$here/receivers.csv" ${extra[@]+"${extra[@]}"}
}
# Debian's python3 with python3-matplotlib (scripts/setup.sh installs it).
run_plot() {
  need_file time/receivers.csv time
  /usr/bin/python3 "$here/plot.py" "$out/time" "$out/cavity.png" ${extra[@]+"${extra[@]}"}
}

run_workflow "$@"
