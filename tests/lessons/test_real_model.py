"""The real-model lesson: rollout's laws, combining and hiding, its config's rules (L and H
from the model itself), the maps it returns against the model's own, and its formulas."""

import numpy as np
import pytest

import attnviz
from attnviz import formulas, sinks
from attnviz.errors import InputError
from attnviz.lessons import real_model as rm
from attnviz.tables import long_table
from attnviz.text import token_labels

TEXT = "The quick brown fox jumps over the lazy dog."


@pytest.fixture(scope="module")
def encoded():
    return attnviz.load_pretrained("all-MiniLM-L6-v2").encode(TEXT)


def test_rollout_laws():
    rng = np.random.default_rng(0)
    A = rng.random((4, 3, 5, 5))
    A /= A.sum(-1, keepdims=True)
    R = rm.rollout(A)
    assert R.shape == (4, 5, 5)
    np.testing.assert_allclose(R.sum(-1), 1.0, atol=1e-6)
    first = 0.5 * A[0].mean(0) + 0.5 * np.eye(5)  # rows of mean + I sum to 2
    np.testing.assert_allclose(R[0], first, atol=1e-6)
    second = (0.5 * A[1].mean(0) + 0.5 * np.eye(5)) @ first
    np.testing.assert_allclose(R[1], second, atol=1e-6)
    np.testing.assert_allclose(rm.rollout(np.broadcast_to(np.eye(5), (3, 2, 5, 5)))[-1], np.eye(5))
    with pytest.raises(ValueError, match="L, H, N, N"):
        rm.rollout(A[0])


def test_combine_and_hide():
    W = np.stack([np.eye(3), np.full((3, 3), 1 / 3)]).astype(np.float32)
    np.testing.assert_allclose(rm.combine_heads(W, "mean"), (np.eye(3) + 1 / 3) / 2)
    np.testing.assert_allclose(rm.combine_heads(W, "max"), np.maximum(np.eye(3), 1 / 3))
    with pytest.raises(ValueError, match="how"):
        rm.combine_heads(W, "sum")
    assert sinks.kept_positions(["[CLS]", "a", "b", "[SEP]"], rm.HIDDEN).tolist() == [1, 2]
    assert sinks.kept_positions(["[CLS]", "[SEP]"], rm.HIDDEN).tolist() == [0, 1]


def test_layer_and_head_bounds_come_from_the_model():
    model = attnviz.load_pretrained("all-MiniLM-L6-v2")
    assert rm.size() == (model.L, model.H) == (6, 12)
    rm.Config(text=TEXT, layer=model.L - 1, head=model.H - 1)
    for field, value in (("layer", model.L), ("head", model.H), ("layer", -1)):
        with pytest.raises(InputError) as err:
            rm.Config(text=TEXT, **{field: value})
        assert err.value.key == "range" and err.value.fields["name"] == field
    assert err.value.fields["hi"] == model.L - 1


@pytest.mark.parametrize(
    ("fields", "key"),
    [
        (dict(text="   "), "no_tokens"),
        (dict(text="a" * 2001), "text_long"),
        (dict(text=TEXT, view="heads"), "choice"),
        (dict(text=TEXT, view="head", combine="sum"), "choice"),
    ],
)
def test_bad_configs_name_their_rule(fields, key):
    with pytest.raises(InputError) as err:
        rm.Config(**fields)
    assert err.value.key == key


def test_one_head_is_the_models_own_weights(encoded):
    r = rm.run(rm.Config(text=TEXT, view="head", layer=4, head=7))
    assert r.tokens == encoded.tokens
    np.testing.assert_array_equal(r.shown, encoded.attentions[4, 7])
    assert r.keep.tolist() == list(range(len(encoded.tokens))) and r.zmax == 1.0
    assert r.labels[1] == f"2:{encoded.tokens[1]}" and r.mosaic is None and r.png is None


def hidden(maps: np.ndarray, keep: list[int]) -> np.ndarray:
    """The maps without [CLS]/[SEP], each row rescaled to 1: the oracle for hiding."""
    kept = maps[..., keep, :][..., keep]
    return kept / kept.sum(-1, keepdims=True)


@pytest.mark.parametrize("how", ["mean", "max"])
def test_combined_heads_without_special_tokens_are_renormalised(encoded, how):
    r = rm.run(rm.Config(text=TEXT, view="head", layer=1, combine=how, hide_special=True))
    keep = [i for i, tok in enumerate(encoded.tokens) if tok not in ("[CLS]", "[SEP]")]
    heads = hidden(encoded.attentions[1].astype(np.float64), keep)  # each head, then combined
    want = heads.mean(0) if how == "mean" else heads.max(0)
    np.testing.assert_allclose(r.shown, want, atol=1e-6)
    if how == "mean":
        np.testing.assert_allclose(r.shown.sum(1), 1.0, atol=1e-5)
    assert r.keep.tolist() == keep and r.shown_tokens == [encoded.tokens[i] for i in keep]
    assert r.labels[0] == f"2:{encoded.tokens[1]}" and r.zmax == pytest.approx(want.max())
    assert r.formulas == [
        formulas.REAL_HEAD,
        formulas.heads_combined(how),
        formulas.HIDE_RENORMALISE,
    ]


def test_one_head_without_special_tokens_is_renormalised(encoded):
    r = rm.run(rm.Config(text=TEXT, view="model", layer=4, head=7, hide_special=True))
    keep = [i for i, tok in enumerate(encoded.tokens) if tok not in ("[CLS]", "[SEP]")]
    np.testing.assert_allclose(r.shown, hidden(encoded.attentions[4, 7], keep), atol=1e-6)
    np.testing.assert_allclose(r.shown.sum(1), 1.0, atol=1e-5)


def test_rollout_view_follows_the_law(encoded):
    r = rm.run(rm.Config(text=TEXT, view="rollout", layer=5))
    np.testing.assert_allclose(r.shown, rm.rollout(encoded.attentions)[5], atol=1e-6)
    np.testing.assert_allclose(r.shown.sum(1), 1.0, atol=1e-5)


def test_model_view_holds_the_mosaic_of_every_head(encoded):
    r = rm.run(rm.Config(text=TEXT, view="model", layer=3, head=2))
    assert (r.mosaic.rows, r.mosaic.cols, r.mosaic.cell) == (6, 12, len(encoded.tokens))
    assert r.png.startswith(b"\x89PNG") and r.png == r.mosaic.png()
    np.testing.assert_array_equal(r.shown, encoded.attentions[3, 2])


def test_all_heads_table_up_to_its_cap(encoded):
    r = rm.run(rm.Config(text=TEXT))
    np.testing.assert_array_equal(r.attentions, encoded.attentions)
    labels = token_labels(r.tokens, escape=False)
    table = long_table(r.attentions, labels, "weight", lead=("layer", "head"))
    row = table[(table["layer"] == 2) & (table["head"] == 5)].iloc[
        len(labels) + 3
    ]  # query 1, key 3
    assert (row.query, row.key) == (labels[1], labels[3])
    assert row.weight == encoded.attentions[2, 5, 1, 3]
    long = rm.run(rm.Config(text="word " * (rm.CSV_ALL_MAX_N - 1)))  # N = CSV_ALL_MAX_N + 1
    assert len(long.tokens) == rm.CSV_ALL_MAX_N + 1 and long.attentions is None


def test_picking_a_head_or_view_does_not_re_encode():
    text = "Only this test encodes this sentence."
    rm.run(rm.Config(text=text, view="model"))
    encodes, mosaics = rm.encode.cache_info().misses, rm.model_mosaic.cache_info().misses
    for layer, head in ((0, 0), (5, 11), (3, 4)):
        rm.run(rm.Config(text=text, view="model", layer=layer, head=head))
        rm.run(rm.Config(text=text, view="head", layer=layer, head=head, combine="mean"))
        rm.run(rm.Config(text=text, view="rollout", layer=layer, hide_special=True))
    assert rm.encode.cache_info().misses == encodes
    assert rm.model_mosaic.cache_info().misses == mosaics


def test_cached_arrays_are_read_only():
    r = rm.run(rm.Config(text=TEXT))
    with pytest.raises(ValueError, match="read-only"):
        r.attentions[0, 0, 0, 0] = 2.0
    with pytest.raises(ValueError, match="read-only"):
        r.mosaic.rgb[0, 0, 0] = 0


@pytest.mark.parametrize("view", rm.VIEWS)
def test_formulas_are_those_of_the_view_computed(view):
    r = rm.run(rm.Config(text=TEXT, view=view))
    assert r.formulas == [formulas.ROLLOUT if view == "rollout" else formulas.REAL_HEAD]
    text = " ".join(r.formulas)
    assert ("b}^Q_h" in text) == (view != "rollout")  # the model's query bias b^Q
    assert ("rownorm" in text) == (view == "rollout")
    assert "ReLU" not in text and "max(0" not in text


@pytest.mark.parametrize("hide", [False, True])
def test_sink_shares_and_the_rest_add_up_to_one(encoded, hide):
    view = rm.run(rm.Config(text=TEXT, hide_special=hide)).sinks
    assert view.shares.shape == (4, 6, 12)
    np.testing.assert_allclose(view.shares.sum(0), 1.0, atol=1e-5)
    np.testing.assert_allclose(view.moved.sum(0), 1.0, atol=1e-6)
    if hide:
        np.testing.assert_allclose(view.shares[:2], 0.0)  # [CLS] and [SEP] are gone
        assert view.formulas[0] == formulas.HIDE_RENORMALISE
    cls = encoded.attentions[..., 0].mean(-1)  # (L, H): mean weight on position 0, [CLS]
    np.testing.assert_allclose(view.raw[0], cls, atol=1e-6)


def test_the_sink_is_cls_and_carries_little_of_what_it_takes(encoded):
    """The page's sentence about why heads park weight: true for this model and sentence."""
    view = rm.run(rm.Config(text=TEXT)).sinks
    assert view.sink == "cls" and 0.3 < view.weight < 0.7 and view.idle
    model = rm.model()
    layer, head = 2, 4
    x = rm.encode(TEXT)[2][layer].astype(np.float64)  # what layer 3's attention read
    mha = model.stack.blocks[layer].attn
    v = x @ mha.W_V[head].double().numpy() + mha.b_V[head].double().numpy()  # (N, D')
    norms = np.linalg.norm(v @ mha.W_O[head].double().numpy(), axis=1)  # ‖v_j W_h^O‖
    a = encoded.attentions[layer, head].astype(np.float64)
    want = ((a[:, 0] * norms[0]) / (a * norms).sum(1)).mean()
    assert view.moved[0, layer, head] == pytest.approx(want, abs=1e-5)
    table = rm.sink_table(view, list(sinks.CATEGORIES))
    assert len(table) == 4 * 6 * 12 and table["layer"].min() == 1 and table["head"].max() == 12


def test_japanese_is_read_as_english_wordpiece():
    r = rm.run(rm.Config(text="猫がマットの上に座った。"))
    assert r.japanese and "[UNK]" in r.tokens and any(t.startswith("##") for t in r.tokens)
    assert not rm.run(rm.Config(text=TEXT)).japanese
