#!/usr/bin/env bash
# attnc's two entry points on a fresh Debian 12 machine:
#   tools/bootstrap.sh run   install what is missing, build, compile and run examples/
#   tools/bootstrap.sh test  install what is missing, build, run every test,
#                            build and run examples/embedding against an
#                            install, and both fuzz targets for 60 s each (CI)
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
LLVM_PREFIX=/usr/lib/llvm-22
PACKAGES="llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools ninja-build cmake g++ clang-22 libclang-rt-22-dev python3-matplotlib nlohmann-json3-dev libcli11-dev libdlpack-dev python3-torch"

install_missing() {
  local missing=0
  [ -f "$LLVM_PREFIX/lib/cmake/mlir/MLIRConfig.cmake" ] || missing=1
  [ -x "$LLVM_PREFIX/bin/FileCheck" ] && [ -x "$LLVM_PREFIX/bin/lit" ] || missing=1
  command -v ninja >/dev/null && command -v cmake >/dev/null || missing=1
  command -v g++ >/dev/null || missing=1
  # Header-only libraries of the runtime and its tools.
  [ -f /usr/include/nlohmann/json.hpp ] || missing=1
  [ -f /usr/include/CLI/CLI.hpp ] || missing=1
  [ -f /usr/include/dlpack/dlpack.h ] || missing=1
  # libFuzzer (tools/fuzz.sh): clang and its runtime libraries.
  command -v clang++-22 >/dev/null || missing=1
  [ -f "$LLVM_PREFIX/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a" ] || missing=1
  # matplotlib for the Python that runs lit (test/Bench: bench/summarize.py's plot).
  /usr/bin/python3 -c "import matplotlib" 2>/dev/null || missing=1
  # PyTorch for python/tests (python_tests requires it: ATTNC_REQUIRE_TORCH=1).
  /usr/bin/python3 -c "import torch" 2>/dev/null || missing=1
  if [ "$missing" = 1 ]; then
    echo "== installing: $PACKAGES"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $PACKAGES
  fi
  if [ ! -f /usr/local/cuda/include/cuda.h ]; then
    echo "attnc needs the CUDA 13 toolkit at /usr/local/cuda (cuda.h, ptxas)." >&2
    exit 1
  fi
}

build() {
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" >/dev/null
  ninja -C "$BUILD_DIR"
}

run_examples() {
  # --backend=auto: sm_90a kernels through the runtime when a GPU is usable,
  # else the CPU reference backend; attnc-run prints which it used.
  local status=0
  for f in examples/*.mlir; do
    echo "== $f"
    "$BUILD_DIR/bin/attnc-run" --backend=auto \
      --stages=graph,split "$f" || status=1
  done
  return $status
}

embedding() {
  # attnc installed into an empty prefix; both consumers of examples/embedding
  # built against that prefix alone, run, and their PTX assembled for sm_90a.
  local prefix work status=0
  prefix=$(mktemp -d) work=$(mktemp -d)
  cmake --install "$BUILD_DIR" --prefix "$prefix" >/dev/null
  cmake -G Ninja -S examples/embedding -B "$work/build" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  ninja -C "$work/build"
  # The frontend graphs of examples/raise/ (linalg, TOSA): raised, then
  # compiled; each holds one function, whose name the kernel takes.
  local graph kernel
  for consumer in embed-cxx embed-c; do
    for graph in examples/raise/*.mlir; do
      echo "== examples/embedding: $consumer $graph"
      kernel=$(sed -n 's/^func.func @\([A-Za-z0-9_]*\).*/\1/p' "$graph" | head -1)
      "$work/build/$consumer" "$graph" "$work/$consumer" &&
        /usr/local/cuda/bin/ptxas -arch=sm_90a "$work/$consumer/$kernel/kernel.ptx" \
          -o "$work/$consumer/$kernel.cubin" || status=1
    done
  done
  rm -rf "$prefix" "$work"
  return $status
}

# The Python package's unit tests (python/tests), against this build's compiler,
# runtime and attnc-rt-check. Tests that need PyTorch would skip without it;
# ATTNC_REQUIRE_TORCH=1 makes that a failure (install_missing installs
# python3-torch). Debian's torch 1.13 lacks torch.library.custom_op and the
# torch.compile path: those run only in the GPU check (gpu_check_attnc.py).
python_tests() {
  echo "== python/tests"
  ATTNC_REQUIRE_TORCH=1 \
    ATTNC_COMPILER="$PWD/$BUILD_DIR/bin/attnc-compile" \
    ATTNC_RUNTIME_LIB="$PWD/$BUILD_DIR/lib/libAttncRuntime.so" \
    ATTNC_RT_CHECK="$PWD/$BUILD_DIR/bin/attnc-rt-check" \
    ATTNC_CACHE_DIR="$(mktemp -d)" \
    /usr/bin/python3 -m unittest discover -s python/tests -t python/tests
}

case "${1:-}" in
  run)
    install_missing
    build
    run_examples
    ;;
  test)
    install_missing
    build
    ninja -C "$BUILD_DIR" check-attnc
    embedding
    python_tests
    # Both fuzz targets for a bounded time; any crash, leak or timeout fails.
    bash tools/fuzz.sh "${FUZZ_SECONDS:-60}"
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac
