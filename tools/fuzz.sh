#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-22 (ASan + coverage) in build-fuzz/
# and runs each for SECONDS (default 60) on seeds from examples/, bench/ and
# the tests, with an MLIR token dictionary. Fails on any crash, abort, leak
# or timeout; the input that caused it is left in build-fuzz/findings/.
# -seed=1 fixes the mutation order; how far a run gets still depends on the
# machine's speed and on build-fuzz/corpus/, which grows across runs.
#   tools/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
FUZZ_DIR=${FUZZ_DIR:-build-fuzz}
LLVM_PREFIX=/usr/lib/llvm-22
cmake -G Ninja -S . -B "$FUZZ_DIR" -DCMAKE_BUILD_TYPE=Release -DATTNC_FUZZ=ON \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" >/dev/null
ninja -C "$FUZZ_DIR" attnc-fuzz-manifest attnc-fuzz-pipeline

seeds="$FUZZ_DIR/seeds"
rm -rf "$seeds" && mkdir -p "$seeds/manifest" "$seeds/pipeline" "$FUZZ_DIR/findings"
i=0
for f in test/Runtime/Inputs/*.json test/Runtime/Inputs/artifact/manifest.json; do
  cp "$f" "$seeds/manifest/seed$((i++)).json"
done
# Graph-level inputs, one function per seed file (split at "// -----").
for f in examples/*.mlir bench/kernels.mlir bench/head-dims.mlir test/Dialect/Attn/*.mlir \
         test/Transforms/*.mlir test/Conversion/*.mlir test/Target/Inputs/*.mlir; do
  awk -v dir="$seeds/pipeline" -v base="$(echo "${f%.mlir}" | tr / _)" \
    'BEGIN{n=0} /^\/\/ -----/{n++; next} {print > (dir "/" base "-" n ".mlir")}' "$f"
done

# allow_user_poisoning=0: LLVM's allocators poison memory from inlined header
# code when the includer is built with ASan, but libLLVM/libMLIR (Debian's,
# uninstrumented) share those slabs; their reads would be false reports.
export ASAN_OPTIONS=detect_leaks=1:allow_user_poisoning=0
run() {
  local target=$1 corpus=$2; shift 2
  local log="$FUZZ_DIR/$corpus.log" rc=0
  mkdir -p "$FUZZ_DIR/corpus/$corpus"
  echo "== $target: ${SECONDS_EACH}s"
  "$FUZZ_DIR/bin/$target" -max_total_time="$SECONDS_EACH" -timeout=20 -seed=1 \
    -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$FUZZ_DIR/findings/$corpus-" "$@" \
    "$FUZZ_DIR/corpus/$corpus" "$seeds/$corpus" > "$log" 2>&1 || rc=$?
  grep -E "^(#[0-9]+ +DONE|stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|INFO: seed corpus)|ERROR|SUMMARY|Test unit written" "$log" || true
  if [ $rc != 0 ]; then
    echo "$target failed (exit $rc); the input is in $FUZZ_DIR/findings/, the log in $log"
    tail -40 "$log"
  fi
  return $rc
}
status=0
run attnc-fuzz-manifest manifest -max_len=65536 || status=1
run attnc-fuzz-pipeline pipeline -max_len=16384 -dict=tools/attnc-fuzz/mlir.dict || status=1
exit $status
