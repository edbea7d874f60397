#!/usr/bin/env bash
# gravity-spheres: prism model of seven spheres -> gravity on a station grid.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage reads its INI file from this folder and writes its outputs, with the options
# it ran with (OUT/STAGE/geobem-*.ini), into a folder of its own; plot writes OUT/spheres.png.
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=gravity-spheres
stages=(model gravity plot)
# A 70 x 70 x 20 grid (the model changes, not the method) on 30 x 20 stations.
coarse=(model:cells=70,70,20 gravity:grid-shape=30,20)

run_model() {
  need geobem-model
  "$bin/geobem-model" --config "$here/model.ini" --out "$out/model" ${extra[@]+"${extra[@]}"}
}
run_gravity() {
  need geobem-gravity
  need_file model/prisms.csv model
  # A grid model goes as its grid: geobem-gravity then evaluates it on grid nodes.
  local model="$out/model/prisms.csv"
  [ -f "$out/model/model.vtr" ] && model="$out/model/model.vtr"
  "$bin/geobem-gravity" --config "$here/gravity.ini" --prisms "$model" --out "$out/gravity" ${extra[@]+"${extra[@]}"}
}
# Debian's python3 with python3-matplotlib (scripts/setup.sh installs it).
run_plot() {
  need_file gravity/gravity.csv gravity
  /usr/bin/python3 "$here/plot.py" "$out/gravity" "$out/spheres.png" ${extra[@]+"${extra[@]}"}
}

run_workflow "$@"
