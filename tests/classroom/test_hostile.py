"""Hostile clients, on both stores: each is refused with its own error (a message the app
translates) and the counts stay what they were."""

from __future__ import annotations

import pytest

from attnviz import classroom as cr
from attnviz.i18n import t


def _class(store):
    t_ = store.create()
    store.move(t_.code, t_.key, "S3", 0, ("a", "b"), "a")
    _, me = store.join(t_.code, "browser-1")
    store.vote(t_.code, me, "S3", 0, 1, "b")
    return t_, me


def _refused(err: pytest.ExceptionInfo, key: str) -> None:
    assert err.value.key == key
    assert t(f"classroom.err_{key}", "ja") != t(f"classroom.err_{key}", "en")  # translated


def test_a_forged_teacher_key_changes_nothing(store):
    tk, _ = _class(store)
    for forged in ("", None, "x" * 32, tk.key[:-1] + ("A" if tk.key[-1] != "A" else "B")):
        for act in (
            lambda k: store.move(tk.code, k, "S4", 0, ("x",), "x"),
            lambda k: store.set_phase(tk.code, k, "reveal"),
            lambda k: store.summary(tk.code, k),
            lambda k: store.end(tk.code, k),
        ):
            with pytest.raises(cr.BadKey) as err:
                act(forged)
            _refused(err, "bad_key")
    s = store.state(tk.code, fresh=0)
    assert (s.stop, s.phase) == ("S3", "vote1")
    assert store.counts(tk.code, "S3", 0, 1) == {"b": 1}


def test_a_vote_into_a_closed_round_or_another_stop(store):
    tk, me = _class(store)
    store.set_phase(tk.code, tk.key, "discuss")
    for rnd in (1, 2):
        with pytest.raises(cr.RoundClosed) as err:
            store.vote(tk.code, me, "S3", 0, rnd, "a")
        _refused(err, "round_closed")
    store.set_phase(tk.code, tk.key, "vote2")
    for stop, example in (("S4", 0), ("S3", 1)):  # not where the class is
        with pytest.raises(cr.RoundClosed):
            store.vote(tk.code, me, stop, example, 2, "a")
    assert store.counts(tk.code, "S3", 0, 1) == {"b": 1}
    assert store.counts(tk.code, "S3", 0, 2) == {}


def test_a_choice_the_stop_does_not_offer(store):
    tk, me = _class(store)
    for bad in ("c", "", "a,b", "' OR 1=1 --", "b|a"):
        with pytest.raises(cr.NotOffered) as err:
            store.vote(tk.code, me, "S3", 0, 1, bad)
        _refused(err, "not_offered")
    assert store.counts(tk.code, "S3", 0, 1) == {"b": 1}


def test_a_vote_for_another_student_or_none(store):
    tk, _ = _class(store)
    for forged in ("browser-1", "x" * 22, ""):
        with pytest.raises(cr.UnknownStudent) as err:
            store.vote(tk.code, forged, "S3", 0, 1, "a")
        _refused(err, "unknown_student")
    assert store.counts(tk.code, "S3", 0, 1) == {"b": 1}


def test_1000_votes_from_one_client_count_once(store):
    tk, me = _class(store)
    refused = 0
    for i in range(1000):
        try:
            store.vote(tk.code, me, "S3", 0, 1, "ab"[i % 2])
        except cr.TooManyChanges as err:
            refused += 1
            _refused(pytest.ExceptionInfo.from_exc_info((type(err), err, None)), "too_many_changes")
    # the set-up's vote and 29 changes are the cap's 30 writes; past it every change is
    # refused (the kept answer, "a", sent again is no change)
    assert store.counts(tk.code, "S3", 0, 1) == {"a": 1}
    assert refused == sum(i % 2 for i in range(cr.MAX_CHANGES - 1, 1000))


def test_1000_guessed_codes(store):
    tk, _ = _class(store)
    said = {}
    for i in range(1000):
        guess = "".join(cr.ALPHABET[(i * 7 + j) % len(cr.ALPHABET)] for j in range(6))
        if guess == tk.code:
            continue
        try:
            store.join(guess, "guesser")
        except cr.ClassError as err:
            said[err.key] = said.get(err.key, 0) + 1
    assert said == {"no_class": cr.MAX_GUESSES, "too_many_guesses": 1000 - cr.MAX_GUESSES}
    with pytest.raises(cr.TooManyGuesses):  # even the right code, for this client, now
        store.join(tk.code, "guesser")
    store.join(tk.code, "someone-else")  # another browser is not locked out
    assert store.counts(tk.code, "S3", 0, 1) == {"b": 1}


def test_codes_of_the_wrong_shape(store):
    for bad in ("", "ABC", "ABCDEFG", "AB0DE1", "<script>", None):
        with pytest.raises(cr.BadCode) as err:
            store.join(bad, "someone")
        _refused(err, "bad_code")
