#!/usr/bin/env bash
# terrain-jacksboro: a real DEM (Jacksboro fault, Tennessee) -> prism layer -> terrain gravity and magnetic effect.
# Usage: run.sh [--out DIR] [--from STAGE | --only STAGE [-- STAGE_OPTIONS...]]   STAGE: dem, model, gravity, magnetic
# Options after `--` go to the one stage of --only and win over its config.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage copies its config into the output folder, runs from that copy,
# and reads only the previous stage's files from the output folder.
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=terrain-jacksboro
stages=(dem model gravity magnetic)
# Debian's python-matplotlib-data ships the DEM; Debian's python3 has python3-gdal.
npz=/usr/share/matplotlib/mpl-data/sample_data/jacksboro_fault_dem.npz

run_dem() {
  [ -f "$npz" ] || { echo "run.sh: $npz missing (scripts/setup.sh installs python-matplotlib-data)" >&2; exit 1; }
  /usr/bin/python3 "$here/npz_to_geotiff.py" "$npz" "$out/jacksboro.tif"
}
run_model() {
  need geobem-model
  need_file jacksboro.tif dem
  copy_config model.ini
  "$bin/geobem-model" --config "$out/model.ini" --dem "$out/jacksboro.tif" --out "$out" ${extra[@]+"${extra[@]}"}
}
run_gravity() {
  need geobem-gravity
  need_file layer.vts model
  copy_config gravity.ini
  "$bin/geobem-gravity" --config "$out/gravity.ini" --prisms "$out/layer.vts" --stations-on-dem "$out/layer.vts" \
    --out "$out" ${extra[@]+"${extra[@]}"}
}
run_magnetic() {
  need geobem-magnetic
  need_file layer.vts model
  copy_config magnetic.ini
  "$bin/geobem-magnetic" --config "$out/magnetic.ini" --prisms "$out/layer.vts" --stations-on-dem "$out/layer.vts" \
    --out "$out" ${extra[@]+"${extra[@]}"}
}

run_workflow "$@"
