"""The real-model lesson: combining and hiding, its config's rules (L and H
from the model itself), the maps it returns against the model's own, and its formulas."""

import numpy as np
import pytest

import attnviz
from attnviz import formulas, sinks
from attnviz.errors import InputError
from attnviz.lessons import real_model as rm
from attnviz.lessons.real_model import forward
from attnviz.lessons.real_model import sinks as real_sinks
from attnviz.tables import long_table
from attnviz.text import token_labels

from .real import TEXT


def test_combine_and_hide():
    W = np.stack([np.eye(3), np.full((3, 3), 1 / 3)]).astype(np.float32)
    np.testing.assert_allclose(rm.combine_heads(W, "mean"), (np.eye(3) + 1 / 3) / 2)
    np.testing.assert_allclose(rm.combine_heads(W, "max"), np.maximum(np.eye(3), 1 / 3))
    with pytest.raises(ValueError, match="how"):
        rm.combine_heads(W, "sum")
    assert sinks.kept_positions(["[CLS]", "a", "b", "[SEP]"], real_sinks.HIDDEN).tolist() == [1, 2]
    assert sinks.kept_positions(["[CLS]", "[SEP]"], real_sinks.HIDDEN).tolist() == [0, 1]


def test_layer_and_head_bounds_come_from_the_model():
    model = attnviz.load_pretrained("all-MiniLM-L6-v2")
    assert forward.size() == (model.L, model.H) == (6, 12)
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
    np.testing.assert_allclose(r.shown, forward.rollout(encoded.attentions)[5], atol=1e-6)
    np.testing.assert_allclose(r.shown.sum(1), 1.0, atol=1e-5)


def test_model_view_holds_the_mosaic_of_every_head(encoded):
    r = rm.run(rm.Config(text=TEXT, view="model", layer=3, head=2))
    assert (r.mosaic.rows, r.mosaic.cols, r.mosaic.cell) == (6, 12, len(encoded.tokens))
    assert r.png.startswith(b"\x89PNG") and r.png == r.mosaic.png()
    np.testing.assert_array_equal(r.shown, encoded.attentions[3, 2])


def test_all_heads_table_up_to_its_cap(encoded):
    r = rm.run(rm.Config(text=TEXT))
    np.testing.assert_array_equal(r.maps, encoded.attentions)
    labels = token_labels(r.tokens, escape=False)
    table = long_table(r.maps, labels, "weight", lead=("layer", "head"))
    row = table[(table["layer"] == 3) & (table["head"] == 6)].iloc[  # from 1, as shown
        len(labels) + 3
    ]  # query 1, key 3 (from 0)
    assert (row.query, row.key) == (labels[1], labels[3])
    assert row.weight == encoded.attentions[2, 5, 1, 3]
    long = rm.run(rm.Config(text="word " * (rm.CSV_ALL_MAX_N - 1)))  # N = CSV_ALL_MAX_N + 1
    assert len(long.tokens) == rm.CSV_ALL_MAX_N + 1 and long.maps is None


def test_picking_a_head_or_view_does_not_re_encode():
    text = "Only this test encodes this sentence."
    rm.run(rm.Config(text=text, view="model"))
    encodes, mosaics = forward._encode.cache_info().misses, rm._model_mosaic.cache_info().misses
    for layer, head in ((0, 0), (5, 11), (3, 4)):
        rm.run(rm.Config(text=text, view="model", layer=layer, head=head))
        rm.run(rm.Config(text=text, view="head", layer=layer, head=head, combine="mean"))
        rm.run(rm.Config(text=text, view="rollout", layer=layer, hide_special=True))
    assert forward._encode.cache_info().misses == encodes
    assert rm._model_mosaic.cache_info().misses == mosaics


def test_cached_arrays_are_read_only():
    r = rm.run(rm.Config(text=TEXT))
    with pytest.raises(ValueError, match="read-only"):
        r.maps[0, 0, 0, 0] = 2.0
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


def test_japanese_is_read_as_english_wordpiece():
    r = rm.run(rm.Config(text="猫がマットの上に座った。"))
    assert r.japanese and "[UNK]" in r.tokens and any(t.startswith("##") for t in r.tokens)
    assert not rm.run(rm.Config(text=TEXT)).japanese
