"""Every string exists in Japanese and English, with the same fields, and every key used exists."""

import re
import string
from pathlib import Path

import pytest

from attnviz.i18n import LANGS, MATH, SHORT_MATH, _symbols, catalogue, plain, t
from attnviz.positional import KINDS, MODES
from attnviz.scores import SCORES

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [*ROOT.glob("pages/*/*.py"), *ROOT.glob("ui/*.py"), ROOT / "app.py"]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_entry_has_both_languages_with_the_same_fields():
    assert len(catalogue()) > 50
    for key, entry in catalogue().items():
        assert set(entry) == set(LANGS), f"{key}: languages {sorted(entry)}"
        assert all(entry[lang].strip() for lang in LANGS), f"{key}: empty string"
        assert fields(entry["en"]) == fields(entry["ja"]), f"{key}: fields differ"


SAME_IN_BOTH = {"real_model.default_text"}  # sample input for an English-only model


def _untagged(text: str) -> str:
    """``text`` without its HTML tags (a<sub>ij</sub> v<sub>j</sub> holds no word "sub")."""
    return re.sub(r"<[^>]+>", " ", text)


def test_japanese_entries_are_japanese():
    japanese = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    prose = [
        k
        for k, e in catalogue().items()
        if k not in SAME_IN_BOTH and len(re.findall(r"\b[A-Za-z]{3,}\b", _untagged(e["en"]))) >= 4
    ]
    assert all(japanese.search(catalogue()[k]["ja"]) for k in prose), [
        k for k in prose if not japanese.search(catalogue()[k]["ja"])
    ]


def test_every_literal_key_used_by_the_app_exists():
    used = set()
    for path in SOURCES:
        used |= set(re.findall(r'\btr\(\s*"([\w.]+)"', path.read_text()))
    assert len(used) > 30
    missing = sorted(k for k in used if k not in catalogue())
    assert not missing, missing


@pytest.mark.parametrize(
    "names,prefix",
    [
        (SCORES, "names."),
        (KINDS, "names.pe_"),
        (MODES, "names.mode_"),
        (("post", "pre", "none"), "names.norm_"),
    ],
)
def test_option_names_are_translated(names, prefix):
    for name in names:
        for lang in LANGS:
            assert t(prefix + name, lang)


# --- The chapter's words in the Japanese UI (issue 11, §2) -----------------------------
# Each page's strings live in attnviz/i18n/strings/<topic>.toml, the topic named as the page.

PAGES = (
    "home",
    "tour",
    "classroom",
    "scoring",
    "multihead",
    "saturation",
    "equivariance",
    "block_anatomy",
    "depth_gradients",
    "training_race",
    "positional",
    "real_model",
)
TEXT_PAGES = ("scoring", "multihead", "equivariance", "block_anatomy", "positional", "real_model")

# The glossary (GLOSSARY.md): each chapter term, in Japanese, and the pages that must use it.
GLOSSARY = {
    "注意": PAGES,
    "注意の重み": ("scoring", "multihead", "equivariance", "real_model"),
    "ソース": ("scoring",),
    "ターゲット": ("scoring", "multihead"),
    "関連性": ("scoring",),
    "内積注意": ("scoring", "multihead", "saturation"),
    "スケーリング": ("scoring", "saturation"),
    "分散": ("saturation",),
    "飽和": ("saturation",),
    "勾配": ("saturation",),
    "学習可能なパラメータ": ("scoring",),
    "加法的注意": ("scoring",),
    "順伝播型ネットワーク": ("scoring", "block_anatomy"),
    "置換": ("equivariance",),
    "同変": ("equivariance",),
    "トークン": TEXT_PAGES,
    "内部表現ベクトル": ("block_anatomy", "real_model"),
    "マルチヘッド注意": ("multihead", "real_model"),
    "射影": ("multihead",),
    "連結": ("multihead", "positional"),
    "ブロック": ("block_anatomy",),
    "積み重ね": ("block_anatomy",),
    "残差接続": ("block_anatomy", "depth_gradients", "training_race"),
    "レイヤー正規化": ("block_anatomy", "depth_gradients", "training_race", "multihead"),
    "位置ごとの順伝播型ネットワーク": ("block_anatomy",),
    "post-LN 形式": ("block_anatomy", "depth_gradients", "training_race"),
    "pre-LN 形式": ("block_anatomy", "depth_gradients", "training_race"),
    "集合的な演算": ("equivariance", "positional"),
    "位置情報": ("equivariance", "positional"),
    "位置符号化": ("positional", "equivariance", "multihead"),
    "加算": ("positional", "equivariance", "multihead"),
}
# Words the Japanese UI no longer uses (patterns): one word per idea, the chapter's.
# (Permute is 置換 or 入れ替える; 並べ替え is kept for the training race's sort task.)
NOT_THE_CHAPTER_S = {
    "アテンション": "注意",
    "位置エンコーディング": "位置符号化",
    "迂回路": "残差接続",
    "ソフトマックス": "softmax",
    "Post-LN": "post-LN",
    "Pre-LN": "pre-LN",
    "クエリ": "query",
    "キー(?!ボード)": "key",  # the keyboard is not a key
    "問いかける": "query",
    "問い合わせる": "query",
    "読む側": "query",
    "並べ替え": "置換 / 入れ替える",
    "袋": "集合",
    "トークンにすること": "トークンをどう変えるか",
    "偶然の水準": "当て推量と同じ",
    "について動く": "一緒に動く",
}
# Latin words allowed in Japanese strings: the chapter's own (it writes these in English),
# symbols and function names of the formulas, software, file formats, model names and units.
LATIN_ALLOWED = {
    *("query", "key", "value", "softmax", "self-attention", "Transformer"),
    *("post-LN", "pre-LN", "LayerNorm", "LN", "MLP", "ReLU", "GELU", "FFN"),
    *("PX", "PAPt", "QK", "Wq", "Var", "max", "log", "ln", "exp", "nat", "float32", "NaN"),
    *("tanh", "Ent"),  # functions, as formulas write them: Ent(a) the entropy (H is heads)
    *("attnviz", "PyTorch", "Python", "CSV", "PNG", "all-MiniLM-L6-v2", "WordPiece", "GPU"),
    "fairseq",  # the translation toolkit whose initialisation the depth page's model copies
    "QR",  # the class's QR code, as Japanese writes it (QR コード)
    *("CLS", "SEP", "UNK"),  # the real model's special tokens, as it spells them
    *("config", "json", "JSON", "model", "safetensors", "tokenizer"),  # a model folder's files
    *("BERT", "GPT-2", "Hugging", "Face", "load_pretrained", "BPE", "ATTNVIZ_MODELS"),  # models
    *("Xavier", "Xiong", "Abnar", "Zuidema", "Kobayashi", "Bahdanau"),  # authors of cited work
    "Adam",  # the optimiser, by its name
    *("Tab", "Enter"),  # keys of the keyboard, as printed on them
}
SAMPLE_INPUTS = {"real_model.default_text"}  # an English sentence for an English model


def _strings(topic: str) -> dict[str, str]:
    return {k: e["ja"] for k, e in catalogue().items() if k.split(".")[0] == topic}


def _latin_words(text: str) -> list[str]:
    """Latin words of a Japanese string, leaving out inline math, {fields}, Plotly's
    sub- and superscripts (D<sub>ff</sub>, whole, as inline math), HTML tags, subscripted
    symbols (D_ff) and an English name given once in parentheses （LayerNorm）."""
    text = re.sub(r"\$[^$]*\$|<(su[bp])>.*?</\1>", " ", plain(text))  # math, sub-, superscripts
    text = re.sub(r"\{[^{}]*\}|<[^>]+>|\b[A-Za-z]+_[A-Za-z0-9]+", " ", text)
    text = re.sub(r"（[A-Za-z][A-Za-z -]*）", " ", text)
    words = re.findall(r"[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9]", text)
    return [w for w in words if sum(c.isalpha() for c in w) >= 2 and w not in LATIN_ALLOWED]


def _assert_none(page: str, problems: list) -> None:
    assert not problems, f"{page}: {problems}"


@pytest.mark.parametrize("page", PAGES)
def test_each_glossary_term_appears_on_the_pages_the_glossary_names(page):
    text = " ".join(_strings(page).values())
    assert text, f"no strings for {page}"
    _assert_none(
        page, [term for term, pages in GLOSSARY.items() if page in pages and term not in text]
    )


@pytest.mark.parametrize("page", [*PAGES, "app", "names", "errors", "steps"])
def test_japanese_strings_use_the_chapter_s_word_for_each_idea(page):
    found = [
        f"{key}: {word} → {better}"
        for key, text in _strings(page).items()
        for word, better in NOT_THE_CHAPTER_S.items()
        if re.search(word, text)
    ]
    _assert_none(page, found)


# Issue 54: a vector's components are 成分, never 特徴; the residual stream is
# 残差接続を流れるベクトル, never 残差の流れ (GLOSSARY.md). The tour's strings follow in their
# own change; then these two belong in NOT_THE_CHAPTER_S, for every page.
ONE_TERM = {"特徴": "成分", "残差の流れ": "残差接続を流れるベクトル"}


@pytest.mark.parametrize("page", [*PAGES, "app", "names", "steps"])
def test_components_and_the_residual_stream_have_one_japanese_term(page):
    found = [
        f"{key}: {word} → {better}"
        for key, text in _strings(page).items()
        for word, better in ONE_TERM.items()
        if word in text
    ]
    _assert_none(page, found)


@pytest.mark.parametrize("page", [*PAGES, "app", "names", "errors", "steps"])
def test_no_english_words_in_japanese_strings(page):
    found = [
        f"{key}: {word}"
        for key, text in _strings(page).items()
        if key not in SAMPLE_INPUTS
        for word in _latin_words(text)
    ]
    _assert_none(page, found)


def test_the_word_check_tells_the_keyboard_from_a_key():
    def words(text: str) -> list[str]:
        return [NOT_THE_CHAPTER_S[w] for w in NOT_THE_CHAPTER_S if re.search(w, text)]

    assert words("キーボードで選びます") == []
    assert words("キーボードで、キーを選びます") == ["key"]


def test_the_latin_word_check_catches_what_it_is_for():
    assert _latin_words("ステップ（step）の式（formula）") == []  # a name given in parentheses
    assert _latin_words("softmax(scores) (row-wise) の出力") == ["scores", "row-wise"]
    assert _latin_words("凡例 (slope 0.998)") == ["slope"]
    assert _latin_words("`query_only` は位置で決まる") == []  # a code name is a symbol here
    assert _latin_words("block output (post-LN)") == ["block", "output"]
    assert _latin_words("W_1 と D_ff、{name} と $W^Q$") == []
    assert _latin_words("幅 D<sub>ff</sub> と a<sub>ij</sub> v<sub>j</sub>、x<sup>T</sup>") == []
    assert _latin_words("<sub>i</sub> の scores") == ["scores"]  # only the group is skipped


@pytest.mark.parametrize("page", (*PAGES, "app", "names", "steps", "errors"))
def test_japanese_prose_has_no_line_breaks_inside_a_paragraph(page):
    """Markdown shows a single line break as a space, stray between Japanese sentences."""
    broken = [k for k, text in _strings(page).items() if re.search(r"(?<!\n)\n(?!\n)", text)]
    assert not broken, broken


def _bad_configs() -> list[tuple[type, dict]]:
    """One bad value for each field the law and block pages pass to their lessons."""
    from attnviz.lessons import block_anatomy, equivariance, positional, saturation, scoring

    text = dict(text="a b", query="a")
    cases = [
        (scoring.Config, text | {field: value})
        for field, value in (
            ("source", "x"),
            ("score", "x"),
            ("D", 0),
            ("mlp_hidden", 0),
            ("seed", -1),
            ("shuffle_seed", -1),
            ("query", ""),
        )
    ]
    cases += [
        (scoring.Config, dict(source="random", N=0)),
        (scoring.Config, dict(source="random", M=99)),
    ]
    cases += [(saturation.Config, {f: v}) for f, v in (("N", 0), ("rows", 0), ("seed", -1))]
    cases += [
        (equivariance.Config, dict(text="a b") | {f: v})
        for f, v in (
            ("perm", "x"),
            ("perm_seed", -1),
            ("i", 99),
            ("j", 99),
            ("D", 0),
            ("H", 0),
            ("pe", "x"),
            ("pe_mode", "x"),
            ("norm", "x"),
            ("seed", -1),
            ("text", ""),
        )
    ]
    cases += [
        (block_anatomy.Config, dict(text="a b") | {f: v})
        for f, v in (
            ("norm", "x"),
            ("D", 0),
            ("H", 0),
            ("ff", 0),
            ("seed", -1),
            ("H", 3),
        )
    ]
    cases += [
        (positional.Config, {f: v})
        for f, v in (
            ("kind", "x"),
            ("N", 0),
            ("D", 0),
            ("seed", -1),
            ("d_pos", 0),
        )
    ]
    return [*cases, (positional.SameWord, dict(text="a a", mode="x"))]


SYMBOL_NAMES = {"N", "M", "D", "H", "i", "j"}  # parameters the pages name by their symbol


@pytest.mark.parametrize(("cls", "fields"), _bad_configs())
def test_every_engine_error_on_these_pages_is_translated_by_key_and_name(cls, fields):
    """ui.explain turns an InputError into errors.<key> with names.param_<name>: both exist,
    so the Japanese message holds no English parameter name."""
    from attnviz.errors import InputError

    with pytest.raises(InputError) as err:
        cls(**fields)
    assert f"errors.{err.value.key}" in catalogue()
    name = err.value.fields.get("name")
    assert name is None or name in SYMBOL_NAMES or f"names.param_{name}" in catalogue(), name
    # the allowed choices and the value given are the engine's names, as typed in Python
    shown = dict(err.value.fields, choices="", value="")
    if name is not None and name not in SYMBOL_NAMES:
        shown["name"] = t(f"names.param_{name}", "ja")
    assert not _latin_words(t(f"errors.{err.value.key}", "ja", **shown))


def test_a_japanese_number_stays_on_the_line_of_the_words_beside_it():
    """「約 12 秒」 had broken after its 12 at 1280 px: in Japanese, the spaces that set a
    number apart from kana or kanji do not break; other spaces, and English, are left."""
    ja = t("training_race.press_start", "ja", secs=12)
    assert "2\u00a0つ" in ja and "約\u00a012\u00a0秒" in ja
    assert "レース開始**を押すと\u00a02" in ja  # the space before a number, too
    assert "\u00a0" not in t("training_race.press_start", "en", secs=12)
    template = catalogue()["app.download_csv"]["ja"]
    assert t("app.download_csv", "ja", name="Q K") == template.format(name="Q K")  # no number


def test_the_real_model_s_title_keeps_the_model_s_name_on_one_line():
    """The title broke inside the name, 「all-MiniLM-」 / 「L6-v2」, in both languages; the
    title's hyphens are no-break hyphens (the name in the page's text stays plain)."""
    for lang in LANGS:  # the page gives the model's name with no-break hyphens
        title = t("real_model.title", lang, model="all\u2011MiniLM\u2011L6\u2011v2")
        assert title.endswith("all\u2011MiniLM\u2011L6\u2011v2") and "-" not in title
        assert plain(title).endswith("all-MiniLM-L6-v2")


def test_the_chapter_s_hyphenated_terms_do_not_break_at_their_hyphen_in_japanese():
    """The depth page's title broke as 「…深さ：post-」 / 「LN 形式と pre-LN 形式」: a Japanese
    line has no spaces, so the hyphen was the break. In Japanese, post-LN, pre-LN and
    self-attention take the no-break hyphen; English, and other hyphens, are left."""
    ja = t("depth_gradients.title", "ja")
    assert "post\u2011LN" in ja and "pre\u2011LN" in ja and "-" not in ja
    assert "self\u2011attention" in t("equivariance.title", "ja")
    assert "post-LN" in t("depth_gradients.title", "en")
    assert plain(ja) == catalogue()["depth_gradients.title"]["ja"]  # as written, for files


def test_a_relation_or_a_range_keeps_its_numbers_on_one_line_in_japanese():
    """「D / = 1〜4096」, 「点線 Var / = D」, 「D′ = / 8」 and 「95%〜 / 99%」 broke at 1024 px: in
    Japanese plain text a relation sign keeps its neighbours (no-break spaces) and a range's
    〜 its second number (a word joiner); math, English and the text of files are left."""
    assert "D\u00a0=\u00a01〜\u20604096" in t("home.saturation", "ja")
    assert "点線 Var\u00a0=\u00a0D" in t("saturation.reading", "ja")
    ja = t("multihead.d_head_is", "ja", width=64, H=8, d_head=8)
    assert "H\u00a0=\u00a08" in ja and "D′\u00a0=\u00a08" in ja
    reading = t("multihead.near_uniform_s2", "ja", lo=0.95, hi=0.99, qk=1, root=1, factor=1)
    assert "95%〜\u206099%" in reading
    assert plain(t("home.saturation", "ja")) == catalogue()["home.saturation"]["ja"]
    assert "\u00a0" not in t("home.saturation", "en")
    assert "$" in t("scoring.symbols", "ja") and "\u00a0=\u00a0" not in t("scoring.symbols", "ja")


def test_inline_math_breaks_neither_inside_a_short_formula_nor_inside_a_bracket():
    """KaTeX breaks inline math after a relation or a binary operator: 「X = / [z₁, …]」 and
    「(xᵢ + / pᵢ)ᵀ」. Every short formula is one group, in both languages; a long one keeps
    its breaks, so that a narrow column can still wrap it, and groups its brackets itself."""
    shown = 0
    for key, entry in catalogue().items():
        for lang in LANGS:
            try:
                out = t(key, lang)
            except (KeyError, IndexError):
                continue  # a string with fields
            for tex in MATH.findall(entry.get(lang, "")):
                short = _symbols(tex) <= SHORT_MATH
                assert (f"${{{tex}}}$" in out) == short, (key, tex)
                shown += short
    assert shown > 100
    for lang in LANGS:
        assert r"${(\mathbf x_i + \mathbf p_i)^\top} W^Q" in t("positional.note_reads", lang)
        ffn = r"\mathrm{ReLU}{(Y W_1 + \mathbf 1 b_1^\top)} W_2 + \mathbf{1} b_2^\top$"
        assert ffn in t("block_anatomy.symbols", lang)  # still breaks at its = and last +


def test_the_trained_model_s_page_is_named_alike_in_the_sidebar_and_its_title():
    """The sidebar showed a group and a page both called 「実際のモデル」 over a page titled
    学習済みモデル: the group takes the title's words, the page what it shows (the model is
    picked on the page)."""
    for lang in LANGS:
        group, page = t("app.nav_group_real", lang), t("real_model.nav", lang)
        assert group != page and group not in page
        assert group.lower().split()[0] in t("real_model.title", lang, model="m").lower()


def test_a_japanese_field_takes_no_space_where_a_latin_one_does():
    """「最初のトークン を除き」: the space written beside {specials} for [CLS] and [SEP] falls
    away when the family's candidates are named in Japanese."""
    first = t("real_model.specials_first", "ja")
    assert t("real_model.hide_special", "ja", specials=first).startswith("最初のトークンを除き")
    cls_sep = t("real_model.specials_cls_sep", "ja")
    assert t("real_model.hide_special", "ja", specials=cls_sep).startswith("[CLS] と [SEP] を除き")


def test_the_saturation_intro_keeps_variance_one_for_unit_sigma_only():
    """Issue 54: right after σ_q and σ_k become adjustable, the Japanese said that dividing by
    √D keeps the variance at 1 for every D, true only for σ_q = σ_k = 1: the scaled product's
    variance is σ_q²σ_k² (the page's own law, Var(qᵀk) = Dσ_q²σ_k²)."""
    ja = t("saturation.intro", "ja")
    assert "σ_q²σ_k²" in ja and "分散は 1 に保たれます" not in ja
    assert "σ_q = σ_k = 1" in ja.replace("\N{NO-BREAK SPACE}", " ")
