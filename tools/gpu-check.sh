#!/usr/bin/env bash
# On a CUDA machine: the engine's oracle tests and the lessons' tests with every module on
# the GPU, then the engine and training benchmarks on CUDA against the CPU in the same run
# (bench_training's quick form: what a device changes, in about a minute a device).
#   bash tools/gpu-check.sh [pytest options, e.g. -k "not pretrained"]
# Needs an NVIDIA GPU and a CUDA build of torch (the project pins 2.13.0; the version
# that ran is printed first).
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
python3 -c "import torch; assert torch.cuda.is_available(), 'no CUDA device'; \
print(torch.cuda.get_device_name(), 'torch', torch.__version__)"
status=0  # the benchmarks run even when a test fails; the script then fails at the end
ATTNVIZ_DEVICE=cuda python3 -m pytest -q -p no:cacheprovider "$@" \
    tests/test_attention.py tests/test_block.py tests/test_interop.py tests/test_pretrained.py \
    tests/test_stepthrough.py tests/test_qkspace.py tests/lessons || status=$?
for device in cuda cpu; do
    echo "== bench_engine, ATTNVIZ_DEVICE=$device"
    ATTNVIZ_DEVICE=$device python3 -m bench.bench_engine
    echo "== bench_training quick, ATTNVIZ_DEVICE=$device"
    ATTNVIZ_DEVICE=$device python3 -m bench.bench_training quick
done
exit "$status"
