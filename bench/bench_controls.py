"""Every control at its ends, cold cache: the slowest reruns of every page (AppTest, 2 cores).

For each page and language: every slider is set to its minimum and maximum, every select
and radio to each option, every toggle flipped, one at a time from the page's defaults,
and then every slider at its maximum at once (the page's heaviest corner); before each
rerun the results (ui.compute), the drawings (ui.drawn) and ``st.cache_data`` are cleared
(``st.cache_resource`` keeps what a server loads once:
the real model), so each figure is a student's first request for that setting. Prints the
slowest five reruns with their settings and the worst per page. Target: nothing over 3 s.

    python3 -m bench.bench_controls            # every page, both languages
    python3 -m bench.bench_controls --quick    # each page's slowest ends only (CI)
"""

from __future__ import annotations

import argparse
import time

import streamlit as st

from tests.app.helpers import PAGES, assert_clean, own, run_page
from ui import keys
from ui.compute import clear as clear_results
from ui.drawn import clear as clear_drawn

SKIP = ("lang", "present")  # the frame's controls: they change no computation


def controls(at) -> list[tuple[str, str, list]]:
    """(kind, key, values to try) for every control on the page."""
    try:
        options = own(at).get(keys.OPTIONS, {})
    except KeyError:  # no run drew the page's frame
        options = {}
    found = []
    for kind in ("selectbox", "radio", "select_slider"):
        for w in getattr(at, kind):
            if w.key and w.key not in SKIP and w.key in options and not w.disabled:
                found.append((kind, w.key, list(options[w.key])))
    for w in at.toggle:
        if w.key and w.key not in SKIP:
            found.append(("toggle", w.key, [not w.value]))
    for w in at.slider:
        if w.key and w.key not in SKIP:
            found.append(("slider", w.key, [w.min, w.max]))
    return found


def timed_rerun(at) -> float:
    st.cache_data.clear()
    clear_results()
    clear_drawn()
    t0 = time.perf_counter()
    at.run()
    seconds = time.perf_counter() - t0
    assert_clean(at)
    return seconds


def sweep(page: str, lang: str, quick: bool) -> list[tuple[float, str]]:
    """(seconds, setting) for each rerun of ``page`` with one control moved to an end."""
    at = run_page(page, lang=lang, timeout=300)
    assert_clean(at)
    out = []
    for kind, key, values in controls(at):
        widget = getattr(at, kind)(key=key)
        original = widget.value
        tried = values[-1:] if quick else values
        for value in tried:
            if value == original:
                continue
            getattr(at, kind)(key=key).set_value(value)
            out.append((timed_rerun(at), f"{page} [{lang}] {key}={value}"))
        getattr(at, kind)(key=key).set_value(original)
        at.run()
    ends = [(k, key, v[-1]) for k, key, v in controls(at) if k in ("slider", "select_slider")]
    for kind, key, value in ends:
        getattr(at, kind)(key=key).set_value(value)
    if ends:
        out.append((timed_rerun(at), f"{page} [{lang}] every slider at its maximum"))
    return out


def report(runs: list[tuple[float, str]], pages: list[str]) -> str:
    """The slowest five reruns and the worst of each page, one per line."""
    runs = sorted(runs, reverse=True)
    lines = [f"{len(runs)} reruns, cold cache", "slowest five:"]
    lines += [f"  {seconds:6.2f} s  {setting}" for seconds, setting in runs[:5]]
    lines.append("worst per page:")
    for page in pages:
        worst = max((r for r in runs if r[1].startswith(page + " ")), default=None)
        if worst:
            lines.append(f"  {worst[0]:6.2f} s  {worst[1]}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="each control's last value only")
    parser.add_argument("pages", nargs="*", default=sorted(PAGES))
    args = parser.parse_args()
    langs = ("en",) if args.quick else ("ja", "en")
    runs = [r for page in args.pages for lang in langs for r in sweep(page, lang, args.quick)]
    print(report(runs, args.pages))


if __name__ == "__main__":
    main()
