#!/usr/bin/env bash
# halfspace-load: surface settlement of an elastic half-space under a uniform disk pressure.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage reads its INI file from this folder and writes its outputs, with the options
# it ran with (OUT/STAGE/*.ini), into a folder of its own; plot writes OUT/halfspace.png.
source "$(dirname "$0")/../lib/run_stages.sh"
workflow=halfspace-load
stages=(radii integrate displacement plot)
coarse=()  # the default run takes under a second

run_radii() {
  need geobem-halfspace
  "$bin/geobem-halfspace" radii --config "$here/halfspace.ini" --out "$out/radii" ${extra[@]+"${extra[@]}"}
}
run_integrate() {
  need geobem-integrate
  need_file radii/radii.csv radii
  "$bin/geobem-integrate" longman --config "$here/integrate.ini" --input "$out/radii/radii.csv" \
    --output "$out/integrate/integrals.csv" ${extra[@]+"${extra[@]}"}
}
run_displacement() {
  need geobem-halfspace
  need_file integrate/integrals.csv integrate
  "$bin/geobem-halfspace" displacement --config "$here/halfspace.ini" --integrals "$out/integrate/integrals.csv" \
    --out "$out/displacement" ${extra[@]+"${extra[@]}"}
}
# Debian's python3 with python3-matplotlib (scripts/setup.sh installs it).
run_plot() {
  need_file displacement/displacement.csv displacement
  /usr/bin/python3 "$here/plot.py" "$out" "$out/halfspace.png" ${extra[@]+"${extra[@]}"}
}

run_workflow "$@"
