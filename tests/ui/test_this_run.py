"""ui.this_run: a value read once within a held span, read each time outside one, and kept
per thread (a run is one thread)."""

import threading

from ui.this_run import held, once


def counter():
    calls = []

    def read() -> int:
        calls.append(1)
        return len(calls)

    return read, calls


def test_outside_a_span_every_call_reads():
    read, calls = counter()
    assert [once("x", read) for _ in range(3)] == [1, 2, 3]
    assert len(calls) == 3


def test_within_a_span_the_first_read_is_kept_and_dropped_at_its_end():
    read, calls = counter()
    with held():
        assert [once("x", read) for _ in range(3)] == [1, 1, 1]
    assert once("x", read) == 2  # the next run reads again
    assert len(calls) == 2


def test_a_span_inside_another_is_part_of_it():
    read, _ = counter()
    with held():
        assert once("x", read) == 1
        with held():  # a fragment drawn by the page's run
            assert once("x", read) == 1
        assert once("x", read) == 1  # still held after the inner span
    assert once("x", read) == 2


def test_names_are_kept_apart():
    with held():
        assert once("a", lambda: "ja") == "ja"
        assert once("b", lambda: True) is True
        assert once("a", lambda: "en") == "ja"


def test_another_thread_does_not_see_a_span():
    """Two sessions' runs are two threads: one's language is never the other's."""
    seen = []
    with held():
        once("lang", lambda: "ja")
        t = threading.Thread(target=lambda: seen.append(once("lang", lambda: "en")))
        t.start()
        t.join()
    assert seen == ["en"]


def test_a_span_ends_even_when_the_run_stops_early():
    read, _ = counter()
    try:
        with held():
            once("x", read)
            raise RuntimeError("st.stop or st.rerun end a run by an exception")
    except RuntimeError:
        pass
    assert once("x", read) == 2
