"""Our 6 × 12 model view vs BertViz's head_view on the same real attention tensors.

For N = 64 and N = 256 tokens of all-MiniLM-L6-v2 (run by attnviz), both tools build their
view of all 6 layers × 12 heads; we print the time to produce it, its payload (our Plotly
JSON; BertViz's HTML), and the time until headless Chromium has drawn it, then ratios.

    pip install -r bench/requirements.txt && python3 -m bench.bench_model_view [N ...]

BertViz loads require.js, d3 and jQuery from public CDNs, which this machine cannot reach:
the bench serves those URLs from npm packages (``npm pack``, cached in ~/.cache/attnviz-bench).
Plotly.js is served from the plotly package. Library loading is inside both drawing times;
neither payload counts its library.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import plotly
import torch
from playwright.sync_api import sync_playwright

import attnviz
from attnviz.charts import model_grid
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

CACHE = Path.home() / ".cache" / "attnviz-bench"
NPM = {  # CDN file name (as BertViz asks for it) → (npm package, file inside the tarball)
    "require.min.js": ("requirejs@2.3.6", "package/require.js"),
    "d3.min.js": ("d3@5.7.0", "package/dist/d3.min.js"),
    "jquery.min.js": ("jquery@2.2.4", "package/dist/jquery.min.js"),
}
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def cdn_files() -> dict[str, bytes]:
    CACHE.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, (pkg, member) in NPM.items():
        target = CACHE / name
        if not target.exists():
            tgz = (
                subprocess.run(
                    ["npm", "pack", pkg, "--silent"],
                    cwd=CACHE,
                    check=True,
                    capture_output=True,
                    text=True,
                )
                .stdout.strip()
                .splitlines()[-1]
            )
            with tarfile.open(CACHE / tgz) as tar:
                target.write_bytes(tar.extractfile(member).read())
        out[name] = target.read_bytes()
    return out


def attentions(N: int) -> tuple[torch.Tensor, list[str]]:
    """(6, 12, N, N) weights of the real model on N tokens of ordinary English text."""
    model = attnviz.load_pretrained()
    words = (
        "the model reads every token and mixes what it finds; attention decides how much "
        "of each neighbour flows into each position, layer after layer. "
    ) * 40
    tokens, ids, _ = model.tokenize(words, truncate=True)
    ids, tokens = ids[: N - 1] + ids[-1:], tokens[: N - 1] + tokens[-1:]
    _, traces = model(torch.tensor(ids))
    return torch.stack([t.attn.weights[0] for t in traces]), tokens


def ours(A: torch.Tensor) -> tuple[float, str]:
    t0 = time.perf_counter()
    doc = model_grid(A.numpy()).to_json()
    return time.perf_counter() - t0, doc


def bertviz(A: torch.Tensor, tokens: list[str]) -> tuple[float, str]:
    from bertviz import head_view

    t0 = time.perf_counter()
    html = head_view([a[None] for a in A], tokens, html_action="return").data
    return time.perf_counter() - t0, html


def drawn_seconds(browser, html: str, ready_js: str, libs: dict[str, bytes]) -> float:
    """Seconds from navigation to ``ready_js`` being true, in a fresh page."""
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as f:
        f.write(html)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    for name, body in libs.items():
        page.route(
            f"**/{name}",
            lambda route, _request, body=body: route.fulfill(
                body=body, content_type="application/javascript"
            ),
        )
    t0 = time.perf_counter()
    page.goto(Path(f.name).as_uri(), timeout=600_000, wait_until="commit")
    page.wait_for_function(ready_js, timeout=600_000, polling=50)
    page.evaluate("new Promise(r => requestAnimationFrame(() => setTimeout(r)))")  # painted
    seconds = time.perf_counter() - t0
    page.close()
    Path(f.name).unlink()
    return seconds


def our_page(doc: str) -> str:
    return (
        f'<html><body><script src="{PLOTLY_JS.as_uri()}"></script><div id="g"></div>'
        f'<script>Plotly.newPlot("g", {doc}).then(() => {{window.drawn = true;}});</script>'
        "</body></html>"
    )


def main(sizes: list[int]) -> None:
    libs = cdn_files()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        drawn_seconds(browser, our_page(ours(attentions(8)[0])[1]), "window.drawn", {})  # warm
        print(f"{'N':>4} {'tool':>8} {'produce s':>10} {'payload MB':>11} {'drawn s':>8}")
        for N in sizes:
            A, tokens = attentions(N)
            t_ours, doc = ours(A)
            d_ours = drawn_seconds(browser, our_page(doc), "window.drawn === true", {})
            t_bv, html = bertviz(A, tokens)
            d_bv = drawn_seconds(
                browser, html, f"document.querySelectorAll('#vis line').length >= {N * N}", libs
            )
            for tool, t, size, d in (
                ("attnviz", t_ours, len(doc), d_ours),
                ("bertviz", t_bv, len(html), d_bv),
            ):
                print(f"{N:>4} {tool:>8} {t:>10.3f} {size / 1e6:>11.3f} {d:>8.2f}")
            print(
                f"{N:>4} {'ratio':>8} {t_bv / t_ours:>9.1f}× {len(html) / len(doc):>10.1f}× "
                f"{d_bv / d_ours:>7.1f}×   (BertViz / attnviz: higher = ours better)"
            )
        browser.close()


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [64, 256])
