#!/usr/bin/env bash
# halfspace-load: surface settlement of an elastic half-space under a uniform disk pressure.
# Usage: run.sh [--out DIR] [--from STAGE | --only STAGE [-- STAGE_OPTIONS...]]   STAGE: radii, integrate, displacement
# Options after `--` go to the one stage of --only and win over its config.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage copies its config into the output folder, runs from that copy,
# and reads only the previous stage's files from the output folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${GEOBEM_BIN:-$here/../../build/bin}"
out="$here/out"
stages=(radii integrate displacement)
from=radii only="" extra=()
usage() { sed -n '3,5p' "$0" | sed 's/^# //' >&2; exit 2; }
while (($#)); do
  case "$1" in
    --from) from="${2:-}"; shift 2 || usage ;;
    --only) only="${2:-}"; shift 2 || usage ;;
    --out) out="${2:-}"; shift 2 || usage ;;
    --) shift; extra=("$@"); break ;;
    *) usage ;;
  esac
done
[ -n "$only" ] && from="$only"
((${#extra[@]} == 0)) || [ -n "$only" ] || { echo "run.sh: options after -- need --only STAGE" >&2; exit 2; }
case " ${stages[*]} " in *" $from "*) ;; *) echo "run.sh: unknown stage '$from' (stages: ${stages[*]})" >&2; exit 2 ;; esac
mkdir -p "$out"

need() { [ -x "$bin/$1" ] || { echo "run.sh: $bin/$1 not found (build first, or set GEOBEM_BIN)" >&2; exit 1; }; }
need_file() { [ -f "$out/$1" ] || { echo "run.sh: $out/$1 missing: run the $2 stage first" >&2; exit 1; }; }

run_radii() {
  need geobem-halfspace
  cp "$here/halfspace.ini" "$out/halfspace.ini"
  "$bin/geobem-halfspace" radii --config "$out/halfspace.ini" --out "$out" ${extra[@]+"${extra[@]}"}
}
run_integrate() {
  need geobem-integrate
  need_file radii.csv radii
  cp "$here/integrate.ini" "$out/integrate.ini"
  "$bin/geobem-integrate" longman --config "$out/integrate.ini" --input "$out/radii.csv" \
    --output "$out/integrals.csv" ${extra[@]+"${extra[@]}"}
}
run_displacement() {
  need geobem-halfspace
  need_file integrals.csv integrate
  cp "$here/halfspace.ini" "$out/halfspace.ini"
  "$bin/geobem-halfspace" displacement --config "$out/halfspace.ini" --out "$out" ${extra[@]+"${extra[@]}"}
}

started=""
for stage in "${stages[@]}"; do
  [ "$stage" = "$from" ] && started=yes
  [ -n "$started" ] || continue
  echo "== halfspace-load: stage $stage" >&2
  seconds=$SECONDS
  "run_$stage"
  echo "== halfspace-load: stage $stage done in $((SECONDS - seconds)) s" >&2
  [ -n "$only" ] && break
done
echo "== halfspace-load: results in $out" >&2
