"""A 1280 × 720 projector in presentation mode, in Japanese, as a teacher met it: the first
map on the first screen, heat-map tokens and formulas at the prose's size where there is
room, every bar's label, a legible LN table."""

from itertools import pairwise

import pytest
from playwright.sync_api import expect

from attnviz.i18n import t

from .conftest import CUT_TITLES, assert_clean, open_app

pytestmark = pytest.mark.browser
PRESENT = "present=true&lang=ja"
TICK_SIZES = """sel => [...document.querySelectorAll(sel)].map(p =>
    [...p.querySelectorAll('.xtick text')].map(t => parseFloat(getComputedStyle(t).fontSize)))"""


@pytest.fixture
def projector(page):
    page.set_viewport_size({"width": 1280, "height": 720})
    return page


def test_the_first_head_map_is_on_the_first_screen(projector, server):
    open_app(projector, f"{server}/multihead?{PRESENT}")
    tiles = projector.locator(".mosaic img")
    tiles.wait_for(timeout=90_000)
    assert tiles.bounding_box()["y"] < 600  # the intro's seven lines put it at y ≈ 660
    assert_clean(projector)


def test_heat_map_tokens_grow_on_a_projector(projector, server):
    open_app(projector, f"{server}/scoring?{PRESENT}")
    projector.locator(".js-plotly-plot").nth(4).wait_for(timeout=90_000)
    maps = projector.evaluate(TICK_SIZES, ".js-plotly-plot")
    named = [sizes for sizes in maps if len(sizes) == 13]  # the maps over the 13 tokens
    assert named and all(min(sizes) >= 16 for sizes in named), maps  # they stayed at 12
    assert_clean(projector)


# each of a figure's maps (subplots xy, x2y2, x3y3): its box, its title's, the sizes of its
# row and column labels and where the column labels end (boxes as left, top, right, bottom)
PANELS = """p => { const box = e => { const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    return ['', '2', '3'].map((k, i) => ({
        map: box(p.querySelector(`.nsewdrag[data-subplot=x${k}y${k}]`)),
        title: box(p.querySelectorAll('.annotation')[i]),
        sizes: [...p.querySelectorAll(`.x${k}tick text, .y${k}tick text`)]
            .map(t => parseFloat(getComputedStyle(t).fontSize)),
        labels: Math.max(...[...p.querySelectorAll(`.x${k}tick text`)]
            .map(t => t.getBoundingClientRect().bottom))})); }"""


def test_the_three_equivariance_maps_stack_with_a_projectors_tokens(projector, server):
    """A(X), A(PX) and P A Pᵀ side by side were about 85 px wide, their tokens at 12 px:
    presenting, they stack, each with its rows and columns named at the projector's size,
    its title between the map above's labels and its own map, the colour bar beside them."""
    open_app(projector, f"{server}/equivariance?{PRESENT}")
    projector.locator(".js-plotly-plot").nth(2).wait_for(timeout=90_000)
    maps = projector.locator(".js-plotly-plot").first
    panels = maps.evaluate(PANELS)
    for panel in panels:  # 犬が男を噛んだ: six tokens, each naming a row and a column
        assert len(panel["sizes"]) == 12 and min(panel["sizes"]) >= 16, panels
        assert panel["title"][3] <= panel["map"][1] + 1, panel  # over its map, not on it
    for upper, lower in pairwise(panels):
        assert upper["labels"] <= lower["title"][1], panels  # one under another, apart
    bar = maps.evaluate("p => p.querySelector('.colorbar').getBoundingClientRect().left")
    assert all(bar >= panel["map"][2] for panel in panels)
    assert projector.evaluate(CUT_TITLES) == []
    # the caption names the two maps that match, which are not "the middle and right" here
    caption = t("equivariance.maps", "ja", h=1)
    assert all(t(f"equivariance.t_{k}", "ja") in caption for k in ("A_P", "PAPt"))
    expect(projector.get_by_text(caption)).to_be_visible()
    assert_clean(projector)


# every display formula of the page has the size ui/fit.js gives it for its column as it is
# now, with the page's fonts loaded (KaTeX's, which widen a formula, load late)
FITTED = """() => { const all = [...document.querySelectorAll(
  '[data-testid=stMain] .katex-display > .katex')];
  return document.fonts.status === 'loaded' && all.length > 0 && all.every(k =>
    k.style.fontSize !== '' && Number(k.dataset.fitRoom)
      === k.closest('[data-testid=stElementContainer]').clientWidth); }"""


def test_formulas_are_as_large_as_the_prose_where_their_column_has_room(projector, server):
    open_app(projector, f"{server}/scoring?{PRESENT}")
    projector.wait_for_function(FITTED)  # ui/fit.js sizes them after the page is drawn
    shown = projector.evaluate("""() => [...document.querySelectorAll(
        '[data-testid=stMain] .katex-display > .katex')].map(k => [
        parseFloat(getComputedStyle(k).fontSize), k.scrollWidth,
        k.closest('[data-testid=stElementContainer]').clientWidth])""")
    prose = 1.35 * 16
    for size, wide, room in shown:
        assert wide <= room + 1  # never wider than its column
        assert size >= prose or wide >= room - 2, (size, wide, room)  # smaller only to fit
    assert any(size >= prose for size, _, _ in shown)  # all were 17.6 px in the left column
    assert_clean(projector)


def test_the_last_tokens_label_stays_under_its_bar(page, server):
    """At 1700 px the labels lie level, and Plotly hid 「13:。」, past the figure's edge."""
    page.set_viewport_size({"width": 1700, "height": 900})
    open_app(page, f"{server}/scoring?{PRESENT}")
    page.locator(".js-plotly-plot").nth(1).wait_for(timeout=90_000)
    last = page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].slice(0, 2)
        .map(p => [...p.querySelectorAll('.xtick text')].at(-1))
        .map(t => [t.textContent, getComputedStyle(t).display])""")
    assert last == [["13:。", "block"]] * 2


def test_the_ln_table_is_legible(projector, server):
    open_app(projector, f"{server}/block_anatomy?{PRESENT}")
    table = projector.locator(".attnviz-numbers")
    table.wait_for(timeout=90_000)
    sizes = table.evaluate(
        "t => [...t.querySelectorAll('td')].map(c => getComputedStyle(c).fontSize)"
    )
    assert min(float(s.removesuffix("px")) for s in sizes) >= 18  # about 13 px before
    assert "e-" not in table.inner_text()
    assert_clean(projector)
