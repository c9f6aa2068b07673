"""Accessibility in a real browser: axe-core on every page in both languages, presentation
mode off and on (no serious or critical violation); ``<html lang>``; the components' keyboard
use (the mosaic's tiles, the map's cells, the steps' PNG and CSV buttons) and their text
alternatives in the reader's language.

axe-core comes from npm, pinned in tests/browser/package.json and installed beside it by
tools/install-test-deps.sh (``npm ci``)."""

from __future__ import annotations

import re
import time

import pytest

from .conftest import ROOT, open_app, wait_idle

AXE = ROOT / "tests" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
PAGES = re.findall(r'url_path="([\w-]+)"', (ROOT / "app.py").read_text())
VIEWS = [(lang, present) for lang in ("ja", "en") for present in ("false", "true")]

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
    return { fg: fg.toHexString(), bg: bg.toHexString(), ratio: axe.commons.color.getContrast(bg, fg) };
  } finally {
    axe.teardown();
  }
}"""


def settle(page) -> None:
    """Wait until the page's run has finished and its components have drawn: the Plotly
    charts and the components' pictures stop changing."""
    wait_idle(page)
    count = """() => document.querySelectorAll('.js-plotly-plot .main-svg').length
        + [...document.querySelectorAll('*')].filter((e) => e.shadowRoot)
            .map((e) => e.shadowRoot.querySelectorAll('img, svg').length)
            .reduce((a, b) => a + b, 0)"""
    last = None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        now = page.evaluate(count)
        if now == last:
            return
        last = now
        page.wait_for_timeout(400)


def axe_violations(page) -> list[dict]:
    """axe-core's violations on the page as it is now."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
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


@pytest.mark.skipif(not AXE.exists(), reason="axe-core not installed: tools/install-test-deps.sh")
@pytest.mark.parametrize(("lang", "present"), VIEWS)
def test_axe_finds_no_serious_violation_on_any_page(server, axe_page, lang, present):
    """axe-core on every page (home and tour included), in one language and mode: no
    serious or critical violation; ``<html lang>`` is the page's language."""
    failures = []
    for path in PAGES:
        where = f"/{path}?lang={lang}&present={present}"
        open_app(axe_page, f"{server}{where}")
        settle(axe_page)
        assert axe_page.evaluate("document.documentElement.lang") == lang, where
        bad = [v for v in axe_violations(axe_page) if v["impact"] in ("serious", "critical")]
        failures += describe(where, bad)
    assert not failures, "\n".join(failures)
