"""Chart titles for a projector: long ones break where no word is split, and axis titles
make room for themselves beside tick labels at presentation size; CSV file names."""

import pandas as pd
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from ui import export
from ui.plots import _stand_off, _titled, halved


def test_a_japanese_title_breaks_only_at_its_punctuation_nearest_the_middle():
    title = "「猫」（位置 3 と 8）の注意の重み：位置符号化なし"
    main, sub = halved(title).split("<br>")
    assert main == "「猫」（位置 3 と 8）の注意の重み：" and sub == "位置符号化なし"
    assert "<br>" not in halved("位置符号化ベクトル")  # no punctuation, no phrase: no break


def test_an_english_title_breaks_at_the_space_nearest_the_middle():
    assert halved("P: row i takes the token from column π(i)") == (
        "P: row i takes the<br>token from column π(i)"
    )
    assert halved("Short") == "Short"
    # an equation is not broken around its "=" (it read "L =" on one line, "12 …" below)
    two = halved("‖∂ℒ/∂W<sub>2</sub>‖ of each layer, L = 12 (mean ± std over 3 seeds)")
    assert "L = 12" in two.replace("<br>", "\n")


def test_a_title_of_two_sentences_breaks_between_them_where_that_is_near_the_middle():
    """The saturation page's variance chart, presenting, read 「…の入力の分散」 / 「（両対数）。
    当てはめた傾きを凡例に示します」: the 「（」 was nearer the middle than the 「。」."""
    title = "D に対する softmax の入力の分散（両対数）。当てはめた傾きを凡例に示します"
    assert halved(title).split("<br>") == [
        "D に対する softmax の入力の分散（両対数）。",
        "当てはめた傾きを凡例に示します",
    ]
    english = "Variance of the logits against D (log–log); the fitted slope is in the legend"
    assert halved(english).split("<br>") == [
        "Variance of the logits against D (log–log);",
        "the fitted slope is in the legend",
    ]
    # a sentence's end far from the middle is not taken: 「。key j は赤」 would be a stub
    far = "softmax 前の行 i（関連性 s）と softmax 後の行（重み a）。key j は赤"
    assert halved(far).endswith("（重み a）。key j は赤")


def test_a_japanese_title_without_punctuation_near_its_middle_breaks_after_a_phrase():
    """The equivariance page's P, presenting, read 「P：」 / 「i 行目は π(i) 列のトークンを取る」:
    its only punctuation was next to its start."""
    assert halved("P：i 行目は π(i) 列のトークンを取る").split("<br>") == [
        "P：i 行目は",
        "π(i) 列のトークンを取る",
    ]
    # は, の, を, が end a phrase before a word or a space, not before more kana
    assert "<br>" not in halved("すべてのものがあるはず")
    assert halved("深さ L に対する最終層の ‖∂ℒ/∂W₂‖（両対数）").split("<br>") == [
        "深さ L に対する最終層の",
        "‖∂ℒ/∂W₂‖（両対数）",
    ]


def test_a_legend_under_the_axes_moves_down_and_the_figure_grows_when_presenting():
    for present, height in ((False, 340), (True, 442)):
        fig = go.Figure(layout=dict(height=340, legend=dict(orientation="h", y=-0.32)))
        _titled(fig, present)
        assert fig.layout.height == height
        assert fig.layout.legend.y == pytest.approx(-0.368 if present else -0.32)


def test_a_titlehalved_for_presenting_is_one_text_of_two_lines_and_a_note_stays_smaller():
    """As title and subtitle, the halves of one sentence sat 1.6 em apart (Plotly's gap
    under a title); one text of two lines, anchored to the top of the figure, was drawn a
    line too high and cut. Above the plot it keeps its font's line height."""
    title = "「猫」（位置 3 と 8）の注意の重み：位置符号化なし"
    long = go.Figure(layout_title_text=title)
    _titled(long, present=True)
    assert long.layout.title.text == "「猫」（位置 3 と 8）の注意の重み：<br>位置符号化なし"
    assert long.layout.title.subtitle.text is None
    assert (long.layout.title.yref, long.layout.title.yanchor) == ("paper", "bottom")
    assert long.layout.title.automargin and long.layout.title.font.size == 20
    # over panel titles (they sit where the plots end) the halves stay title and subtitle,
    # one size
    panels = make_subplots(rows=1, cols=2, subplot_titles=["a", "b"])
    panels.update_layout(title_text=title)
    _titled(panels, present=True)
    assert panels.layout.title.subtitle.text == "位置符号化なし"
    assert panels.layout.title.subtitle.font.size == panels.layout.title.font.size == 20
    noted = go.Figure(layout_title_text="f(PX) − P f(X)<br>rows: tokens")
    _titled(noted, present=True)
    assert noted.layout.title.subtitle.text == "rows: tokens"
    # a note stays smaller than its title, but not under a projector's 18 px (Plotly's 14)
    assert noted.layout.title.subtitle.font.size == 18 < noted.layout.title.font.size
    short = go.Figure(layout_title_text=title)
    _titled(short, present=False)
    assert short.layout.title.subtitle.text is None  # one line on a wide screen
    assert short.layout.title.text == title


def test_when_presenting_every_titled_axis_makes_room_for_its_title():
    for present in (False, True):
        fig = make_subplots(rows=1, cols=2)
        fig.update_xaxes(title_text="次元", row=1, col=1)  # a fixed margin: no automargin
        fig.update_yaxes(title_text="位置 i", automargin=True, row=1, col=1)
        for axes in (fig.for_each_xaxis, fig.for_each_yaxis):
            axes(lambda axis, present=present: _stand_off(axis, present))
        x, y = fig.layout.xaxis, fig.layout.yaxis
        assert bool(x.automargin) is present and (x.title.standoff == 8) is present
        assert y.automargin and y.title.standoff == 8  # asked for already: room either way
        assert not fig.layout.xaxis2.automargin  # no title: nothing to make room for


def test_a_subscript_s_tags_take_no_room_in_a_title():
    """r(z<sub>i</sub>, q) shows as r(zᵢ, q): its tags neither make the title long enough
    to be halved for presenting nor move its break off the middle of what is shown."""
    short = go.Figure(layout_title_text="Weights a<sub>i</sub> = softmax(r)<sub>i</sub>")
    _titled(short, present=True)
    assert short.layout.title.subtitle.text is None  # 24 columns shown, under 32
    title = "Row i before softmax (scores s<sub>i,l</sub>) and after (weights a<sub>i,l</sub>)"
    assert halved(title) == (
        "Row i before softmax (scores<br>s<sub>i,l</sub>) and after (weights a<sub>i,l</sub>)"
    )


def test_a_csv_keeps_plain_spaces_and_hyphens_in_its_name_and_headers():
    """The name shown keeps 「5 つ」 together; the file saved is named with a plain space, and
    its headers are plain text too (a spreadsheet's search for 'pre-LN' finds them)."""
    asked = {}

    class Recorder:
        def download_button(self, label, data, **kwargs):
            asked.update(kwargs, label=label, data=data())

    name = "5\u00a0つの関数"
    header = "pre\u2011LN\u00a0形式"  # as t() gives it in Japanese
    export.csv_button(pd.DataFrame({header: [1]}), name, "k", where=Recorder())
    assert asked["file_name"] == "5 つの関数.csv"
    assert name in asked["label"]
    assert asked["data"].decode("utf-8-sig").splitlines() == [",pre-LN 形式", "0,1"]
