#!/usr/bin/env bash
# Build a local Docker base image for attnviz when no image registry is reachable:
# debootstrap Debian bookworm (python3 3.11, venv, pip), add this machine's CA bundle so
# pip inside `docker build` reaches the package index, and `docker import` the tree.
#
#   tools/docker-base-image.sh [TAG]      (default attnviz-base:bookworm)
#
# Cached: does nothing when the image already exists (ATTNVIZ_REBUILD_BASE=1 forces it).
# The apt mirror is the first one this machine's own apt sources use.
set -euo pipefail
TAG="${1:-attnviz-base:bookworm}"
if [[ "${ATTNVIZ_REBUILD_BASE:-0}" != 1 ]] && docker image inspect "$TAG" >/dev/null 2>&1; then
    echo "base image $TAG exists: skipping debootstrap"
    exit 0
fi
mirror_of_host() {
    local m=""
    if compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null; then
        m=$(awk '/^URIs:/ && $2 ~ /\/debian\/?$/ {print $2; exit}' /etc/apt/sources.list.d/*.sources)
    fi
    if [[ -z "$m" && -f /etc/apt/sources.list ]]; then
        m=$(awk '/^deb / && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list)
    fi
    echo "${m:-http://deb.debian.org/debian}"
}
MIRROR="${ATTNVIZ_APT_MIRROR:-$(mirror_of_host)}"
CA="${ATTNVIZ_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
if ! command -v debootstrap >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
ROOTFS=$(mktemp -d /tmp/attnviz-rootfs.XXXXXX)
trap 'rm -rf "$ROOTFS"' EXIT
start=$(date +%s)
echo "debootstrap bookworm from $MIRROR into $ROOTFS"
debootstrap --variant=minbase --include=python3,python3-venv,python3-pip,ca-certificates \
    bookworm "$ROOTFS" "$MIRROR" >"$ROOTFS.log" 2>&1 || { tail -30 "$ROOTFS.log"; exit 1; }
rm -f "$ROOTFS.log"
# This machine's CA bundle (it may hold a proxy's root): pip, requests and OpenSSL read it.
install -m 0644 "$CA" "$ROOTFS/etc/ssl/certs/ca-certificates.crt"
# Slim the tree: package caches, docs, man pages, locales.
rm -rf "$ROOTFS"/var/cache/apt/archives/*.deb "$ROOTFS"/var/lib/apt/lists/* \
    "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/locale/*
tar -C "$ROOTFS" -c . | docker import \
    --change 'ENV LANG=C.UTF-8' \
    --change 'ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt' \
    --change 'ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt' \
    --change 'ENV REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt' \
    --change 'CMD ["python3"]' \
    - "$TAG" >/dev/null
echo "base image $TAG built in $(( $(date +%s) - start )) s:" \
    "$(docker image inspect -f '{{.Size}}' "$TAG" | awk '{printf "%.0f MB", $1/1e6}')"
