"""A headless Streamlit client: speaks the browser's websocket protocol (protobuf BackMsg /
ForwardMsg on ``/_stcore/stream``) so that many classroom sessions fit on one small machine.

It does what the browser's JavaScript does for the server: fetch the page, open the
stream with the ``streamlit`` subprotocol and a same-origin ``Origin``, send a
``rerun_script`` with the page name, query string and every widget value it has set,
and read ForwardMsgs until ``script_finished``. It measures the server's side of an
interaction (send → last message of the run); drawing in a browser comes on top.

Each run yields a ``View``: the widgets on the page, the exceptions shown, and a
fingerprint of every element the run drew (two sessions in the same state must see the
same fingerprint; a leak between sessions changes it).

Like a browser, a session keeps the cookies it is given (a load balancer's stickiness
cookie) and sends them with every request, and it can reconnect its websocket to the
server-side session it had (``open(resume=True)``), as the browser does after a blip.

Like a browser, it keeps the large messages the server marks cacheable and names them in
each rerun, so that the server sends a reference to one it has sent before, not the
element again; they age out as the browser's do (``global.maxCachedMessageAge`` runs
unused). And a light session, like the browser, reruns only the fragment of a widget it
changed (``st.fragment``): its view then holds the page's widgets as they stand, the
fragment's drawn again and the rest kept from earlier runs.
"""

from __future__ import annotations

import asyncio
import hashlib
import http.cookiejar
import json
import time
import urllib.request
from dataclasses import dataclass, field

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from ui.page_run import ONCE_ICONS
from ui.way_back import LANDING

WIDGETS = ("slider", "selectbox", "radio", "checkbox", "number_input", "text_input")
FINISHED_OK = ForwardMsg.FINISHED_SUCCESSFULLY
FINISHED_FRAGMENT = ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
MAX_CACHED_AGE = 2  # runs a cached message stays unused: Streamlit's global.maxCachedMessageAge


@dataclass
class View:
    """What one script run showed."""

    widgets: dict = field(default_factory=dict)  # widget id -> (kind, proto)
    fragments: dict = field(default_factory=dict)  # widget id -> its fragment's id ("": none)
    exceptions: list = field(default_factory=list)  # exception messages shown
    fingerprint: str = ""
    # What the page shows, as a fingerprint: the same without the controls' own messages,
    # which differ in how a value came (sent by the browser, or set from the URL) but not
    # in what is shown (each control counts by its id; the values are in the URL as the
    # run leaves it, and in the share link), and without placeholders left empty.
    content: str = ""
    final: dict = field(default_factory=dict)  # delta path -> what the page shows there
    controls: dict = field(default_factory=dict)  # delta path -> id of the widget there
    blanks: set = field(default_factory=set)  # delta paths of elements left empty
    status: int | None = None
    seconds: float = 0.0
    nbytes: int = 0
    query: str | None = None  # the query string the run wrote into the URL, if any
    links: list = field(default_factory=list)  # (url path, query string, label) of page links
    session_id: str = ""  # the server's id of the session that ran it


class Session:
    """One visitor: one websocket, one Streamlit session."""

    def __init__(self, url: str, locale: str = "en-US", *, light: bool = False):
        self.url = url.rstrip("/")
        self.locale = locale
        # light: read only the widgets and exceptions of a run, no fingerprint (a bench's
        # many clients then cost the machine little beside the server they measure)
        self.light = light
        self.states: dict[str, tuple[str, object]] = {}  # widget id -> (field, value)
        self.widgets: dict[str, tuple[str, object]] = {}  # the page's widgets (light)
        self.fragments: dict[str, str] = {}  # widget id -> its fragment's id, "" for none
        self.changed: set[str] = set()  # widgets set since the last run
        # the browser's message cache: hash -> (message, run count last used, fragment id)
        self.cache: dict[str, tuple[bytes, int, str]] = {}
        self.runs = 0
        self.ws = None
        self.jar = http.cookiejar.CookieJar()
        self.session_id = ""  # the server's id of this session (from its last run)

    async def open(self, resume: bool = False) -> None:
        """Load the page and open the stream. With ``resume``, ask the server for the
        session this client had (the browser's reconnect); a server that does not know
        it starts a new one."""
        host = self.url.split("://", 1)[1]
        await asyncio.to_thread(self.get, "/")  # the page itself (index.html)
        protocols = ["streamlit"]
        if resume and self.session_id:
            xsrf = self.cookie("_streamlit_xsrf") or "-"  # 2nd entry: XSRF token, 3rd: id
            protocols += [xsrf, self.session_id]
        cookies = self._cookie_header("/_stcore/stream")
        self.ws = await websockets.connect(
            f"ws://{host}/_stcore/stream",
            subprotocols=protocols,
            origin=self.url,
            additional_headers={"Cookie": cookies} if cookies else None,
            max_size=None,
            open_timeout=30,
            ping_interval=None,
        )

    def get(self, path: str) -> bytes:
        """GET ``path`` of the app with this session's cookies (kept as a browser does)."""
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        with opener.open(f"{self.url}{path}", timeout=30) as r:
            return r.read()

    def cookie(self, name: str) -> str | None:
        """The value of the cookie ``name`` this session holds, if any."""
        return next((c.value for c in self.jar if c.name == name), None)

    def _cookie_header(self, path: str) -> str:
        req = urllib.request.Request(f"{self.url}{path}")
        self.jar.add_cookie_header(req)
        return req.get_header("Cookie", "")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def run(self, page: str, query: str = "", timeout: float = 120.0) -> View:
        """Send one rerun (page + all widget values set so far); read until it finishes."""
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = query
        cs.page_name = page
        cs.context_info.locale = self.locale
        cs.context_info.timezone = "UTC"
        cs.context_info.url = f"{self.url}/{page}"
        cs.cached_message_hashes.extend(self.cache)
        fragment = self._fragment()
        cs.fragment_id = fragment
        self.changed = set()
        for wid, (kind, value) in self.states.items():
            w = cs.widget_states.widgets.add()
            w.id = wid
            if kind in ("double_array_value", "string_array_value"):
                getattr(w, kind).data.extend(value)
            else:
                setattr(w, kind, value)
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        view, digest = View(), hashlib.sha256()  # digest: the URL it writes
        async with asyncio.timeout(timeout):
            while True:
                raw = await self.ws.recv()
                view.nbytes += len(raw)
                fwd = self._cached(raw)
                kind = fwd.WhichOneof("type")
                if kind == "delta" and self.light:
                    _read_widgets(fwd, view)
                elif kind == "delta":
                    _read_delta(fwd, view)
                elif kind == "page_info_changed":
                    view.query = fwd.page_info_changed.query_string
                    digest.update(b"q" + view.query.encode())
                elif kind == "new_session":
                    view.session_id = self.session_id = fwd.new_session.initialize.session_id
                elif kind == "script_finished":
                    view.status = fwd.script_finished
                    if view.status != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                        self._age_cache(fragment)
                        break
        view.seconds = time.perf_counter() - t0
        for path in sorted(view.final):  # the page as it stands when the run ends
            digest.update(repr(path).encode() + b"|" + view.final[path])
        # the URL in the end: as written by the run, else as the run found it (a run that
        # leaves the URL as it was writes nothing, and the browser keeps its address)
        url_query = view.query if view.query is not None else query
        content = hashlib.sha256(b"q" + url_query.encode())
        for place, shown in _as_shown(view):
            content.update(repr(place).encode() + b"|" + shown)
        view.fingerprint = digest.hexdigest()[:16]
        view.content = content.hexdigest()[:16]
        if fragment:  # the page's other widgets stand as the last runs drew them
            kept = {k: w for k, w in self.widgets.items() if self.fragments.get(k) != fragment}
            view.widgets = kept | view.widgets
            view.fragments = {k: self.fragments[k] for k in kept} | view.fragments
        self.widgets, self.fragments = dict(view.widgets), dict(view.fragments)
        # Like the browser, keep only the values of widgets this run drew, and take a text
        # the server set in place of the one sent (a long text cut to its cap): sent again
        # uncut, it would be cut, and told of, on every run.
        self.states = {k: v for k, v in self.states.items() if k in view.widgets}
        for wid, (kind, proto) in view.widgets.items():
            if wid in self.states and kind == "text_input" and proto.set_value:
                self.states[wid] = ("string_value", proto.value)
        return view

    def set(self, wid: str, kind: str, value: object) -> None:
        """Give widget ``wid`` a new value (sent with the next run, as the browser does)."""
        self.states[wid] = (kind, value)
        self.changed.add(wid)

    def _fragment(self) -> str:
        """The fragment the next run is scoped to, as the browser scopes it: a light
        session's change of widgets all in one fragment reruns that fragment alone."""
        held = {self.fragments.get(w, "") for w in self.changed}
        return held.pop() if self.light and len(held) == 1 else ""

    def _cached(self, raw: bytes) -> ForwardMsg:
        """``raw`` as a ForwardMsg, kept if the server marks it cacheable; a reference to
        one kept is that message, at the reference's place (the browser's ForwardMsgCache)."""
        fwd = ForwardMsg()
        fwd.ParseFromString(raw)
        if fwd.WhichOneof("type") == "ref_hash":
            kept, _, fragment = self.cache[fwd.ref_hash]
            self.cache[fwd.ref_hash] = (kept, self.runs, fragment)
            ref = fwd
            fwd = ForwardMsg()
            fwd.ParseFromString(kept)
            fwd.metadata.CopyFrom(ref.metadata)
        elif fwd.metadata.cacheable:
            self.cache[fwd.hash] = (raw, self.runs, fwd.delta.fragment_id)
        return fwd

    def _age_cache(self, fragment: str) -> None:
        """A run ended: drop the cached messages unused for ``MAX_CACHED_AGE`` runs (after a
        fragment's run, only that fragment's), as the browser does."""
        self.runs += 1
        for h, (_, used, held) in list(self.cache.items()):
            if (not fragment or held == fragment) and self.runs - used > MAX_CACHED_AGE:
                del self.cache[h]


def _as_shown(view: View) -> list[tuple[tuple, bytes]]:
    """(place, element) for what the page shows. An element left empty (a placeholder
    that its run did not fill) shows nothing: it is dropped, and the elements after it
    in its container move up one place, as they do on the screen."""
    kept = [p for p in view.final if p not in view.blanks]
    children: dict[tuple, set] = {}
    for p in kept:
        for i in range(len(p)):
            children.setdefault(p[:i], set()).add(p[i])
    rank = {parent: {j: n for n, j in enumerate(sorted(js))} for parent, js in children.items()}
    shown = []
    for p in kept:
        place = tuple(rank[p[:i]][p[i]] for i in range(len(p)))
        shown.append((place, view.controls[p].encode() if p in view.controls else view.final[p]))
    return sorted(shown)


def _read_widgets(fwd: ForwardMsg, view: View) -> None:
    """Record a delta's widget or exception only (``Session(light=True)``)."""
    if fwd.delta.WhichOneof("type") != "new_element":
        return
    el = fwd.delta.new_element
    etype = el.WhichOneof("type")
    if etype == "exception":
        view.exceptions.append(f"{el.exception.type}: {el.exception.message}")
    if etype in WIDGETS:
        proto = getattr(el, etype)
        view.widgets[proto.id] = (etype, proto)
        view.fragments[proto.id] = fwd.delta.fragment_id


def _read_delta(fwd: ForwardMsg, view: View) -> None:
    """Record what the delta puts at its place on the page. Intermediate states (a
    progress bar while a cache fills) are overwritten: only the end state counts."""
    path = tuple(fwd.metadata.delta_path)
    delta = fwd.delta
    which = delta.WhichOneof("type")
    if which == "new_element":
        el = delta.new_element
        etype = el.WhichOneof("type")
        view.controls.pop(path, None)
        view.blanks.discard(path)
        if etype == "page_link":
            view.links.append((el.page_link.page, el.page_link.query_string, el.page_link.label))
        landing = etype == "bidi_component" and el.bidi_component.component_name == LANDING
        if landing or etype == "empty" or (etype == "alert" and el.alert.icon in ONCE_ICONS):
            # a placeholder left empty; the notice of a control moved or a text cut: it tells
            # of the change, once, and a link to the view (its URL holding the value as it
            # now is) opens the view without it; the scroll to a tour stop's section, which
            # moves the browser on arriving and draws nothing
            view.blanks.add(path)
        if etype == "exception":
            view.exceptions.append(f"{el.exception.type}: {el.exception.message}")
        if etype in WIDGETS:
            proto = getattr(el, etype)
            view.widgets[proto.id] = (etype, proto)
            view.fragments[proto.id] = delta.fragment_id
            view.controls[path] = proto.id
        if etype == "download_button" and el.download_button.deferred_file_id:
            # Data made on click: its file id is a fresh uuid on every run.
            el.download_button.deferred_file_id = ""
        if etype == "plotly_chart" and el.plotly_chart.spec:
            # Same figure, same view: key order in the JSON may differ (a figure served
            # from st.cache_data is rebuilt from a pickle), so compare it canonically.
            spec = json.loads(el.plotly_chart.spec)
            el.plotly_chart.spec = json.dumps(spec, sort_keys=True)
        if etype == "bidi_component" and el.bidi_component.WhichOneof("data") == "json":
            # "order" numbers a component's data within its session (ui.components.ordered):
            # what the page shows is the rest
            payload = json.loads(el.bidi_component.json)
            payload.pop("order", None)
            el.bidi_component.json = json.dumps(payload, sort_keys=True)
        view.final[path] = el.SerializeToString(deterministic=True)
    elif which == "add_block":
        view.controls.pop(path, None)
        view.blanks.discard(path)
        view.final[path] = b"b" + delta.add_block.SerializeToString(deterministic=True)


def next_value(kind: str, proto, rng, max_frac: float = 0.25):
    """A new value for a widget, as the browser would send it: (state field, value).

    Numbers move within the lower ``max_frac`` of their range (students stay near the
    defaults; the engine's caps bound the rest); choices take another option.
    """
    n = max(1, len(proto.default)) if kind == "slider" else 1  # a range slider has two
    if kind == "slider" and proto.options:  # st.select_slider: formatted option strings
        top = max(1, round(len(proto.options) * max_frac))
        picks = sorted(rng.randrange(top + 1) for _ in range(n))
        return "string_array_value", [proto.options[min(i, len(proto.options) - 1)] for i in picks]
    if kind == "slider":
        lo, hi = proto.min, proto.max
        top = min(hi, lo + max(1.0, (hi - lo) * max_frac))
        vals = sorted(rng.uniform(lo, top) for _ in range(n))
        if proto.data_type in (proto.INT, 0):
            vals = [float(round(v)) for v in vals]
        return "double_array_value", vals
    if kind == "number_input":
        lo = proto.min if proto.has_min else 0
        hi = proto.max if proto.has_max else lo + 100
        return "double_value", float(rng.randint(int(lo), int(lo + (hi - lo) * max_frac) or 1))
    if kind in ("selectbox", "radio"):
        return "string_value", rng.choice(list(proto.options))
    if kind == "checkbox":
        return "bool_value", not proto.value if proto.set_value else not proto.default
    if kind == "text_input":
        return "string_value", rng.choice(
            [
                "the cat sat on the mat",
                "attention is all you need",
                "猫が座った",
                "queries keys values",
            ]
        )
    raise ValueError(kind)
