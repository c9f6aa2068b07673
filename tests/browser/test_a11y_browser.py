"""Accessibility in a real browser: axe-core on every page in both languages, presentation
mode off and on (no serious or critical violation), the charts' text and the captions'
contrast, ``<html lang>``; the components' keyboard use (the mosaic's tiles, the map's cells,
the steps' PNG and CSV buttons), focus apart from selection, and their text alternatives in
the reader's language.

axe-core comes from npm, pinned in tests/browser/package.json and installed beside it by
tools/install-test-deps.sh (``npm ci``)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from attnviz.i18n import t
from attnviz.lessons import multihead
from attnviz.text import token_labels
from ui.navigation import SCRIPTS

from .conftest import ROOT, charts_drawn, open_app, slider, wait_idle

pytestmark = pytest.mark.browser

AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
PAGES = list(SCRIPTS)
VIEWS = [(lang, present) for lang in ("ja", "en") for present in ("false", "true")]
TEXT = "the cat sat on the mat because the mat was warm"  # N = 11 tokens
PICKED = "rgb(224, 32, 32)"  # the outline of a picked tile or cell (ui/mosaic.css, heatmap.css)

# The sidebar's page list is Streamlit's own markup (st.navigation): its <ul> holds the
# groups' headers as <header> beside the <li>s, which axe reports as `list` and `listitem`.
# Nothing of the app's is inside it.
EXCLUDE = ["[data-testid=stSidebarNav]"]

# axe's default rules (WCAG 2.0–2.2 A and AA, and its best practices) on the whole page,
# Streamlit's navigation left out; each violation as its rule, impact and elements.
RUN_AXE = """async (exclude) => {
  const result = await axe.run(
    { exclude: exclude.map((s) => [s]) },
    { resultTypes: ["violations"] },
  );
  return result.violations.map((v) => ({
    rule: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.flat().join(" >> "),
      summary: n.failureSummary.split("\\n").slice(1).join(" ").slice(0, 160) })),
  }));
}"""

# The contrast of the page's first caption against what is behind it, by axe's own colour
# functions (the colour with its opacity, composed over the background).
CAPTION_CONTRAST = """() => {
  const caption = document.querySelector("[data-testid=stCaptionContainer]");
  if (!caption) return null;
  const text = caption.querySelector("p") || caption;
  text.scrollIntoView({ block: "center" }); // axe finds the background at the text's place
  axe.setup();
  try {
    const fg = axe.commons.color.getForegroundColor(text);
    const bg = axe.commons.color.getBackgroundColor(text);
    if (!fg || !bg) return null;
    const ratio = axe.commons.color.getContrast(bg, fg);
    return { fg: fg.toHexString(), bg: bg.toHexString(), ratio };
  } finally {
    axe.teardown();
  }
}"""

# The text of the SVG charts (Plotly's and ui/bars.js'; axe reads no SVG text) under 4.5:1
# against the chart's ground, white (3:1 for large text: 24 px, or 18.66 px bold); each as
# [text, fill, ratio].
CHART_TEXT = """() => {
  // the fill with its opacity composed over white, as the browser paints it; its luminance
  const lum = ([r, g, b], alpha) => { const [R, G, B] = [r, g, b]
    .map((v) => (alpha * v + (1 - alpha) * 255) / 255)
    .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * R + 0.7152 * G + 0.0722 * B; };
  const roots = [document, ...[...document.querySelectorAll("*")].filter((e) => e.shadowRoot)
    .map((e) => e.shadowRoot)];
  const texts = roots.flatMap((r) => [...r.querySelectorAll(".js-plotly-plot text, .bars text")]);
  const seen = (n) => n.textContent.trim() && n.getBoundingClientRect().width > 0
    && getComputedStyle(n).fill.startsWith("rgb"); // not "none"
  return texts.filter(seen)
    .map((n) => { const s = getComputedStyle(n);
      const rgba = s.fill.match(/[\\d.]+/g).map(Number);
      const alpha = (rgba[3] ?? 1) * Number(s.fillOpacity) * Number(s.opacity);
      const size = parseFloat(s.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
      const ratio = 1.05 / (lum(rgba, alpha) + 0.05);
      return [n.textContent.slice(0, 40), s.fill, ratio, large ? 3 : 4.5]; })
    .filter(([, , ratio, least]) => ratio < least);
}"""

# The element that has the keyboard's focus, through the components' shadow roots.
FOCUSED = """() => { let a = document.activeElement;
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement; return a; }"""


def settle(page) -> None:
    """Wait until the page's run has finished and its components have drawn: the Plotly
    charts and the components' pictures stop changing."""
    wait_idle(page)
    charts_drawn(page)
    pictures = """() => [...document.querySelectorAll('*')].filter((e) => e.shadowRoot)
        .every((e) => [...e.shadowRoot.querySelectorAll('img')].every((i) => i.complete))"""
    page.wait_for_function(pictures, timeout=20_000)


def axe_violations(page) -> list[dict]:
    """axe-core's violations on the page as it is now."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        assert AXE.exists(), "axe-core is not installed: run tools/install-test-deps.sh"
        page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN_AXE, EXCLUDE)


def describe(where: str, violations: list[dict]) -> list[str]:
    """One line per element of each violation: the view, the rule, its impact, the element."""
    return [
        f"{where}: {v['rule']} ({v['impact']}) at {n['target']}: {n['summary']}"
        for v in violations
        for n in v["nodes"]
    ]


@pytest.fixture(scope="module")
def axe_page(browser):
    """One page for the whole sweep, reused from view to view."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    page = ctx.new_page()
    yield page
    ctx.close()


@pytest.mark.parametrize(("lang", "present"), VIEWS)
def test_axe_finds_no_serious_violation_on_any_page(server, axe_page, lang, present):
    """axe-core on every page (home and tour included), in one language and mode: no
    serious or critical violation; ``<html lang>`` is the page's language."""
    failures = []
    for path in PAGES:
        where = f"/{path}?lang={lang}&present={present}"
        open_app(axe_page, f"{server}{where}")
        settle(axe_page)
        # the share link's component sets the page's language once it has drawn
        axe_page.wait_for_function(f"document.documentElement.lang === '{lang}'", timeout=10_000)
        bad = [v for v in axe_violations(axe_page) if v["impact"] in ("serious", "critical")]
        failures += describe(where, bad)
        failures += [f"{where}: chart text {x!r}" for x in axe_page.evaluate(CHART_TEXT)]
        caption = axe_page.evaluate(CAPTION_CONTRAST)
        if caption and caption["ratio"] < 4.5:
            failures.append(f"{where}: caption {caption}")
    assert not failures, "\n".join(failures)


def test_presentation_mode_keeps_at_least_the_desk_s_contrast(axe_page, server):
    """A projector in a lit room loses contrast: captions are darker when presenting."""
    ratios = {}
    for present in ("false", "true"):
        open_app(axe_page, f"{server}/scoring?lang=ja&present={present}")
        axe_violations(axe_page)  # puts axe into the page
        ratios[present] = axe_page.evaluate(CAPTION_CONTRAST)["ratio"]
    assert 4.5 <= ratios["false"] <= ratios["true"], ratios


def test_the_theme_stays_light_whatever_the_system_prefers(browser, server):
    """Every contrast is checked in the light theme; a reader whose system prefers dark gets
    it too (.streamlit/config.toml's [theme])."""
    ctx = browser.new_context(color_scheme="dark", locale="en-US")
    page = ctx.new_page()
    try:
        open_app(page, f"{server}/home?lang=en")
        app = page.locator("[data-testid=stApp]")
        assert app.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"
    finally:
        ctx.close()


def outline(locator) -> tuple[str, str, str]:
    """An element's outline: style, colour, width."""
    return locator.evaluate(
        "e => { const s = getComputedStyle(e); return [s.outlineStyle, s.outlineColor,"
        " s.outlineWidth]; }"
    )


def contrast_on_white(rgb: str) -> float:
    """WCAG contrast of an opaque ``rgb(r, g, b)`` against white."""
    c = np.array([int(v) for v in re.findall(r"\d+", rgb)[:3]]) / 255
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return 1.05 / (float(c @ [0.2126, 0.7152, 0.0722]) + 0.05)


def tip_contrast(tip) -> float:
    """A tooltip's text against its ground (its translucent colour over white: the least
    contrast it can have over the map's cells)."""
    colour, ground = tip.evaluate(
        "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
    )
    *rgb, alpha = [float(v) for v in re.findall(r"[\d.]+", ground)]
    over_white = "rgb({}, {}, {})".format(*(round(alpha * v + (1 - alpha) * 255) for v in rgb))
    lighter, darker = sorted([contrast_on_white(colour), contrast_on_white(over_white)])
    return darker / lighter  # both against white: their ratio is theirs to each other


def centre(locator) -> tuple[float, float]:
    """Where the middle of ``locator`` is on screen."""
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_focus_and_hover_look_apart_from_the_tile_picked(page, server):
    """Issue 46: after a click on a tile and a move of the head slider, the tile under the
    mouse and the tile with the keyboard's focus were outlined as the tile picked (two
    heads seemed picked). Now only the picked tile has the solid red outline; hover and
    focus are a dashed ring of 3:1 or more on white, and the map's focus too."""
    open_app(page, f"{server}/multihead?lang=en")
    tiles = page.locator(".mosaic button.cell")
    tiles.first.wait_for(timeout=90_000)
    tiles.nth(1).click()  # head 2; the mouse stays on it
    page.wait_for_url("**head=2**", timeout=30_000)
    wait_idle(page)
    slider(page, t("multihead.big_head", "en")).press("ArrowRight")  # head 3, by keyboard
    page.wait_for_url("**head=3**", timeout=30_000)
    wait_idle(page)
    page.mouse.move(*centre(tiles.nth(1)))  # the mouse on head 2's tile, as it was
    tiles.nth(4).focus()  # head 5 from the keyboard
    assert tiles.nth(4).evaluate("e => e.getRootNode().activeElement === e")
    styles = [outline(tiles.nth(k)) for k in range(tiles.count())]
    picked = [
        k for k, (style, colour, _) in enumerate(styles) if (style, colour) == ("solid", PICKED)
    ]
    assert picked == [2], styles
    for k in (1, 4):  # hovered, focused
        style, colour, width = styles[k]
        assert style == "dashed" and colour != PICKED and float(width[:-2]) >= 2, styles[k]
        assert contrast_on_white(colour) >= 3, colour
    assert tiles.nth(2).get_attribute("aria-pressed") == "true"
    assert tiles.nth(1).get_attribute("aria-pressed") == "false"
    plot = page.locator(".heatmap .plot")
    plot.focus()
    style, colour, _ = outline(plot)
    assert style == "dashed" and contrast_on_white(colour) >= 3, (style, colour)


def test_every_clickable_part_of_the_components_works_from_the_keyboard(page, server):
    """Tab reaches every tile, the map, and the steps' PNG and CSV buttons; Enter picks a
    tile (the focus stays on it), picks the map's cell the arrows chose, and saves."""
    words = TEXT.replace(" ", "+")
    open_app(page, f"{server}/multihead?lang=en&follow=true&i=3&j=5&text={words}")
    steps = page.locator(".attnviz-steps")
    steps.locator(".csv").first.wait_for(timeout=90_000)
    wait_idle(page)
    tiles = page.locator(".mosaic button.cell")
    tiles.first.focus()
    seen = []
    for _ in range(60):  # the tab order from the first tile on
        seen.append(
            page.evaluate(
                f"() => {{ const a = ({FOCUSED})();"
                " return [a.className.baseVal ?? a.className,"
                " a.dataset.tile ?? '', a.closest('.attnviz-steps') !== null]; }"
            )
        )
        page.keyboard.press("Tab")
    every_tile = {tiles.nth(k).get_attribute("data-tile") for k in range(tiles.count())}
    assert len(every_tile) == 8
    assert {tile for cls, tile, _ in seen if "cell" in cls.split()} == every_tile
    assert ["plot", "", False] in seen  # the enlarged map
    # each chart (terms, row, what each key sends, values) has its PNG and CSV buttons
    for kind in ("csv", "save"):
        assert steps.locator(f".{kind}").count() == 4, kind
        assert sum(1 for cls, _, in_steps in seen if cls == kind and in_steps) == 4, kind
    # a tile: Enter picks it, and the redrawn grid keeps the focus on it
    tiles.nth(5).focus()
    tile = tiles.nth(5).get_attribute("data-tile")
    page.keyboard.press("Enter")
    page.wait_for_url("**head=6**", timeout=30_000)
    wait_idle(page)
    page.wait_for_function(f"t => ({FOCUSED})()?.dataset?.tile === t", arg=tile, timeout=10_000)
    assert tiles.nth(5).get_attribute("aria-pressed") == "true"
    # the map: the arrows move from the picked cell (3, 5), Enter picks
    plot = page.locator(".heatmap .plot")
    plot.focus()
    page.keyboard.press("ArrowDown")
    tip = page.locator(".heatmap .tip")  # the cell's tooltip, 4.5:1 or more on the map
    assert tip.is_visible() and tip_contrast(tip) >= 4.5
    page.keyboard.press("Enter")
    page.wait_for_url("**i=4&j=5**", timeout=30_000)
    wait_idle(page)
    # the steps' buttons: Enter saves, as a click does
    for kind, suffix in (("save", ".png"), ("csv", ".csv")):
        button = steps.locator(f".{kind}").first
        button.focus()
        with page.expect_download() as saved:
            page.keyboard.press("Enter")
        assert saved.value.suggested_filename.endswith(suffix)
    assert not page.evaluate(CHART_TEXT)  # the steps' bar charts' text, 4.5:1 or more


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_pictures_say_what_they_show_in_the_reader_s_language(page, server, lang):
    """The enlarged map's text alternative: its title, its size and its largest weight at the
    cell that holds it, from the engine's weights; the grid's: how many heads, and which is
    picked; ``<html lang>`` is the reader's language."""
    words = TEXT.replace(" ", "+")
    open_app(page, f"{server}/multihead?lang={lang}&head=2&text={words}")
    plot = page.locator(".heatmap .plot")
    plot.wait_for(timeout=90_000)
    r = multihead.run(multihead.Config(text=TEXT))
    w = r.weights[1]  # head 2
    i, j = np.unravel_index(np.argmax(w), w.shape)
    labels = token_labels(r.tokens, escape=False)
    title = t("multihead.head", lang, h=2)
    want = t("app.map_alt", lang, title=title, rows=11, cols=11, value=float(w[i, j]),
             row=labels[i], col=labels[j])  # fmt: skip
    assert plot.get_attribute("aria-label") == want
    assert page.locator(".heatmap .plot img").get_attribute("alt") == want
    grid = page.locator(".mosaic img").get_attribute("alt")
    picked = page.locator(".mosaic button.cell").nth(1).get_attribute("aria-label")
    assert grid.startswith(t("multihead.grid", lang)) and "8" in grid and picked in grid, grid
    page.wait_for_function(f"document.documentElement.lang === '{lang}'", timeout=10_000)
