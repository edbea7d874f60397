# Sourced by every workflow's run.sh: the command line and the stage loop they
# share. The run.sh sets `workflow` (its name) and `stages` (in order), defines
# run_STAGE for each, then calls `run_workflow "$@"`. Lines 3-5 of the run.sh
# are its usage text.
#
# Inside run_STAGE: $bin (executables: $GEOBEM_BIN, else build/bin), $here
# (the workflow folder), $out (the output folder), ${extra[@]} (options after
# `--`, for the --only stage), and the checks `need EXE` and
# `need_file FILE STAGE`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${GEOBEM_BIN:-$here/../../build/bin}"
out="$here/out"
extra=()

need() { [ -x "$bin/$1" ] || { echo "run.sh: $bin/$1 not found (build first, or set GEOBEM_BIN)" >&2; exit 1; }; }
need_file() { [ -f "$out/$1" ] || { echo "run.sh: $out/$1 missing: run the $2 stage first" >&2; exit 1; }; }

run_workflow() {
  local from="${stages[0]}" only="" stage started="" seconds
  usage() { sed -n '3,5p' "$0" | sed 's/^# //' >&2; exit 2; }
  while (($#)); do
    case "$1" in
      -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
  for stage in "${stages[@]}"; do
    [ "$stage" = "$from" ] && started=yes
    [ -n "$started" ] || continue
    echo "== $workflow: stage $stage" >&2
    seconds=$SECONDS
    "run_$stage"
    echo "== $workflow: stage $stage done in $((SECONDS - seconds)) s" >&2
    [ -n "$only" ] && break
  done
  echo "== $workflow: results in $out" >&2
}
