"""Long texts in a link, packed so that every link the app writes passes a proxy.

A 2,000-character Japanese text is 18 KB percent-encoded, and many proxies (HAProxy as
shipped, with its default buffer, among them) refuse a request line over about 8 KB. A
value whose plain form is long travels instead under its key with ``.z`` added, as zlib
(deflate, level 9) in URL-safe base64 without padding: ``?text.z=eNp…``. A short value
stays plain and readable, and a link given out before packing (``?text=…``) still opens.

Unpacking is bounded: at most ``MAX_UNPACKED`` bytes come out of any value (a "zip bomb"
stops there, unread), and anything but a complete zlib stream of UTF-8 is a ``ValueError``,
which the caller shows as the link's value ignored.

A link is at most ``MAX_LINK`` bytes. Packed, the longest texts of ordinary prose fit with
room to spare; texts of thousands of rare characters (random kanji, emoji) do not compress,
and two of them on one page (the real model's sentence and its pooled lines) cannot fit in
any form, so :func:`fit` keeps the longest text's first characters that fit, and says how
many (the page tells the reader).
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from urllib.parse import quote_plus, urlencode

from attnviz.limits import MAX_TEXT_CHARS

PACKED = ".z"  # the suffix of a packed value's key
SHORT = 256  # bytes: a value's percent-encoded form up to this stays plain
MAX_LINK = 8000  # bytes: the longest link the app writes, its address included
ADDRESS = 256  # bytes kept for the address before "?": scheme, host and page
MAX_QUERY = MAX_LINK - ADDRESS - 1  # bytes of the query string after "?"
MAX_UNPACKED = 4 * MAX_TEXT_CHARS  # bytes of UTF-8 in the longest text
BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


def pack_value(text: str) -> str:
    """``text`` as zlib in URL-safe base64, padding left out."""
    packed = zlib.compress(text.encode("utf-8", "surrogatepass"), 9)
    return base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def unpack_value(packed: str) -> str:
    """The text that :func:`pack_value` packed; ``ValueError`` for anything else: not
    base64, not one whole zlib stream, more than ``MAX_UNPACKED`` bytes, not UTF-8."""
    if len(packed) > 2 * MAX_QUERY or not BASE64URL.fullmatch(packed):
        raise ValueError("not a packed text")
    try:
        data = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        stream = zlib.decompressobj()
        out = stream.decompress(data, MAX_UNPACKED + 1)  # never more than the cap
    except (binascii.Error, zlib.error) as err:
        raise ValueError("not a packed text") from err
    if len(out) > MAX_UNPACKED or stream.unconsumed_tail:
        raise ValueError("packed text too long")
    if not stream.eof or stream.unused_data:
        raise ValueError("not one whole packed text")
    return out.decode("utf-8")  # UnicodeDecodeError is a ValueError


def plain_bytes(value: str) -> int:
    """Bytes of ``value`` percent-encoded in a query string."""
    return len(quote_plus(value))


def pack(params: dict[str, str]) -> dict[str, str]:
    """``params`` with each long value packed (under ``key.z``) where that is shorter, in
    the same order."""
    out = {}
    for key, value in params.items():
        packed = pack_value(value) if plain_bytes(value) > SHORT else None
        if packed is not None and len(packed) < plain_bytes(value):
            out[key + PACKED] = packed
        else:
            out[key] = value
    return out


def unpack(params: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The plain values of a link's parameters, and the keys whose packed value is not a
    packed text (left out). A key both plain and packed takes its plain value."""
    out, bad = {}, []
    for key, value in params.items():
        if not key.endswith(PACKED) or key == PACKED:
            out[key] = value
            continue
        name = key[: -len(PACKED)]
        try:
            text = unpack_value(value)
        except ValueError:
            bad.append(name)
            continue
        out.setdefault(name, text)
    return out, bad


def query_bytes(params: dict[str, str]) -> int:
    """Bytes of the query string that ``params`` make."""
    return len(urlencode(params))


def _entry(key: str, value: str) -> int:
    """Bytes of ``key=value`` in a link, the value packed where :func:`pack` packs it."""
    return query_bytes(pack({key: value}))


def _prefix(key: str, text: str, room: int) -> int:
    """The most characters of ``text`` whose ``key=…`` entry takes at most ``room`` bytes."""
    lo, hi = 0, len(text)  # text[:lo] fits (an empty one does, in any room a key leaves)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _entry(key, text[:mid]) <= room:
            lo = mid
        else:
            hi = mid - 1
    return lo


def fit(params: dict[str, str], limit: int = MAX_QUERY) -> tuple[dict[str, str], dict]:
    """``params`` packed (:func:`pack`) into at most ``limit`` bytes of query string.

    Where the texts do not fit even packed, the room they have is shared out evenly: a text
    that needs less than its share keeps all of it and leaves the rest to the others, and
    each text over its share keeps its first characters that fit in it. Also returns
    ``{key: (characters kept, characters)}`` for each text cut."""
    packed = pack(params)
    if query_bytes(packed) <= limit:
        return packed, {}
    long = [k for k, v in params.items() if plain_bytes(v) > SHORT]
    entries = {k: _entry(k, v) for k, v in params.items()}
    room = limit - (len(params) - 1) - sum(n for k, n in entries.items() if k not in long)
    plain, cut = dict(params), {}
    ordered = sorted(long, key=entries.get)  # the shortest first: it may need less than a share
    for n, key in enumerate(ordered):
        share = room // (len(ordered) - n)
        if entries[key] > share:
            kept = _prefix(key, params[key], share)
            plain[key] = params[key][:kept]
            cut[key] = (kept, len(params[key]))
        room -= _entry(key, plain[key])
    return pack(plain), cut
