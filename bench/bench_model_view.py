"""Our 6 × 12 model view vs BertViz's head_view on the same real attention tensors.

For N = 64 and N = 256 tokens of all-MiniLM-L6-v2 (run by attnviz), both tools build their
view of all 6 layers × 12 heads; we print the time to produce it, its payload (the JSON the
app sends to its mosaic component; BertViz's HTML), and the time until headless Chromium
has drawn it (median of 3), twice:

- *warm*: the tool's code is already loaded in the page (as in a running app, or a
  notebook after its first chart); the clock runs from handing the payload to the page
  until the view is painted (our image decoded; BertViz's lines all in the DOM). This is
  what a user waits for on each new sentence, and the figure the target (ours ≥ 20×
  better) is judged on.
- *cold*: a fresh page that also loads the code (ours: the component's 3 kB of JS and
  CSS, ui/mosaic.*, mounted in a shadow root as Streamlit mounts it; BertViz: require.js,
  d3 and jQuery, 0.4 MB): a first visit. Timed inside the page from navigation start;
  the first paint of an empty page is printed as the floor no tool can go below.

    pip install -r bench/requirements.txt && python3 -m bench.bench_model_view [N ...]

BertViz's CDN libraries are served from npm packages (bench/bertviz_ref.py). Neither
payload counts its library. Pages come from a loopback HTTP server, so even BertViz's
216 MB payload reaches the page as a plain download.
"""

from __future__ import annotations

import contextlib
import functools
import json
import statistics
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import torch
from playwright.sync_api import sync_playwright

import attnviz
from attnviz.charts import mosaic
from bench import bertviz_ref
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from ui import mosaic as mosaic_ui

MOSAIC_JS = (Path(mosaic_ui.__file__).parent / "mosaic.js").read_text(encoding="utf-8")
MOSAIC_CSS = (Path(mosaic_ui.__file__).parent / "mosaic.css").read_text(encoding="utf-8")
# The app's own component code, mounted as Streamlit mounts it: in a shadow root that
# holds the component's style.
OUR_LIBS = f"""<div id="g"></div><script type="module">
const js = new Blob([{json.dumps(MOSAIC_JS)}], {{type: "text/javascript"}});
window.render = (await import(URL.createObjectURL(js))).default;
const root = document.getElementById("g").attachShadow({{mode: "open"}});
root.innerHTML = "<style>" + {json.dumps(MOSAIC_CSS)} + "</style>";
window.libsReady = true;
</script>"""
OUR_DRAW = """(payload) => {
  const root = document.getElementById("g").shadowRoot;
  window.render({data: JSON.parse(payload), parentElement: root, setTriggerValue: () => {}});
  return root.querySelector("img").decode().then(() => { window.drawn = true; });
}"""
# Cold: runs in the page before its own scripts; once ``ready`` holds and a frame has
# been painted, note the time since navigation started (the page's time origin).
COLD = """(ready) => {
  const tick = () => eval(ready)
    ? requestAnimationFrame(() => setTimeout(() => { window.drawnAt = performance.now(); }))
    : requestAnimationFrame(tick);
  requestAnimationFrame(tick);
}"""
# Warm: in a page whose libraries are loaded, fetch the payload (not timed), then time
# draw(payload) until ready() holds and a frame has been painted.
WARM = """async ([draw, ready]) => {
  const payload = await (await fetch("payload")).text();
  const t0 = performance.now();
  await eval(draw)(payload);
  while (!eval(ready)) await new Promise(r => requestAnimationFrame(r));
  await new Promise(r => requestAnimationFrame(() => setTimeout(r)));
  return (performance.now() - t0) / 1e3;
}"""


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
    """What the app sends for its model view: the mosaic PNG and its labels, as JSON."""
    t0 = time.perf_counter()
    L, H = A.shape[:2]
    m = mosaic(A.numpy())
    payload = mosaic_ui.data(
        m,
        m.png(),
        row_labels=[f"L{a}" for a in range(L)],
        col_labels=[f"H{b}" for b in range(H)],
        names=[f"Layer {a}, head {b}" for a in range(L) for b in range(H)],
        selected=(0, 0),
        alt="all heads",
    )
    return time.perf_counter() - t0, json.dumps(payload)


def our_page(payload: str) -> str:
    """A first visit to our view: the component's code and the payload in one page."""
    return (
        f"{OUR_LIBS}<script type=module>"
        "await new Promise(r => { const w = () => window.libsReady ? r() : setTimeout(w); w(); });"
        f"({OUR_DRAW})({json.dumps(payload)});</script>"
    )


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def served(browser, page_html: str, libs: dict[str, bytes], payload: str = ""):
    """A fresh page for ``page_html`` (and ``payload``) on a loopback HTTP server, with the
    CDN ``libs`` answered locally; yields the page and its URL, not yet opened."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "page.html").write_text(f"<html><body>{page_html}</body></html>")
        (Path(tmp) / "payload").write_text(payload)
        handler = functools.partial(QuietHandler, directory=tmp)
        with ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
            threading.Thread(target=httpd.serve_forever, daemon=True).start()
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            for name, body in libs.items():
                page.route(
                    f"**/{name}",
                    lambda route, _request, body=body: route.fulfill(
                        body=body, content_type="application/javascript"
                    ),
                )
            try:
                yield page, f"http://127.0.0.1:{httpd.server_port}/page.html"
            finally:
                page.close()
                httpd.shutdown()


def cold_seconds(browser, html: str, ready: str, libs: dict[str, bytes]) -> float:
    """Seconds from navigation start to ``ready`` and a painted frame, timed in the page."""
    with served(browser, html, libs) as (page, url):
        page.add_init_script(f"({COLD})({json.dumps(ready)})")
        page.goto(url, timeout=600_000, wait_until="commit")
        page.wait_for_function("window.drawnAt !== undefined", timeout=600_000, polling=100)
        return page.evaluate("window.drawnAt") / 1e3


def warm_seconds(browser, libs_html: str, payload: str, draw: str, ready: str, libs) -> float:
    """Seconds to draw ``payload`` in a page whose libraries are already loaded."""
    with served(browser, libs_html, libs, payload) as (page, url):
        page.goto(url, timeout=600_000)
        page.wait_for_function("window.libsReady === true", timeout=600_000)
        return page.evaluate(WARM, [draw, ready])


def median(measure, *args, runs: int = 3) -> float:
    return statistics.median(measure(*args) for _ in range(runs))


def main(sizes: list[int]) -> None:
    libs = bertviz_ref.cdn_files()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        cold_seconds(browser, our_page(ours(attentions(8)[0])[1]), "window.drawn", {})  # warm-up
        floor = median(cold_seconds, browser, "-", "true", {})
        print(f"cold floor (an empty page's first paint): {floor:.3f} s")
        print(
            f"{'N':>4} {'tool':>8} {'produce s':>10} {'payload MB':>11} "
            f"{'drawn warm s':>13} {'drawn cold s':>13}"
        )
        for N in sizes:
            A, tokens = attentions(N)
            t_ours, doc = ours(A)
            t_bv, html = bertviz_ref.head_view(A, tokens)
            bv_libs, bv_ready = bertviz_ref.libs_page(html), bertviz_ref.ready(N)
            w_ours = median(warm_seconds, browser, OUR_LIBS, doc, OUR_DRAW, "window.drawn", {})
            c_ours = median(cold_seconds, browser, our_page(doc), "window.drawn", {})
            w_bv = median(warm_seconds, browser, bv_libs, html, bertviz_ref.DRAW, bv_ready, libs)
            c_bv = median(cold_seconds, browser, html, bv_ready, libs)
            for tool, t, size, w, c in (
                ("attnviz", t_ours, len(doc), w_ours, c_ours),
                ("bertviz", t_bv, len(html), w_bv, c_bv),
            ):
                print(f"{N:>4} {tool:>8} {t:>10.3f} {size / 1e6:>11.3f} {w:>13.3f} {c:>13.2f}")
            print(
                f"{N:>4} {'ratio':>8} {t_bv / t_ours:>9.1f}× {len(html) / len(doc):>10.1f}× "
                f"{w_bv / w_ours:>12.1f}× {c_bv / c_ours:>12.1f}×"
                "   (BertViz / attnviz: higher = ours better)"
            )
        browser.close()


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [64, 256])
