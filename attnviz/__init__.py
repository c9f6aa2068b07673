"""attnviz: the attention chapter's equations in PyTorch, with traces of every intermediate."""

from .allocator import keep_freed_memory
from .attend import attend, scaled_dot_product_attention
from .attention import MultiHeadAttention
from .block import BlockTrace, LayerNorm, TransformerBlock
from .device import resolve_device
from .interop import from_torch
from .masks import causal_mask, padding_mask
from .positional import PositionalEncoding, sinusoidal
from .pretrained import load_pretrained
from .scores import SCORES, make_score
from .stack import TransformerStack
from .trace import AttentionTrace

__all__ = [
    "SCORES",
    "AttentionTrace",
    "BlockTrace",
    "LayerNorm",
    "MultiHeadAttention",
    "PositionalEncoding",
    "TransformerBlock",
    "TransformerStack",
    "attend",
    "causal_mask",
    "from_torch",
    "load_pretrained",
    "make_score",
    "padding_mask",
    "resolve_device",
    "scaled_dot_product_attention",
    "sinusoidal",
]

keep_freed_memory()  # see attnviz/allocator.py: freed maps stay in the heap
