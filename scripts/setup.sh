#!/usr/bin/env bash
# Installs the Debian packages geobem needs (only those missing), makes the
# Python environment .venv (Debian's python3 and its packages, plus from PyPI
# what Debian lacks: python/requirements.txt), then configures and builds into
# build/ and installs the Python module into .venv. Idempotent; safe to rerun.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make pkg-config libvtk9-dev libboost-program-options-dev libgtest-dev python3-numpy
          libopenmpi-dev openmpi-bin libopenblas-openmp-dev libgsl-dev libgmsh-dev
          libfftw3-dev libcubature-dev zlib1g-dev libexpat1-dev libseccomp-dev libssl-dev
          libgdal-dev python3-gdal python3-numpy python-matplotlib-data python3-matplotlib
          clang libclang-rt-14-dev python3-mpmath
          python3-venv python3-dev python3-pytest python3-scipy python3-xarray python3-pandas python3-numba
          python3-sklearn python3-dask python3-pooch
          libhmat-oss-dev)  # hmat-oss: the hierarchical BEM benchmark's CPU peer, never linked into the product
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# CUDA is optional: with nvcc (on PATH or at /usr/local/cuda) the CUDA
# drivers are built, without it every method builds and runs on the CPU.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
cuda_options=(-DGEOBEM_ENABLE_CUDA=OFF)
if command -v nvcc >/dev/null; then
  cuda_options=(-DGEOBEM_ENABLE_CUDA=ON -DCMAKE_CUDA_COMPILER="$(command -v nvcc)")
else
  echo "setup: nvcc not found (CUDA toolkit expected at /usr/local/cuda): building the CPU paths only" >&2
fi

# The Python module's environment: Debian's interpreter, seeing Debian's
# packages; nanobind (the build) and Harmonica with its PyPI-only
# dependencies (the tests) pinned, installed without dependencies (Debian's
# packages provide them all). python/CMakeLists.txt builds with .venv's python.
[ -x .venv/bin/python ] || /usr/bin/python3 -m venv --system-site-packages .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -r python/requirements.txt

jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${cuda_options[@]}" >/dev/null
cmake --build build -j "$jobs"

# The module is used from the build folder: a path file in .venv names it.
.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))' | {
  read -r site
  echo "$PWD/build/python" > "$site/geobem-build.pth"
}
.venv/bin/python -c 'import geobem' || { echo "setup: the Python module does not import from .venv" >&2; exit 1; }
