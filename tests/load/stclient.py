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
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
import urllib.request
from dataclasses import dataclass, field

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

WIDGETS = ("slider", "selectbox", "radio", "checkbox", "number_input", "text_input")
FINISHED_OK = ForwardMsg.FINISHED_SUCCESSFULLY


@dataclass
class View:
    """What one script run showed."""

    widgets: dict = field(default_factory=dict)  # widget id -> (kind, proto)
    exceptions: list = field(default_factory=list)  # exception messages shown
    fingerprint: str = ""
    final: dict = field(default_factory=dict)  # delta path -> what the page shows there
    status: int | None = None
    seconds: float = 0.0
    nbytes: int = 0


class Session:
    """One visitor: one websocket, one Streamlit session."""

    def __init__(self, url: str, locale: str = "en-US"):
        self.url = url.rstrip("/")
        self.locale = locale
        self.states: dict[str, tuple[str, object]] = {}  # widget id -> (field, value)
        self.ws = None

    async def open(self) -> None:
        host = self.url.split("://", 1)[1]
        await asyncio.to_thread(_get, f"{self.url}/")  # the page itself (index.html)
        self.ws = await websockets.connect(
            f"ws://{host}/_stcore/stream",
            subprotocols=["streamlit"],
            origin=self.url,
            max_size=None,
            open_timeout=30,
            ping_interval=None,
        )

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
                fwd = ForwardMsg()
                fwd.ParseFromString(raw)
                kind = fwd.WhichOneof("type")
                if kind == "delta":
                    _read_delta(fwd, view)
                elif kind == "page_info_changed":
                    digest.update(b"q" + fwd.page_info_changed.query_string.encode())
                elif kind == "script_finished":
                    view.status = fwd.script_finished
                    if view.status != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                        break
        view.seconds = time.perf_counter() - t0
        for path in sorted(view.final):  # the page as it stands when the run ends
            digest.update(repr(path).encode() + b"|" + view.final[path])
        view.fingerprint = digest.hexdigest()[:16]
        # Like the browser, keep only the values of widgets this run drew.
        self.states = {k: v for k, v in self.states.items() if k in view.widgets}
        return view

    def set(self, wid: str, kind: str, value: object) -> None:
        """Give widget ``wid`` a new value (sent with the next run, as the browser does)."""
        self.states[wid] = (kind, value)


def _read_delta(fwd: ForwardMsg, view: View) -> None:
    """Record what the delta puts at its place on the page. Intermediate states (a
    progress bar while a cache fills) are overwritten: only the end state counts."""
    path = tuple(fwd.metadata.delta_path)
    delta = fwd.delta
    which = delta.WhichOneof("type")
    if which == "new_element":
        el = delta.new_element
        etype = el.WhichOneof("type")
        if etype == "exception":
            view.exceptions.append(f"{el.exception.type}: {el.exception.message}")
        if etype in WIDGETS:
            proto = getattr(el, etype)
            view.widgets[proto.id] = (etype, proto)
        if etype == "download_button" and el.download_button.deferred_file_id:
            # Data made on click: its file id is a fresh uuid on every run.
            el.download_button.deferred_file_id = ""
        if etype == "plotly_chart" and el.plotly_chart.spec:
            # Same figure, same view: key order in the JSON may differ (a figure served
            # from st.cache_data is rebuilt from a pickle), so compare it canonically.
            spec = json.loads(el.plotly_chart.spec)
            el.plotly_chart.spec = json.dumps(spec, sort_keys=True)
        view.final[path] = el.SerializeToString(deterministic=True)
    elif which == "add_block":
        view.final[path] = b"b" + delta.add_block.SerializeToString(deterministic=True)


def _get(url: str) -> None:
    with urllib.request.urlopen(url, timeout=30) as r:
        r.read()


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
