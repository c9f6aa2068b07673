"""Model families, one file each (``bert``, ``gpt2``): a third is one new file here that
defines ``FAMILY``, found when the package is imported. ``family_of(config)`` picks the
family that reads a config.json."""

from __future__ import annotations

import importlib
import pkgutil

from ..errors import InputError
from .base import ROLES, Arch, Checkpoint, Family

MODULES = tuple(m.name for m in pkgutil.iter_modules(__path__) if m.name != "base")
FAMILIES: dict[str, Family] = {
    m: importlib.import_module(f".{m}", __name__).FAMILY for m in MODULES
}


def family_of(config: dict) -> Family:
    """The family whose ``model_types`` holds the config's ``model_type``; InputError
    naming it and the supported ones otherwise."""
    kind = config.get("model_type")
    for family in FAMILIES.values():
        if kind in family.model_types:
            return family
    supported = ", ".join(t for f in FAMILIES.values() for t in f.model_types)
    raise InputError(
        f"the architecture {kind!r} is not supported (supported: {supported})",
        "model_arch",
        arch=repr(kind),
        supported=supported,
    )


__all__ = ["FAMILIES", "ROLES", "Arch", "Checkpoint", "Family", "family_of"]
