#!/usr/bin/env bash
# On a CUDA machine: the engine's oracle tests and the lessons' tests with every module on
# the GPU, then the engine and training benchmarks on CUDA against the CPU in the same run.
#   bash tools/gpu-check.sh        (needs a CUDA build of torch==2.13.0 and an NVIDIA GPU)
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import torch; assert torch.cuda.is_available(), 'no CUDA device'; print(torch.cuda.get_device_name())"
ATTNVIZ_DEVICE=cuda python3 -m pytest -q -p no:cacheprovider \
    tests/test_attention.py tests/test_block.py tests/test_interop.py tests/test_pretrained.py \
    tests/test_stepthrough.py tests/test_qkspace.py tests/lessons
for device in cuda cpu; do
    echo "== bench_engine, ATTNVIZ_DEVICE=$device"
    ATTNVIZ_DEVICE=$device python3 -m bench.bench_engine
    echo "== bench_training, ATTNVIZ_DEVICE=$device"
    ATTNVIZ_DEVICE=$device python3 -m bench.bench_training
done
