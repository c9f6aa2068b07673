"""A page of the app as a PNG, taken in Debian's Chromium: the README's picture, or any page
to look at.

    python3 tools/screenshot.py                    # docs/screenshot.png: /multihead in Japanese
    python3 tools/screenshot.py --page scoring --lang en --out /tmp/scoring.png --full
    python3 tools/screenshot.py --url http://127.0.0.1:8501/tour --out /tmp/tour.png

Without ``--url`` it starts a server of this checkout on a free loopback port and stops it
after. The picture is the window as a reader first sees it (``--full``: the whole page),
reduced to a palette of ``--colours`` colours and saved optimised: a 1280 × 960 view of a
page's maps and formulas stays under the 300 KB that the README's picture may weigh.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.browser.conftest import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    charts_drawn,
    open_app,
    start_server,
)

# the components' pictures drawn after the run: every image of the page, in the components'
# shadow roots too, loaded; each map's token labels fitted (ui/heatmap.js); the fonts loaded
PICTURES_DRAWN = """() => { const roots = [document], all = (sel) => roots.flatMap((r) =>
    [...r.querySelectorAll(sel)]);
  for (let k = 0; k < roots.length; k++)
    for (const e of roots[k].querySelectorAll('*')) if (e.shadowRoot) roots.push(e.shadowRoot);
  return document.fonts.status === 'loaded'
    && all('img').every((img) => img.complete && img.naturalWidth > 0)
    && all('.heatmap .row-labels, .heatmap .col-labels').every((l) => l.style.fontSize); }"""


def shoot(url: str, size: tuple[int, int], full: bool) -> Image.Image:
    """The page at ``url`` once its script has run and its pictures have been drawn."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        open_app(page, url, chart_timeout=120_000)
        charts_drawn(page)  # Plotly's charts and the components draw after the run ends
        page.wait_for_function(PICTURES_DRAWN, timeout=30_000)
        png = page.screenshot(full_page=full)
        browser.close()
    return Image.open(io.BytesIO(png))


def optimise(image: Image.Image, colours: int) -> Image.Image:
    """The image on a palette of ``colours`` (median cut, no dithering: flat areas stay flat
    and compress, a colour scale keeps its steps)."""
    return image.convert("RGB").quantize(
        colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", default="multihead", help="url path of the page")
    parser.add_argument("--lang", default="ja", choices=("ja", "en"))
    parser.add_argument("--url", help="a page of a running server, instead of starting one")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    parser.add_argument("--size", type=int, nargs=2, default=(1280, 960), metavar=("W", "H"))
    parser.add_argument("--full", action="store_true", help="the whole page, not the window")
    parser.add_argument("--colours", type=int, default=256)
    args = parser.parse_args()

    server = None
    url = args.url
    if url is None:
        server, base = start_server()
        url = f"{base}/{args.page}?lang={args.lang}"
    try:
        image = optimise(shoot(url, tuple(args.size), args.full), args.colours)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    image.save(args.out, optimize=True)
    print(f"{args.out}: {image.width} × {image.height}, {args.out.stat().st_size / 1e3:.0f} kB")


if __name__ == "__main__":
    main()
