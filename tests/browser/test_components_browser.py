"""The app's own components (ui/*.js, as ui.components.component builds them) in a bare page.

Streamlit calls a component's function after awaiting its module and does not drop the call
of a render that a newer one replaced: once in about 15 language switches on a loaded
machine, the switch's call came first and the last run's after it, and the share box and
<html lang> went back to Japanese. Here the calls come in that order on purpose: what is
drawn must be the newest data, whatever order the calls come in.
"""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.charts import mosaic as tiles_of
from attnviz.charts.cells import cell_map
from attnviz.charts.raster import png_bytes
from ui import components, mosaic

# the component's function called in a page of its own: a host under a shadow root, as
# Streamlit gives it (isolated styles), and the calls in the order given
CALL = """async ([code, calls]) => {
  const url = URL.createObjectURL(new Blob([code], {type: "text/javascript"}));
  const draw = (await import(url)).default;
  let host = document.querySelector("#host");
  if (!host) {
    host = document.createElement("div");
    host.id = "host";
    host.attachShadow({mode: "open"});
    document.body.append(host);
  }
  for (const data of calls) draw({data, parentElement: host.shadowRoot, setTriggerValue() {}});
  return [document.documentElement.lang, host.shadowRoot.textContent];
}"""


def draw(page, stem: str, *calls: tuple[dict, list]) -> tuple[str, str]:
    """Call component ``stem`` with each (data, order) in turn: (<html lang>, its text)."""
    page.set_content("<html lang='und'><body></body></html>")
    code = components.component_js(stem)
    return tuple(page.evaluate(CALL, [code, [d | {"order": o} for d, o in calls]]))


def share(lang: str) -> dict:
    words = {"ja": ("このビューのリンク", "コピー"), "en": ("Link to this view", "Copy")}
    label, copy = words[lang]
    return {"url": f"?lang={lang}", "lang": lang, "label": label, "copy": copy, "copied": "✓"}


def heatmap(tokens: list[str]) -> dict:
    z = np.random.default_rng(0).random((len(tokens), len(tokens)))
    return cell_map(z, tokens, tokens)


def grid(title: str) -> dict:
    m = tiles_of(np.full((1, 2, 4, 4), 0.25))
    return mosaic.data(
        m,
        png_bytes(m.rgb),
        row_labels=[],
        col_labels=[],
        names=["a", "b"],
        tile_labels=[f"{title} 1", f"{title} 2"],
        selected=None,
        alt=title,
    )


@pytest.mark.browser
def test_the_share_box_and_the_page_s_language_keep_the_newest_run(page):
    ja, en = share("ja"), share("en")
    in_ja, in_en = ("ja", "このビューのリンクコピー"), ("en", "Link to this viewCopy")
    assert draw(page, "share", (ja, ["s", 1])) == in_ja
    # the switch to English (2) called before the Japanese run it replaced (1)
    assert draw(page, "share", (en, ["s", 2]), (ja, ["s", 1])) == in_en
    assert draw(page, "share", (ja, ["s", 1]), (en, ["s", 2])) == in_en
    # a reconnect is another session: its first data is drawn, whatever its number
    assert draw(page, "share", (en, ["s", 9]), (ja, ["t", 1])) == in_ja


@pytest.mark.browser
def test_the_enlarged_map_keeps_the_newest_run(page):
    old, new = heatmap(["old", "map"]), heatmap(["new", "map", "here"])
    text = draw(page, "heatmap", (new, ["s", 2]), (old, ["s", 1]))[1]
    assert "new" in text and "here" in text and "old" not in text
    assert "old" in draw(page, "heatmap", (new, ["s", 2]), (old, ["s", 3]))[1]


@pytest.mark.browser
def test_the_grid_of_heads_keeps_the_newest_run(page):
    text = draw(page, "mosaic", (grid("new"), ["s", 2]), (grid("old"), ["s", 1]))[1]
    assert "new 1" in text and "old" not in text
    assert "old 1" in draw(page, "mosaic", (grid("new"), ["s", 2]), (grid("old"), ["s", 3]))[1]
