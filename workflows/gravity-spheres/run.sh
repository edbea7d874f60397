#!/usr/bin/env bash
# gravity-spheres: prism model of seven spheres -> gravity on a station grid.
# Usage: run.sh [--out DIR] [--from STAGE | --only STAGE [-- STAGE_OPTIONS...]]   STAGE: model, gravity
# Options after `--` go to the one stage of --only and win over its config.
# Executables come from $GEOBEM_BIN, else build/bin of this repository.
# Each stage copies its config into the output folder, runs from that copy,
# and reads only the previous stage's files from the output folder.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${GEOBEM_BIN:-$here/../../build/bin}"
out="$here/out"
stages=(model gravity)
from=model only="" extra=()
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

run_model() {
  need geobem-model
  cp "$here/model.ini" "$out/model.ini"
  "$bin/geobem-model" --config "$out/model.ini" --out "$out" ${extra[@]+"${extra[@]}"}
}
run_gravity() {
  need geobem-gravity
  [ -f "$out/prisms.csv" ] || { echo "run.sh: $out/prisms.csv missing: run the model stage first" >&2; exit 1; }
  cp "$here/gravity.ini" "$out/gravity.ini"
  "$bin/geobem-gravity" --config "$out/gravity.ini" --prisms "$out/prisms.csv" --out "$out" ${extra[@]+"${extra[@]}"}
}

started=""
for stage in "${stages[@]}"; do
  [ "$stage" = "$from" ] && started=yes
  [ -n "$started" ] || continue
  echo "== gravity-spheres: stage $stage" >&2
  seconds=$SECONDS
  "run_$stage"
  echo "== gravity-spheres: stage $stage done in $((SECONDS - seconds)) s" >&2
  [ -n "$only" ] && break
done
echo "== gravity-spheres: results in $out" >&2
