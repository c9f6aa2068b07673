"""Multi-head self-attention (S10, S12): H heads of scaled dot-product attention (or another
score) on projections of the same tokens, each head's intermediates kept in an
``AttentionTrace`` (attnviz/trace.py), never averaged."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from .attend import attend
from .limits import MAX_N, check_size, check_tokens
from .params import Init
from .scores import make_score, spec_of
from .trace import AttentionTrace


class MultiHeadAttention(nn.Module):
    """S12: A^M = [head_1, …, head_H] W^O with head_h = A_{D'}(Q W_h^Q, K W_h^K, V W_h^V).

    Args:
        D: model width. H: number of heads.
        d_head: the seed's D' (width of each head); defaults to D / H.
        score: name from ``attnviz.scores.SCORES``; ``scaled_dot`` divides by √D'.
        bias: add b_Q, b_K, b_V, b_O.
        mlp_hidden: hidden width of the ``mlp`` score. n_max: source positions of the
            ``query_only`` score. Other scores ignore both.
        seed: every parameter is drawn from a generator seeded with it.
        check_finite: check inputs for NaN and inf: True always, False never, None (default)
            on the CPU only, where the check needs no GPU synchronisation.
        dtype: ``float32`` or ``float64``. device: ``auto`` (CUDA, MPS, CPU) or a device.

    Shape:
        query (N_q, D) or (B, N_q, D); key, value (N_k, D) or (B, N_k, D).
        mask (True = may attend) broadcastable to (B, H, N_q, N_k).
        Returns out like query, and an ``AttentionTrace`` whose tensors are batched
        (B = 1 for unbatched input).
    """

    def __init__(
        self,
        D: int,
        H: int,
        d_head: int | None = None,
        *,
        score: str = "scaled_dot",
        bias: bool = True,
        mlp_hidden: int = 16,
        n_max: int = MAX_N,
        seed: int = 0,
        check_finite: bool | None = None,
        dtype: str | torch.dtype = torch.float32,
        device: str | torch.device = "auto",
    ) -> None:
        super().__init__()
        self.check_finite = check_finite
        D = check_size("D", D)
        H = check_size("H", H)
        self.spec = spec_of(score)  # what the score computes and how it is shown
        if d_head is None:
            if D % H:
                raise ValueError(
                    f"D={D} is not divisible by H={H}: choose H among the divisors "
                    "of D, or give d_head explicitly"
                )
            d_head = D // H
        d_head = check_size("d_head", d_head)
        self.D, self.H, self.d_head, self.score_name = D, H, d_head, score
        init = Init.of(seed, dtype, device)
        g = init.generator()
        # W_h^Q, W_h^K, W_h^V live side by side in one (D, 3, H, D') tensor: self-attention then
        # projects with one matmul and no copy; W_Q, W_K, W_V below are per-head views of it.
        # Each is drawn (H, D, D') in turn and stored at once, so that at most one draw is
        # held beside the tensor (the widest layers' memory).
        self.W_QKV = nn.Parameter(torch.empty(D, 3, H, d_head, dtype=init.dtype))
        with torch.no_grad():
            for i in range(3):  # Q, K, V
                self.W_QKV[:, i] = init.uniform(g, H, D, d_head, fan_in=D).transpose(0, 1)
        self.W_O = init.uniform(g, H, d_head, D, fan_in=H * d_head)  # W^O ∈ ℝ^{D'H×D}, by head
        if bias:
            self.b_QKV = init.zeros(3, H, d_head)  # b_h^Q, b_h^K, b_h^V
            self.b_O = init.zeros(D)
        else:
            self.b_QKV = self.b_O = None
        self.score = make_score(
            score, d_head, heads=H, generator=g, dtype=init.dtype, hidden=mlp_hidden, n_max=n_max
        )
        self.to(init.device)

    @property
    def W_Q(self) -> torch.Tensor:
        """W_h^Q ∈ ℝ^{D×D'} for each head: (H, D, D'), a view of ``W_QKV``."""
        return self.W_QKV[:, 0].transpose(0, 1)

    @property
    def W_K(self) -> torch.Tensor:
        """W_h^K for each head: (H, D, D'), a view of ``W_QKV``."""
        return self.W_QKV[:, 1].transpose(0, 1)

    @property
    def W_V(self) -> torch.Tensor:
        """W_h^V for each head: (H, D, D'), a view of ``W_QKV``."""
        return self.W_QKV[:, 2].transpose(0, 1)

    @property
    def b_Q(self) -> torch.Tensor | None:
        """b_h^Q for each head: (H, D'), or None without biases."""
        return None if self.b_QKV is None else self.b_QKV[0]

    @property
    def b_K(self) -> torch.Tensor | None:
        """b_h^K for each head: (H, D'), or None without biases."""
        return None if self.b_QKV is None else self.b_QKV[1]

    @property
    def b_V(self) -> torch.Tensor | None:
        """b_h^V for each head: (H, D'), or None without biases."""
        return None if self.b_QKV is None else self.b_QKV[2]

    def _project(self, x: torch.Tensor, which: slice | None = None) -> tuple[torch.Tensor, ...]:
        """x W_h + b_h for the matrices ``which`` of (Q, K, V) (None: all three), in one matmul
        with every head. All three take W_QKV whole, without indexing it: at small N the
        indexing cost as much as the rest of the projection."""
        B, N, _ = x.shape
        W, b = self.W_QKV, self.b_QKV  # (D, 3, H, D'), (3, H, D')
        if which is not None:
            W, b = W[:, which], (None if b is None else b[which])  # views
        k = W.shape[1]
        y = F.linear(x, W.reshape(self.D, -1).T, None if b is None else b.reshape(-1))
        y = y.view(B, N, k, self.H, self.d_head).permute(2, 0, 3, 1, 4)  # (k, B, H, N, D')
        return y.unbind(0)

    def forward(
        self,
        query: torch.Tensor,
        key: torch.Tensor | None = None,
        value: torch.Tensor | None = None,
        mask: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, AttentionTrace]:
        key = query if key is None else key
        value = key if value is None else value
        same = key is query and value is query  # self-attention: validate and project once
        p = self.W_QKV

        def prepare(name: str, x: torch.Tensor) -> torch.Tensor:
            x = torch.as_tensor(x, dtype=p.dtype, device=p.device)
            return check_tokens(name, x, self.D, self.check_finite)

        query = prepare("query", query)
        key, value = (query, query) if same else (prepare("key", key), prepare("value", value))
        unbatched = query.dim() == 2
        if not query.dim() == key.dim() == value.dim():
            raise ValueError("query, key and value must all be batched (B, N, D) or all (N, D)")
        if unbatched:
            query = query[None]
            key, value = (query, query) if same else (key[None], value[None])
        if key.shape[:2] != value.shape[:2] or key.shape[0] != query.shape[0]:
            raise ValueError(
                f"shape mismatch: query {tuple(query.shape)}, key {tuple(key.shape)}, "
                f"value {tuple(value.shape)} (batch and N_k must agree)"
            )
        if mask is not None:
            mask = torch.as_tensor(mask, device=p.device)
            if mask.dtype != torch.bool:
                raise ValueError("mask must be boolean (True = may attend)")
            if mask.dim() == 3:
                mask = mask[:, None]  # (B, N_q, N_k) -> (B, 1, N_q, N_k)
            target = (query.shape[0], self.H, query.shape[1], key.shape[1])
            try:
                torch.broadcast_shapes(mask.shape, target)
            except RuntimeError:
                raise ValueError(
                    f"mask of shape {tuple(mask.shape)} does not broadcast to "
                    f"(B, H, N_q, N_k) = {target}"
                ) from None

        out, trace = self.compute(query, key, value, mask)
        return (out[0] if unbatched else out), trace

    def compute(
        self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, mask: torch.Tensor | None
    ) -> tuple[torch.Tensor, AttentionTrace]:
        """The arithmetic of ``forward`` on batched, already validated tensors (no caps)."""
        if query is key is value:  # self-attention: Q, K, V = X W^Q, X W^K, X W^V (S10)
            q, k, v = self._project(query)  # each (B, H, N, D')
        else:
            (q,) = self._project(query, slice(0, 1))  # (B, H, N_q, D')
            (k,) = self._project(key, slice(1, 2))  # (B, H, N_k, D')
            (v,) = self._project(value, slice(2, 3))  # (B, H, N_k, D')
        scores = self.score(k, q)  # (B, H, N_q, N_k)
        head_out, weights = attend(scores, v, mask)  # (B, H, N_q, D'), (B, H, N_q, N_k)
        B, _, N_q, _ = head_out.shape
        concat = head_out.transpose(1, 2).reshape(B, N_q, self.H * self.d_head)  # (B, N_q, H*D')
        W_O = self.W_O.reshape(self.H * self.d_head, self.D)  # W^O ∈ ℝ^{H·D'×D}
        out = F.linear(concat, W_O.T, self.b_O)  # (B, N_q, D): concat W^O + b_O
        trace = AttentionTrace(
            q=q,
            k=k,
            v=v,
            scores=scores,
            weights=weights,
            head_out=head_out,
            concat=concat,
            W_O=self.W_O,
        )
        return out, trace
