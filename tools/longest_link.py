"""The longest link the app writes: each page with texts opened (AppTest, through app.py)
with every text at its cap, of kinds from ordinary Japanese to random code points that no
codec compresses, and the link it writes measured in bytes, with an address of
ADDRESS bytes (https:// and a long host name) before it.

    python3 tools/longest_link.py            # a table; the longest last

Also used by the tests (tests/ui/test_url_pack.py, tests/load/test_long_link.py) for
its texts.
"""

from __future__ import annotations

import random
import sys
import tomllib
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
ADDRESS = "https://attnviz.school-district.example.org:8443/real_model"

# each page's texts kept in its link, at their caps (pages/…: ui.text's max_chars), and the
# controls that show them: the real model's pooled sentences are under its query–key view
PAGES = {
    "real_model": ({"qkview": "true"}, {"text": 2000, "pool": 2000}),
    "scoring": ({}, {"text": 2000, "query": 200}),
    "multihead": ({}, {"text": 2000}),
}


def japanese(n: int, start: int = 0) -> str:
    """``n`` characters of ordinary Japanese prose: the app's own Japanese strings."""
    prose = "".join(
        entry["ja"]
        for f in sorted((ROOT / "attnviz" / "i18n" / "strings").glob("*.toml"))
        for entry in tomllib.loads(f.read_text()).values()
        if isinstance(entry, dict) and isinstance(entry.get("ja"), str)
    )
    return prose[start : start + n]


def texts(n: int, seed: int = 0) -> dict[str, str]:
    """Texts of ``n`` characters, the easiest to compress first: Japanese prose, random
    kanji (CJK unified ideographs), random emoji, and random code points of the
    supplementary planes (about 20 bits a character: nothing packs them smaller)."""
    rng = random.Random(seed)

    def drawn(lo: int, hi: int) -> str:
        return "".join(chr(rng.randint(lo, hi)) for _ in range(n))

    return {
        "japanese": japanese(n, start=n * seed),
        "kanji": drawn(0x4E00, 0x9FFF),
        "emoji": drawn(0x1F300, 0x1FAFF),
        "planes": drawn(0x10000, 0x10FFFF),
    }


def written_link(page: str, lang: str = "ja", **params: str) -> str:
    """The link that ``page`` writes after opening with ``params`` in its URL (plain)."""
    sys.path.insert(0, str(ROOT))
    from tests.app.helpers import run_page

    at = run_page(page, lang, timeout=600, **params)
    assert not at.exception, at.exception
    return f"{ADDRESS}?{urlencode(dict(at.query_params))}"


def main() -> None:
    longest = 0
    print(f"{'page':<12} {'texts':<10} {'opened (bytes)':>15} {'written (bytes)':>16}")
    for page, (shown, caps) in PAGES.items():
        for kind in texts(1):
            params = {key: texts(cap, seed=i)[kind] for i, (key, cap) in enumerate(caps.items())}
            params |= shown
            opened = len(f"{ADDRESS}?{urlencode({'lang': 'ja', **params})}".encode())
            written = len(written_link(page, **params).encode())
            longest = max(longest, written)
            print(f"{page:<12} {kind:<10} {opened:>15,} {written:>16,}", flush=True)
    print(f"longest link written: {longest:,} bytes")


if __name__ == "__main__":
    main()
