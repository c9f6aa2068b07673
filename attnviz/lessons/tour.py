"""The chapter in its own order (S1 → S16): for each claim, its equation and a prepared view.

A stop names the page that shows the claim and every control of that page as the link
sets it, so the link opens exactly that view (the URL holds every control). Its equation
comes from ``attnviz.formulas`` and is one the page typesets in that state: opening the
link and finding the equation among the page's formulas is the tour's test.
The words (claim, state, question) live in the string file ``tour.toml`` by claim.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import formulas
from ..i18n import LANGS, t
from ..scores import spec_of

PAGE_FILES = {  # url path → the page's script, as app.py registers it
    "scoring": "pages/attention/scoring.py",
    "multihead": "pages/attention/multihead.py",
    "saturation": "pages/attention/saturation.py",
    "equivariance": "pages/attention/equivariance.py",
    "block_anatomy": "pages/block/block_anatomy.py",
    "positional": "pages/block/positional.py",
}
TEXT_KEYS = {  # page → the string holding its default sentence (and query words)
    "scoring": ("scoring.default_text", "scoring.default_query"),
    "multihead": ("multihead.default_text",),
    "equivariance": ("equivariance.default_text",),
    "block_anatomy": ("block_anatomy.default_text",),
    "positional": ("positional.default_text",),
}


@dataclass(frozen=True)
class Stop:
    claim: str  # "S1" … "S16"
    page: str  # the url path of the page that shows it
    params: tuple[tuple[str, str], ...]  # every control of the page, as its URL holds it
    formula: str  # the claim's equation, from attnviz.formulas; the page shows it too

    @property
    def script(self) -> str:
        return PAGE_FILES[self.page]

    def query(self) -> dict[str, str]:
        return dict(self.params)


def _scoring(lang: str, score: str, D: int = 64, shuffle: int = 1) -> tuple:
    text, query = (t(k, lang) for k in TEXT_KEYS["scoring"])
    params = dict(source="text", text=text, query=query, D=str(D), score=score)
    if "hidden" in spec_of(score).options:
        params["hidden"] = "16"
    return tuple((params | dict(seed="0", shuffle=str(shuffle))).items())


def _equivariance(lang: str, pe: str) -> tuple:
    params = dict(text=t(TEXT_KEYS["equivariance"][0], lang), perm="shuffle", pseed="3")
    params |= dict(pe=pe, pe_mode="add", norm="post", D="32", H="2", seed="0", head="1")
    return tuple(params.items())


def _saturation(D: int) -> tuple:
    return (("D", str(D)), ("N", "16"), ("rows", "500"), ("seed", "0"), ("sq", "1"), ("sk", "1"))


def _multihead(lang: str, H: int) -> tuple:
    params = dict(text=t(TEXT_KEYS["multihead"][0], lang), D="64", H=str(H), auto="true")
    params |= dict(score="scaled_dot", causal="false", pe="sinusoidal", pe_mode="add")
    params |= dict(norm="post", seed="0", qk="1", show="weights", head="1")
    # the step-through and q–k views closed: no weight is picked (no i, j)
    params |= dict(follow="false", qkview="false")
    return tuple(params.items())


def _block(lang: str, norm: str) -> tuple:
    params = dict(norm=norm, text=t(TEXT_KEYS["block_anatomy"][0], lang), D="64", H="4")
    return tuple((params | dict(ff="4", seed="0", token="1")).items())


def stops(lang: str) -> list[Stop]:
    """The tour's stops, S1 → S16, with the links' texts in ``lang``."""
    lang = lang if lang in LANGS else "en"
    multihead = formulas.multihead("scaled_dot")
    qkv = next(f for f in multihead if "X W_h^Q" in f)  # S10: Q, K, V from the same X
    heads = next(f for f in multihead if r"\mathrm{head}_1" in f)  # S12: concat, then W^O
    many = formulas.many_queries("scaled_dot")
    positional = dict(kind="sinusoidal", N="50", D="64", seed="0", cosine="false", d_pos="64")
    positional |= dict(text=t(TEXT_KEYS["positional"][0], lang), mode="add", head_seed="5", s="3")
    table = [
        ("S1", "scoring", _scoring(lang, "dot", D=4), formulas.WEIGHTED_SUM),
        ("S2", "scoring", _scoring(lang, "scaled_dot"), formulas.score("scaled_dot")),
        ("S3", "saturation", _saturation(1024), formulas.SATURATION[1]),  # Var(qᵀk) = D
        ("S4", "scoring", _scoring(lang, "bilinear"), formulas.score("bilinear")),
        ("S5", "scoring", _scoring(lang, "mlp"), formulas.score("mlp")),
        ("S6", "scoring", _scoring(lang, "query_only", shuffle=3), formulas.score("query_only")),
        (
            "S7",
            "equivariance",
            _equivariance(lang, "none"),
            formulas.equivariance("none", "add")[0],
        ),
        ("S8", "scoring", _scoring(lang, "scaled_dot"), formulas.single_query("scaled_dot")),
        ("S9", "scoring", _scoring(lang, "scaled_dot"), many[1]),
        ("S10", "multihead", _multihead(lang, 8), qkv),
        ("S11", "scoring", _scoring(lang, "scaled_dot"), many[2]),
        ("S12", "multihead", _multihead(lang, 8), heads),
        ("S13", "block_anatomy", _block(lang, "post"), formulas.block("post")),
        ("S14", "block_anatomy", _block(lang, "pre"), formulas.block("pre")),
        (
            "S15",
            "equivariance",
            _equivariance(lang, "sinusoidal"),
            formulas.equivariance("sinusoidal", "add")[-1],
        ),
        (
            "S16",
            "positional",
            tuple(positional.items()),
            formulas.positions("sinusoidal", "add"),
        ),
    ]
    return [
        Stop(claim, page, (("lang", lang), *params), formula)
        for claim, page, params, formula in table
    ]
