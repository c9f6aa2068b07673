"""Fixtures shared by the lessons' tests."""

import pytest

import attnviz

from .real import TEXT


@pytest.fixture(scope="session")
def encoded():
    """The real model's own encoding of ``real.TEXT``: the oracle of the real-model lessons."""
    return attnviz.load_pretrained("all-MiniLM-L6-v2").encode(TEXT)
