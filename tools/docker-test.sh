#!/usr/bin/env bash
# Build the attnviz Docker image on a machine that reaches no image registry:
#   1. install and start the Docker engine if absent (docker.io, dockerd);
#   2. build (or reuse) the local bookworm base image: tools/docker-base-image.sh;
#   3. put this machine's torch CPU wheel into wheels/ (git-ignored), if pip knows one;
#   4. docker build --network host --build-arg BASE_IMAGE=... ; report build time + size.
#
#   tools/docker-test.sh [IMAGE_TAG]        (default attnviz:test)
#
# tests/docker/ runs this, then runs the container and checks it (pytest -m docker).
# Figures go to stdout and to artifacts/docker-report.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
TAG="${1:-attnviz:test}"
BASE="${ATTNVIZ_BASE_IMAGE:-attnviz-base:bookworm}"
mkdir -p artifacts

# 1. Engine.
if ! command -v dockerd >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
fi
if ! docker info >/dev/null 2>&1; then
    nohup dockerd >artifacts/dockerd.log 2>&1 &
    for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
    docker info >/dev/null 2>&1 || { tail -20 artifacts/dockerd.log; exit 1; }
fi

# 2. Base image (cached: skipped when it exists).
t0=$(date +%s)
bash tools/docker-base-image.sh "$BASE"
t_base=$(( $(date +%s) - t0 ))

# 3. The torch wheel from pip's local find-links folders (this machine's CPU build).
pin=$(sed -n 's/^torch==\([^ ;#]*\).*/\1/p' requirements.txt)
mkdir -p wheels
if ! compgen -G "wheels/torch-${pin}*.whl" >/dev/null; then
    dirs=$(python3 -m pip config list 2>/dev/null | sed -n "s/.*find-links='\(.*\)'/\1/p")
    for d in $dirs ${PIP_FIND_LINKS:-} /opt/wheels; do
        d="${d#file://}"
        w=$(compgen -G "$d/torch-${pin}+cpu-cp311-*.whl" | head -1 || true)
        if [[ -n "$w" ]]; then
            ln -f "$w" wheels/ 2>/dev/null || cp "$w" wheels/
            echo "torch wheel: $w"
            break
        fi
    done
fi

# 4. The app image.
t0=$(date +%s)
DOCKER_BUILDKIT=0 docker build --network host --build-arg BASE_IMAGE="$BASE" -t "$TAG" . \
    >artifacts/docker-build.log 2>&1 || { tail -40 artifacts/docker-build.log; exit 1; }
t_build=$(( $(date +%s) - t0 ))
size=$(docker image inspect -f '{{.Size}}' "$TAG" | awk '{printf "%.0f", $1/1e6}')
report="docker: base image ${t_base} s (0 when cached), app image build ${t_build} s, image ${size} MB"
echo "$report" | tee artifacts/docker-report.txt
