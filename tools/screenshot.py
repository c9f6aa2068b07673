"""Take full-page screenshots of app URLs with Debian's Chromium (for looking, not testing).

python tools/screenshot.py http://127.0.0.1:8501/multihead?lang=ja out.png [width]
"""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

url, out = sys.argv[1], sys.argv[2]
width = int(sys.argv[3]) if len(sys.argv) > 3 else 1400
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    page = browser.new_page(viewport={"width": width, "height": 1000})
    page.goto(url)
    page.wait_for_timeout(1500)
    page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]", timeout=90_000)
    page.wait_for_timeout(2500)
    page.screenshot(path=out, full_page=True)
    browser.close()
