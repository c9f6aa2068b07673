"""The real model's probes: a followed weight ends on the map's own cell (renormalised when
[CLS] and [SEP] are hidden), and the query–key space of one sentence or several pooled."""

import numpy as np
import pytest

from attnviz import worked
from attnviz.errors import InputError
from attnviz.lessons import real_model as rm
from attnviz.lessons.real_model import forward
from attnviz.lessons.real_model import probe as rp

from ..real import TEXT


@pytest.mark.parametrize("hide", [False, True])
def test_followed_weight_ends_on_the_maps_cell(encoded, hide):
    r = rm.run(rm.Config(text=TEXT, view="model", layer=3, head=5, hide_special=hide))
    for i, j in ((1, 2), (4, 0), (len(encoded.tokens) - 2, 3)):
        s = rp.follow(rp.Pick(TEXT, 3, 5, i, j, hide))
        assert s.steps.a_ij == pytest.approx(float(encoded.attentions[3, 5, i, j]), abs=1e-5)
        text = " ".join(s.formulas)
        assert r"\mathbf{b}_{6}^K" in text and r"\mathbf{b}^O" in text  # the model's biases
        assert rf"a_{{{i + 1},{j + 1}}}" in s.formulas[2]
        shown = i in r.keep and j in r.keep
        if hide and shown:
            cell = r.shown[list(r.keep).index(i), list(r.keep).index(j)]
            assert s.cell == pytest.approx(float(cell), abs=1e-5)
            assert s.renormalised.endswith(worked.number(s.cell))
        else:
            assert s.renormalised is None and s.cell == s.steps.a_ij
            if not hide:
                assert s.cell == pytest.approx(float(r.shown[i, j]), abs=1e-5)
    with pytest.raises(InputError):
        rp.Pick(TEXT, i=len(encoded.tokens))


def test_pooled_query_key_space_stacks_every_sentence_and_caps_them():
    more = ("The cat sat on the mat.", "Attention is all you need.")
    q = rp.qk(rp.Probe(TEXT, layer=4, head=3, query=2, k=3, more=more))
    lengths = [len(forward.encode(t)[0].tokens) for t in (TEXT, *more)]
    assert q.space.queries.shape == (sum(lengths), 2) and len(q.tokens) == sum(lengths)
    assert np.bincount(q.space.sentence).tolist() == lengths
    assert (q.space.sentence[q.space.top_keys] == 0).all()  # query 2 of sentence 1 reads it
    single = rp.qk(rp.Probe(TEXT, layer=4, head=3, query=2, k=3))
    np.testing.assert_allclose(
        single.space.top_weights,
        np.sort(forward.encode(TEXT)[0].attentions[4, 3, 2])[::-1][:3],
        atol=1e-6,
    )
    with pytest.raises(InputError) as err:
        rp.Probe(TEXT, more=("a.",) * (rp.MAX_POOLED_LINES + 1))
    assert err.value.key == "pooled_lines"
    with pytest.raises(InputError) as err:
        rp.Probe(TEXT, more=("word " * 300, "word " * 300))
    assert err.value.key == "pooled_tokens" and err.value.fields["hi"] == rp.MAX_POOLED_TOKENS
    with pytest.raises(InputError):
        rp.Probe(TEXT, more=("   ",))


def test_query_key_space_decodes_to_the_heads_own_q_and_k():
    """Layer 5, head 4: the points are the model's q = x W^Q + b^Q and k = x W^K + b^K of
    what the layer's attention read, each set centred, on the top two principal axes."""
    q = rp.qk(rp.Probe(TEXT, layer=4, head=3, query=2, k=3))
    mha = forward.model().stack.blocks[4].attn
    x = forward.encode(TEXT)[2][4].astype(np.float64)  # layer 5's attention input
    Q = x @ mha.W_Q[3].double().numpy() + mha.b_Q[3].double().numpy()
    K = x @ mha.W_K[3].double().numpy() + mha.b_K[3].double().numpy()
    P = np.linalg.svd(np.concatenate([Q - Q.mean(0), K - K.mean(0)]))[2][:2].T  # (D', 2)
    for got, vectors in ((q.space.queries, Q - Q.mean(0)), (q.space.keys, K - K.mean(0))):
        want = vectors @ P
        for c in range(2):
            sign = np.sign(np.dot(got[:, c], want[:, c]))
            np.testing.assert_allclose(got[:, c], sign * want[:, c], atol=1e-5)
