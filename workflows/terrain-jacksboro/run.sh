#!/usr/bin/env bash
# terrain-jacksboro: a real DEM (Jacksboro fault, Tennessee) -> prism layer -> terrain gravity and magnetic effect.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage reads its INI file from this folder and writes its outputs, with the options
# it ran with (OUT/STAGE/geobem-*.ini), into a folder of its own; plot writes OUT/terrain.png.
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=terrain-jacksboro
stages=(dem model gravity magnetic plot)
# Every 10th DEM node (41 x 35): a DEM node per prism and, with --station-step 1, per station too.
coarse=(dem:step=10)
# Debian's python-matplotlib-data ships the DEM; Debian's python3 has python3-gdal.
npz=/usr/share/matplotlib/mpl-data/sample_data/jacksboro_fault_dem.npz

run_dem() {
  [ -f "$npz" ] || { echo "run.sh: $npz missing (scripts/setup.sh installs python-matplotlib-data)" >&2; exit 1; }
  mkdir -p "$out/dem"
  /usr/bin/python3 "$here/npz_to_geotiff.py" "$npz" "$out/dem/jacksboro.tif" ${extra[@]+"${extra[@]}"}
}
run_model() {
  need geobem-model
  need_file dem/jacksboro.tif dem
  "$bin/geobem-model" --config "$here/model.ini" --dem "$out/dem/jacksboro.tif" --out "$out/model" \
    ${extra[@]+"${extra[@]}"}
}
run_gravity() {
  need geobem-gravity
  need_file model/layer.vts model
  "$bin/geobem-gravity" --config "$here/gravity.ini" --prisms "$out/model/layer.vts" \
    --stations-on-dem "$out/model/layer.vts" --out "$out/gravity" ${extra[@]+"${extra[@]}"}
}
run_magnetic() {
  need geobem-magnetic
  need_file model/layer.vts model
  "$bin/geobem-magnetic" --config "$here/magnetic.ini" --prisms "$out/model/layer.vts" \
    --stations-on-dem "$out/model/layer.vts" --out "$out/magnetic" ${extra[@]+"${extra[@]}"}
}
# Debian's python3 with python3-matplotlib and python3-gdal (scripts/setup.sh installs them).
run_plot() {
  need_file gravity/gravity.csv gravity
  need_file magnetic/magnetic.csv magnetic
  /usr/bin/python3 "$here/plot.py" "$out" "$out/terrain.png" ${extra[@]+"${extra[@]}"}
}

run_workflow "$@"
