#!/usr/bin/env bash
# notebook-terrain: the Jacksboro terrain case through the Python module (g_z, TFA, Harmonica beside it).
# The module comes from .venv (scripts/setup.sh builds and installs it there); options of the notebook
# stage (terrain.py: --station-step K, --harmonica-step K, --device auto|cpu|cuda) by --set notebook:KEY=VALUE
# or after `--` with --only notebook. dem writes OUT/dem/jacksboro.tif, notebook OUT/fields.csv and
# OUT/heights.npz; plot writes OUT/terrain.png.
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=notebook-terrain
stages=(dem notebook plot)
# Every 10th DEM node (41 x 35 prisms), stations over every 3rd of them.
coarse=(dem:step=10 notebook:station-step=3)
npz=/usr/share/matplotlib/mpl-data/sample_data/jacksboro_fault_dem.npz
python="$here/../../.venv/bin/python"

need_python() { [ -x "$python" ] || { echo "run.sh: $python missing (run scripts/setup.sh)" >&2; exit 1; }; }
run_dem() {
  [ -f "$npz" ] || { echo "run.sh: $npz missing (scripts/setup.sh installs python-matplotlib-data)" >&2; exit 1; }
  mkdir -p "$out/dem"
  /usr/bin/python3 "$here/../terrain-jacksboro/npz_to_geotiff.py" "$npz" "$out/dem/jacksboro.tif" ${extra[@]+"${extra[@]}"}
}
run_notebook() {
  need_file dem/jacksboro.tif dem
  need_python
  "$python" "$here/terrain.py" "$out/dem/jacksboro.tif" "$out" --no-plot ${extra[@]+"${extra[@]}"}
}
run_plot() {
  need_file fields.csv notebook
  need_python
  "$python" "$here/plot.py" "$out" "$out/terrain.png"
}

run_workflow "$@"
