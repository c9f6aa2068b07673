"""The models the real-model page offers: the shipped one, each model folder under the folder
named by ``ATTNVIZ_MODELS`` (a host mounts one in Docker), and each model of the user's
Hugging Face cache (``HF_HUB_CACHE``, ``HF_HOME``/hub or ~/.cache/huggingface/hub).

A model is chosen by its id, never by a path: a link names ``?model=gpt2-tiny`` or
``?model=hf:openai-community/gpt2``, and only a listed id reaches ``load_pretrained``, so a
URL cannot make the server read any other folder.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from ...errors import InputError
from ...model_folder import PACKAGES

SHIPPED = tuple(PACKAGES)  # the models a package ships, by name
HF_PREFIX = "hf:"  # ids of the Hugging Face cache's models


def _is_model(folder: Path) -> bool:
    return (folder / "config.json").is_file()


def _snapshot(repo: Path) -> Path | None:
    """A Hugging Face cache's ``models--org--name`` → the snapshot ``refs/main`` names (or
    the newest one holding a config.json)."""
    snapshots = repo / "snapshots"
    ref = repo / "refs" / "main"
    if ref.is_file():
        pinned = snapshots / ref.read_text().strip()
        if _is_model(pinned):
            return pinned
    found = [s for s in snapshots.glob("*") if _is_model(s)] if snapshots.is_dir() else []
    return max(found, key=lambda s: s.stat().st_mtime, default=None)


def _hub(root: Path) -> dict[str, Path]:
    """id → snapshot folder of every model in a Hugging Face hub cache ``root``."""
    out = {}
    for repo in sorted(root.glob("models--*")):
        snap = _snapshot(repo)
        if snap is not None:
            out[HF_PREFIX + repo.name.removeprefix("models--").replace("--", "/")] = snap
    return out


def hf_cache() -> Path | None:
    """The user's Hugging Face hub cache, if there is one."""
    env = os.environ
    if env.get("HF_HUB_CACHE"):
        root = Path(env["HF_HUB_CACHE"])
    elif env.get("HF_HOME"):
        root = Path(env["HF_HOME"]) / "hub"
    else:
        root = Path.home() / ".cache" / "huggingface" / "hub"
    return root if root.is_dir() else None


LISTED_FOR_S = 1.0  # found()'s listing is reused this long for the same environment
_listed: list = [None, 0.0, {}]  # [the environment it read, when, the listing]
_ENV = ("ATTNVIZ_MODELS", "HF_HUB_CACHE", "HF_HOME", "HOME")


def found() -> dict[str, str]:
    """id → what ``load_pretrained`` reads (a shipped name or a folder), in the picker's
    order: the shipped model, ``ATTNVIZ_MODELS``'s folders (a hub cache's layout too), the
    Hugging Face cache's models.

    A page asks several times a rerun: the folders are listed again after ``LISTED_FOR_S``
    (a folder added shows within it), or at once when the environment names others."""
    env = tuple(os.environ.get(name) for name in _ENV)
    now = time.monotonic()
    read, when, listing = _listed
    if read == env and now - when < LISTED_FOR_S:
        return dict(listing)
    models = _scan(os.environ.get("ATTNVIZ_MODELS"), hf_cache())
    _listed[:] = [env, now, models]
    return dict(models)


def _scan(folder: str | None, cache: Path | None) -> dict[str, str]:
    models: dict[str, str] = {name: name for name in SHIPPED}
    if folder and Path(folder).is_dir():
        root = Path(folder)
        for sub in sorted(p for p in root.iterdir() if p.is_dir()):
            if _is_model(sub):
                models.setdefault(sub.name, str(sub))
        for key, snap in _hub(root).items():
            models.setdefault(key, str(snap))
    if cache is not None:
        for key, snap in _hub(cache).items():
            models.setdefault(key, str(snap))
    return models


def resolve(model: str) -> str:
    """What ``load_pretrained`` reads for the id ``model``; InputError naming the ids found."""
    models = found()
    if model not in models:
        raise InputError(
            f"model must be one of {', '.join(models)}; got {model!r}",
            "choice",
            name="model",
            choices=", ".join(models),
            value=repr(model),
        )
    return models[model]
