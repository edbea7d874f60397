# Sourced by every workflow's run.sh: the command line and the stage loop they
# share. The run.sh sets `workflow` (its name), `stages` (in order) and
# `coarse` (the --set overrides of its quick, coarse run), defines run_STAGE
# for each stage, then calls `run_workflow "$@"`. Its second line says what it
# computes; the comment lines after it are notes that --help prints after the
# usage.
#
# Inside run_STAGE: $bin (executables: $GEOBEM_BIN, else build/bin), $here
# (the workflow folder), $out (the output folder), ${extra[@]} (this stage's
# options: --coarse's, then --set's, then for the --only stage those after
# `--`; the stages keep the last value of an option, so later ones win), and
# the checks `need EXE` and `need_file FILE STAGE`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${GEOBEM_BIN:-$here/../../build/bin}"
out="$here/out"
extra=()

need() { [ -x "$bin/$1" ] || { echo "run.sh: $bin/$1 not found (build first, or set GEOBEM_BIN)" >&2; exit 1; }; }
need_file() { [ -f "$out/$1" ] || { echo "run.sh: $out/$1 missing: run the $2 stage first" >&2; exit 1; }; }

workflow_usage() {
  local list
  printf -v list '%s, ' "${stages[@]}"
  cat <<EOF
Usage: run.sh [--out DIR] [--coarse] [--from STAGE | --only STAGE] [--set STAGE[,STAGE...]:KEY[=VALUE]]...
              [-- OPTIONS...]
  STAGE: ${list%, }
  --from STAGE   run STAGE and every stage after it (default: all)
  --only STAGE   run STAGE alone; OPTIONS after \`--\` go to it
  --set S:K=V    give the stages S (comma-separated) the option --K=V (--K without =V); repeatable
  --coarse       a quick run on a coarse mesh or grid, to try the workflow: ${coarse[*]:-the default is quick}
  --out DIR      results in DIR instead of $here/out
Options given by --set or after \`--\` replace the same option's values in the stages' INI files (this folder).
EOF
}

run_workflow() {
  local from="${stages[0]}" only="" stage started="" seconds use_coarse="" spec names key
  local -a sets=() after=()
  usage() { echo "run.sh: $1 (run.sh --help)" >&2; exit 2; }
  while (($#)); do
    case "$1" in
      -h|--help)
        sed -n '2p' "$0" | sed 's/^# \{0,1\}//'
        workflow_usage
        sed -n '3,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
        exit 0 ;;
      --from|--only|--out|--set) (($# >= 2)) || usage "$1 needs a value" ;;&
      --from) from="$2"; shift 2 ;;
      --only) only="$2"; shift 2 ;;
      --out) out="$2"; shift 2 ;;
      --set) sets+=("$2"); shift 2 ;;
      --coarse) use_coarse=yes; shift ;;
      --) shift; after=("$@"); break ;;
      *) usage "unknown argument '$1'" ;;
    esac
  done
  [ -n "$only" ] && from="$only"
  ((${#after[@]} == 0)) || [ -n "$only" ] ||
    usage "options after -- need --only STAGE (for several stages: --set STAGE:KEY=VALUE)"
  is_stage() { case " ${stages[*]} " in *" $1 "*) return 0 ;; esac; return 1; }
  is_stage "$from" || usage "unknown stage '$from' (stages: ${stages[*]})"
  [ -n "$use_coarse" ] && sets=("${coarse[@]}" ${sets[@]+"${sets[@]}"})
  # Which stages run, and every --set names some of them and an option.
  local -a running=()
  for stage in "${stages[@]}"; do
    [ "$stage" = "$from" ] && started=yes
    [ -n "$started" ] && running+=("$stage")
    [ -n "$started" ] && [ -n "$only" ] && break
  done
  for spec in ${sets[@]+"${sets[@]}"}; do
    [[ "$spec" == *:* ]] || usage "--set '$spec': expected STAGE[,STAGE...]:KEY=VALUE"
    names="${spec%%:*}" key="${spec#*:}"
    [[ "$key" =~ ^[a-z][a-z0-9-]*(=|$) ]] || usage "--set '$spec': expected an option name after '$names:'"
    for stage in ${names//,/ }; do
      is_stage "$stage" || usage "--set '$spec': unknown stage '$stage' (stages: ${stages[*]})"
      case " ${running[*]} " in *" $stage "*) ;; *)
        # --coarse names every stage; a user's --set for a stage that does not run is a slip.
        [ -n "$use_coarse" ] && [[ " ${coarse[*]} " == *" $spec "* ]] && continue
        usage "--set '$spec': stage $stage does not run (this call runs: ${running[*]})" ;;
      esac
    done
  done
  mkdir -p "$out"
  for stage in "${running[@]}"; do
    extra=()
    for spec in ${sets[@]+"${sets[@]}"}; do
      names=",${spec%%:*},"
      [[ "$names" == *",$stage,"* ]] && extra+=("--${spec#*:}")
    done
    [ -n "$only" ] && extra+=(${after[@]+"${after[@]}"})
    echo "== $workflow: stage $stage" >&2
    seconds=$SECONDS
    "run_$stage"
    echo "== $workflow: stage $stage done in $((SECONDS - seconds)) s" >&2
  done
  echo "== $workflow: results in $out" >&2
}
