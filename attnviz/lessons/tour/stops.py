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

import re
from collections.abc import Callable
from dataclasses import dataclass

from ... import formulas
from ...i18n import LANGS
from ...limits import MAX_SEED
from .. import block_anatomy, depth_gradients, equivariance, multihead, positional, saturation
from .. import scoring as scoring_lesson
from . import block_asks as block
from . import depth_asks as depth
from . import law_asks as law
from . import learned_asks as learned
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
    state: Callable[[object, str, int], str]  # (cfg, lang, seed) → what the link sets up
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


def _scoring_state(cfg, lang: str, seed: int) -> str:
    return scoring.state(cfg, lang)


def _scoring(claim: str, config, ask, figure, formula, section=None) -> Ask:
    return Ask(
        claim,
        "scoring",
        scoring_lesson.run,
        config,
        ask,
        figure,
        scoring.link,
        _scoring_state,
        formula,
        section,
    )


def _equivariance(claim: str, formula) -> Ask:
    return Ask(
        claim,
        "equivariance",
        equivariance.run,
        law.eq_config(claim),
        law.equivariant(claim),
        law.eq_any_figure(claim),
        law.eq_link,
        law.eq_state,
        formula,
    )


ASKS = {
    a.claim: a
    for a in (
        _scoring(
            "S1", scoring.s1_config, scoring.s1, scoring.s1_figure, lambda: formulas.WEIGHTED_SUM
        ),
        _scoring(
            "S2",
            scoring.s2_config,
            scoring.s2,
            scoring.s2_figure,
            lambda: formulas.score("scaled_dot"),
        ),
        Ask(
            "S3",
            "saturation",
            saturation.run,
            law.s3_config,
            law.s3,
            law.s3_figure,
            law.s3_link,
            law.s3_state,
            lambda: formulas.SATURATION[1],  # Var(qᵀk) = D
        ),
        _scoring(
            "S4",
            learned.s4_config,
            learned.s4,
            learned.s4_figure,
            lambda: formulas.score("bilinear"),
        ),
        _scoring(
            "S5", learned.s5_config, learned.s5, learned.s5_figure, lambda: formulas.score("mlp")
        ),
        _scoring(
            "S6",
            learned.s6_config,
            learned.s6,
            learned.s6_figure,
            lambda: formulas.score("query_only"),
            "scoring.shuffle_title",
        ),
        _equivariance("S7", lambda: formulas.equivariance("none", "add")[0]),
        _scoring(
            "S8",
            output.s8_config,
            output.s8,
            output.s8_figure,
            lambda: formulas.single_query("scaled_dot"),
        ),
        _scoring(
            "S9", output.s9_config, output.s9, output.s9_figure, _many(1), "scoring.many_title"
        ),
        Ask(
            "S10",
            "multihead",
            multihead.run,
            block.mh_config("S10"),
            block.s10,
            block.heads_figure,
            block.mh_link,
            block.mh_state,
            _multihead("X W_h^Q"),  # Q, K, V from the same X
        ),
        _scoring(
            "S11", output.s11_config, output.s11, output.s11_figure, _many(2), "scoring.many_title"
        ),
        Ask(
            "S12",
            "multihead",
            multihead.run,
            block.mh_config("S12"),
            block.s12,
            block.heads_figure,
            block.mh_link,
            block.mh_state,
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
            block.block_state,
            lambda: formulas.block("post"),
        ),
        Ask(
            "S14",
            "depth_gradients",
            depth_gradients.trend,
            depth.depth_config,
            depth.s14,
            depth.s14_figure,
            depth.depth_link,
            depth.depth_state,
            lambda: formulas.block("pre"),
            more=(("training_race", None), ("block_anatomy", block.pre_link)),
            slow=True,
        ),
        _equivariance("S15", lambda: formulas.equivariance("sinusoidal", "add")[-1]),
        Ask(
            "S16",
            "positional",
            positional.run,
            block.pos_config,
            block.s16,
            block.s16_figure,
            block.pos_link,
            block.pos_state,
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
    state: str  # what the link sets up, from the configuration computed
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
    cfg = a.config(lang, seed)
    params = a.link(cfg, lang, seed)
    more = tuple(
        (page, (("lang", lang), *(link(lang, seed) if link else {}).items()))
        for page, link in a.more
    )
    query = (("lang", lang), *params.items())
    return Stop(claim, a.page, query, a.formula(), a.state(cfg, lang, seed), a.section, more)


def stops(lang: str, seed: int = 0) -> list[Stop]:
    """The tour's stops, S1 → S16, for example ``seed``."""
    return [stop(claim, lang, seed) for claim in CLAIMS]


ORIGIN = re.compile(r"(S[0-9]{1,2})(?:-([0-9]{1,10}))?")  # S9, S9-2


def origin(claim: str, seed: int = 0) -> str:
    """The way back to stop ``claim`` on example ``seed``, as a page's link names it
    (``?from=S9``, ``?from=S9-2``): the stop alone for the first example."""
    return f"{claim}-{seed}" if seed else claim


def from_origin(text: str) -> tuple[str, int]:
    """The stop and example that :func:`origin` names; ``ValueError`` for a text naming
    no stop of the tour or an example past ``MAX_SEED``."""
    m = ORIGIN.fullmatch(text)
    if not m or m[1] not in ASKS or int(m[2] or 0) > MAX_SEED:
        raise ValueError(f"no stop of the tour: {text!r}")
    return m[1], int(m[2] or 0)
