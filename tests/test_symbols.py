"""Issue 45, items 4 and 6: one meaning per symbol (q̃ attended, P permutations, H heads, M
queries, S a head's scores), and labels that say what their control and figure do."""

import re

import pytest

from attnviz import formulas
from attnviz.i18n import t
from attnviz.lessons import positional, tour
from attnviz.norms import NORMS
from attnviz.scores import SCORES
from attnviz.text import tokenize

LANGS = ("ja", "en")


@pytest.mark.parametrize("centre", ["each", "keys", "none"])
@pytest.mark.parametrize("score", ["scaled_dot", "bilinear"])
def test_the_query_key_picture_writes_centred_vectors_and_axes_apart(score, centre):
    """q̃, Q̃ are the attended vectors (S8) and P a permutation: the picture's centred
    vectors are q^c, k^c and its principal axes e_1, e_2."""
    shown = " ".join(formulas.qk_space(score, centre))
    assert r"\tilde" not in shown and "P^\\top" not in shown and "P_{" not in shown
    assert r"\mathbf{q}^c_i" in shown and r"\mathbf{e}_1^\top" in shown


def test_the_causal_mask_is_C_not_M():
    """M is the number of queries (the multi-head page's intro says M = N)."""
    shown = formulas.multihead("scaled_dot", causal=True)
    rows = dict(formulas.pipeline("scaled_dot", pe_kind="none", pe_mode="add", causal=True))
    assert any(f.startswith("C_{ij}") for f in shown) and "+ C)" in rows["A_h"]
    assert not any("M_{ij}" in f or "+ M)" in f for f in shown) and "+ M)" not in rows["A_h"]
    for lang in LANGS:
        assert re.search(r"\$\{?C\}?\$", t("multihead.causal", lang))


@pytest.mark.parametrize("cosine", [False, True])
def test_the_positions_gram_matrix_is_G(cosine):
    """S is a head's score matrix S_h; the positions' similarity is G_ij = p_iᵀp_j."""
    assert formulas.position_similarity(cosine).startswith("G_{ij}")
    for lang in LANGS:
        assert "G_{ij}" in t("positional.symbols", lang)
        assert "G<sub>ij</sub>" in t("positional.similarity", lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_saturation_page_names_rows_R_and_entropy_Ent(lang):
    symbols = t("saturation.symbols", lang)
    assert "R" in symbols and "S " not in symbols and "Ent(a)" in symbols
    assert "H(a)" not in t("saturation.t_entropy", lang)


@pytest.mark.parametrize("lang", LANGS)
def test_every_score_in_the_multihead_menu_is_written_per_head(lang):
    """The menu mixed zᵀq and MLP([z; q]) with qᵀk/√D′ (per head): every entry now names the
    head's q and k and says it is per head."""
    per_head = "ヘッドごと" if lang == "ja" else "per head"
    for spec in SCORES.values():
        label = t(spec.head_label, lang)
        assert per_head in label, label
        assert "z" not in label.split("：" if lang == "ja" else ":", 1)[1], label


@pytest.mark.parametrize("lang", LANGS)
def test_the_scale_label_names_both_matrices_its_formula_scales(lang):
    """query_only's label said "scale s of W_h^Q" over W_h^Q ← s W_h^Q, W_h^K ← s W_h^K."""
    for spec in SCORES.values():
        label = t(f"multihead.qk_scale_{spec.growth}", lang)
        shown = formulas.multihead(spec.name, qk_scale=2.0)
        assert any(r"W_h^K \leftarrow 2" in f for f in shown)
        assert "W_h^Q" in label and "W_h^K" in label, label


@pytest.mark.parametrize("lang", LANGS)
def test_the_positional_controls_say_what_they_change(lang):
    """D is the width of x_i too (added, the model keeps it); the table's seed draws only a
    learned table (the same-word head has its own)."""
    assert "x}_i" in t("positional.D", lang) and "p}_i" in t("positional.D", lang)
    seed = t("positional.seed", lang)
    assert ("正弦波" in seed) if lang == "ja" else ("sinusoidal" in seed)
    assert t("positional.head_seed", lang) != seed
    assert positional.SameWord("a a").seed == positional.SAME_WORD_SEED  # not Config.seed


def test_the_flow_note_says_pre_ln_adds_X_not_LN_X():
    pre = NORMS["pre"]
    start = dict(pre.stream)[pre.residuals[0][0]]
    assert start == "X"  # the arrow starts at X, before LN₁
    assert "not the LN₁(X)" in t("block_anatomy.flow_note", "en")
    assert "LN₁(X)、LN₂(X′) ではなく" in t("block_anatomy.flow_note", "ja")


def test_the_japanese_says_what_the_analyser_does_and_uses_the_chapters_terms():
    """座った is two tokens and 。 one: the label says so; the tour's state line uses the
    chapter's 位置ごとの順伝播型ネットワーク, not an FFN it never introduces."""
    tokens = tokenize(t("block_anatomy.default_text", "ja"))
    assert tokens[tokens.index("座っ") : tokens.index("座っ") + 2] == ["座っ", "た"]
    assert "。" in tokens
    label = t("block_anatomy.text", "ja")
    assert "単語ごとに 1 トークン" not in label and "「座っ」「た」" in label and "句読点" in label
    assert "punctuation" in t("block_anatomy.text", "en")
    assert tokenize("cat's") == ["cat", "'", "s"]  # the English label's example
    state = tour.stop("S13", "ja").state  # the link's label, from the config it opens
    assert "位置ごとの順伝播型ネットワーク" in state and "FFN" not in state


@pytest.mark.parametrize("lang", LANGS)
def test_the_query_key_pictures_axes_are_e1_and_e2(lang):
    assert "e<sub>1</sub>" in t("steps.qk_axis", lang, a=1, share=0.5)
    assert r"\mathbf{e}_1, \mathbf{e}_2" in t("steps.qk_intro", lang)
