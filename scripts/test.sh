#!/usr/bin/env bash
# README command (b): set up, build, then run the whole test suite (cpu and
# mpi labels here; gpu tests skip themselves without a device).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ctest --test-dir build --output-on-failure -j "$(nproc)" --timeout 900
