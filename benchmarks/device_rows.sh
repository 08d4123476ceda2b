#!/usr/bin/env bash
# Issue 19's 16-core rows and the GPU figures, in one command, for a session lent the device
# machine (16 cores, one H100 or H200; Python 3.12 with numba, numba-cuda and numpy there).
#
#   run(command="bash benchmarks/device_rows.sh", carry=[".whl"], timeout_s=540)
#
# Its arguments go to every benchmark: `bash benchmarks/device_rows.sh --smoke` checks it here
# in a minute (the smallest sizes, the GPU part under numba's CUDA simulator).
#
# About 8 minutes: 14-queens pruned at 1 and 16 threads, 12-queens unpruned at 1 and 16 (its
# control), both on one thread alone and in 16 processes at once (bench_ceiling.py), the
# Fling 8-piece layer at 2 and 16, 13-queens unpruned at 2 and 16 (the layer's control), then
# bench_gpu.py (stopped after 5 minutes); each part's output goes to $OUT. The machine
# lacks lark, jsonschema, jsonschema-rs, pytmx and dask's stack, and its numpy (2.5) is one
# numba-cuda 0.30 cannot compile with: carry them, and numpy 2.4, as wheels in .whl
# (ignored by git), fetched here once with, for each NAME==VERSION:
#   pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#     --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
#     --platform manylinux2014_x86_64 -d .whl NAME==VERSION
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-$(mktemp -d)}" && mkdir -p "$OUT"
PYTHON="${PYTHON:-python3}"
export PYTHONUNBUFFERED=1
if ! "$PYTHON" -c 'import lark, jsonschema, jsonschema_rs, pytmx, distributed' 2>/dev/null; then
  "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/site
  # should the machine's numba refuse the carried numpy, its own numpy serves the CPU parts
  if ! "$PYTHON" -c 'import numba' 2>/dev/null; then
    echo "numba refuses the carried numpy; using the machine's own"
    rm -rf /tmp/site/numpy /tmp/site/numpy-*.dist-info /tmp/site/numpy.libs
  fi
fi
command -v nvidia-smi >/dev/null && nvidia-smi -L
"$PYTHON" -c 'import sys, numba, numpy; print(sys.version, numba.__version__, numpy.__version__)'
lscpu | grep -E "^(Model name|Thread|Core|Socket|CPU\(s\)|CPU max MHz|L3)" || nproc
# --smoke runs the 16-thread rows here too: numba refuses more threads than it starts
[[ " $* " == *" --smoke "* ]] && export NUMBA_NUM_THREADS=16
failed=0  # each part runs even when one before it failed; the exit status says if any did
"$PYTHON" benchmarks/bench_scaling.py --only queens-pruned --threads 1,16 --repeats 5 "$@" \
  2>&1 | tee "$OUT/queens-pruned.txt" || failed=1
# its control, at the same thread counts: 12-queens without pruning reads no memory, so the
# CPU seconds it gains from 1 to 16 threads are the machine's (its clock with every core busy)
ctl_n=12 && [[ " $* " == *" --smoke "* ]] && ctl_n=8
"$PYTHON" benchmarks/bench_scaling.py --only queens-scan --scan-n $ctl_n --threads 1,16 \
  --repeats 3 "$@" 2>&1 | tee "$OUT/queens-scan-1-16.txt" || failed=1
# the most any build can scale here: both settings on one thread, alone and 16 at once
"$PYTHON" benchmarks/bench_ceiling.py "$@" 2>&1 | tee "$OUT/ceiling.txt" || failed=1
"$PYTHON" benchmarks/bench_scaling.py --only fling-layer --threads 2,16 "$@" \
  2>&1 | tee "$OUT/fling.txt" || failed=1
# a control for the Fling row: as long and as compute-bound, with no memory traffic; if its
# CPU seconds grow from 2 to 16 threads as the layer's do, the machine slows each thread
scan_n=13 && [[ " $* " == *" --smoke "* ]] && scan_n=8
"$PYTHON" benchmarks/bench_scaling.py --only queens-scan --scan-n $scan_n --threads 2,16 \
  --repeats 1 "$@" 2>&1 | tee "$OUT/queens-scan-long.txt" || failed=1
timeout 300 "$PYTHON" benchmarks/bench_gpu.py "$@" 2>&1 | tee "$OUT/gpu.txt" || failed=1
exit $failed
