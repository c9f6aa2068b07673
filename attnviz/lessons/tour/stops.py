"""The chapter in its own order (S1 → S16): for each claim, its equation, an exercise and the
page that shows it.

A stop's exercise is asked on a lesson's result: ``config(lang, seed)`` is the lesson's
configuration for the example ``seed`` draws, ``run`` computes it (the app caches it),
``ask`` reads the question, its choices and the right one from the result and ``figure``
draws the result as the page draws it. The link opens that page with every control set
to the same configuration (the URL holds every control), at the section that shows the
claim. The stop's equation comes from ``attnviz.formulas`` and is one that page typesets.
The words (claim, state, question, reasons) live in the string file ``tour.toml``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ... import formulas
from ...i18n import LANGS
from .. import block_anatomy, depth_gradients, equivariance, multihead, positional, saturation
from .. import scoring as scoring_lesson
from . import block_asks as block
from . import law_asks as law
from . import output_asks as output
from . import scoring_asks as scoring

PAGE_FILES = {  # url path → the page's script, as app.py registers it
    "scoring": "pages/attention/scoring.py",
    "multihead": "pages/attention/multihead.py",
    "saturation": "pages/attention/saturation.py",
    "equivariance": "pages/attention/equivariance.py",
    "block_anatomy": "pages/block/block_anatomy.py",
    "depth_gradients": "pages/block/depth_gradients.py",
    "training_race": "pages/block/training_race.py",
    "positional": "pages/block/positional.py",
    "real_model": "pages/real/real_model.py",
}


@dataclass(frozen=True)
class Ask:
    """How one stop asks, computes, draws and links (see the module's docstring)."""

    claim: str  # "S1" … "S16"
    page: str  # the url path of the page that shows it
    run: Callable  # the lesson's run(cfg)
    config: Callable[[str, int], object]  # (lang, seed) → the lesson's Config
    ask: Callable  # (cfg, result, lang, seed) → Exercise
    figure: Callable  # (cfg, result, lang, seed) → go.Figure
    link: Callable[[object, str, int], dict[str, str]]  # (cfg, lang, seed) → the page's URL
    formula: Callable[[], str]  # the claim's equation: one the page typesets
    section: str | None = None  # the string key of the page's heading the link lands at
    more: tuple[tuple[str, Callable[[str, int], dict[str, str]] | None], ...] = ()
    # further pages the stop links to: (page, (lang, seed) → its URL), None at its defaults
    slow: bool = False  # seconds to compute: run under a progress bar


def _many(i: int) -> Callable[[], str]:
    return lambda: formulas.many_queries("scaled_dot")[i]


def _multihead(marker: str) -> Callable[[], str]:
    """The multi-head formula holding ``marker``."""
    return lambda: next(f for f in formulas.multihead("scaled_dot") if marker in f)


def _scoring(claim: str, score: str, ask, figure, formula, section=None, **kw) -> Ask:
    config = partial(scoring.config, score=score, **kw)
    return Ask(
        claim, "scoring", scoring_lesson.run, config, ask, figure, scoring.link, formula, section
    )


def _weights(cfg, r, lang, seed):
    return scoring.weights_figure(r, r.weights, lang)


ASKS = {
    a.claim: a
    for a in (
        _scoring("S1", "dot", scoring.s1, _weights, lambda: formulas.WEIGHTED_SUM, D=4),
        _scoring(
            "S2",
            "scaled_dot",
            scoring.s2,
            scoring.s2_figure,
            lambda: formulas.score("scaled_dot"),
            "scoring.all_title",
        ),
        Ask(
            "S3",
            "saturation",
            saturation.run,
            law.s3_config,
            law.s3,
            law.s3_figure,
            law.s3_link,
            lambda: formulas.SATURATION[1],  # Var(qᵀk) = D
        ),
        _scoring("S4", "bilinear", scoring.s4, _weights, lambda: formulas.score("bilinear")),
        _scoring("S5", "mlp", scoring.s5, _weights, lambda: formulas.score("mlp")),
        _scoring(
            "S6",
            "query_only",
            scoring.s6,
            scoring.s6_figure,
            lambda: formulas.score("query_only"),
            "scoring.shuffle_title",
            shuffle=3,
        ),
        Ask(
            "S7",
            "equivariance",
            equivariance.run,
            law.eq_config("none"),
            law.equivariant("S7"),
            law.eq_figure,
            law.eq_link,
            lambda: formulas.equivariance("none", "add")[0],
        ),
        _scoring(
            "S8",
            "scaled_dot",
            output.s8,
            output.s8_figure,
            lambda: formulas.single_query("scaled_dot"),
        ),
        _scoring("S9", "scaled_dot", output.s9, output.s9_figure, _many(1), "scoring.many_title"),
        Ask(
            "S10",
            "multihead",
            multihead.run,
            block.mh_config,
            block.s10,
            block.heads_figure,
            block.mh_link,
            _multihead("X W_h^Q"),  # Q, K, V from the same X
        ),
        _scoring(
            "S11", "scaled_dot", output.s11, output.s11_figure, _many(2), "scoring.many_title"
        ),
        Ask(
            "S12",
            "multihead",
            multihead.run,
            block.mh_config,
            block.s12,
            block.heads_figure,
            block.mh_link,
            _multihead(r"\mathrm{head}_1"),  # concatenated, then W^O
            more=(("real_model", None),),
        ),
        Ask(
            "S13",
            "block_anatomy",
            block_anatomy.run,
            block.block_config,
            block.s13,
            block.s13_figure,
            block.block_link,
            lambda: formulas.block("post"),
        ),
        Ask(
            "S14",
            "depth_gradients",
            depth_gradients.trend,
            block.depth_config,
            block.s14,
            block.s14_figure,
            block.depth_link,
            lambda: formulas.block("pre"),
            more=(("block_anatomy", block.pre_link), ("training_race", None)),
            slow=True,
        ),
        Ask(
            "S15",
            "equivariance",
            equivariance.run,
            law.eq_config("sinusoidal"),
            law.equivariant("S15"),
            law.eq_figure,
            law.eq_link,
            lambda: formulas.equivariance("sinusoidal", "add")[-1],
        ),
        Ask(
            "S16",
            "positional",
            positional.run,
            block.pos_config,
            block.s16,
            block.s16_figure,
            block.pos_link,
            lambda: formulas.positions("sinusoidal", "add"),
        ),
    )
}
CLAIMS = tuple(ASKS)


@dataclass(frozen=True)
class Stop:
    claim: str  # "S1" … "S16"
    page: str  # the url path of the page that shows it
    params: tuple[tuple[str, str], ...]  # every control of the page, as its URL holds it
    formula: str  # the claim's equation, from attnviz.formulas; the page shows it too
    section: str | None  # the string key of the heading the link lands at
    more: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # further pages and their URLs

    @property
    def script(self) -> str:
        return PAGE_FILES[self.page]

    def query(self) -> dict[str, str]:
        return dict(self.params)


def stop(claim: str, lang: str, seed: int = 0) -> Stop:
    """Stop ``claim`` for example ``seed``, its link's texts in ``lang``."""
    lang = lang if lang in LANGS else "en"
    a = ASKS[claim]
    params = a.link(a.config(lang, seed), lang, seed)
    more = tuple(
        (page, (("lang", lang), *(link(lang, seed) if link else {}).items()))
        for page, link in a.more
    )
    return Stop(claim, a.page, (("lang", lang), *params.items()), a.formula(), a.section, more)


def stops(lang: str, seed: int = 0) -> list[Stop]:
    """The tour's stops, S1 → S16, for example ``seed``."""
    return [stop(claim, lang, seed) for claim in CLAIMS]
