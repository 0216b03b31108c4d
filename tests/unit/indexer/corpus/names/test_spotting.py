"""Finding the names in the texts (services/indexer/corpus/names/spotting.py)."""

from __future__ import annotations

from services.indexer.corpus.names.spotting import automaton, keys_in


def test_a_pattern_two_keys_write_answers_both_whatever_their_order():
    written = {"fl": (" fl ", " fls "), "fls": (" fls ", " flss ")}  # "FL"'s plural is "FLS" itself
    for patterns in (written, dict(reversed(list(written.items())))):
        scan = automaton(patterns)
        assert keys_in(scan, " we compare fls and more ") == {"fl", "fls"}
        assert keys_in(scan, " one fl here ") == {"fl"}
        assert keys_in(scan, " nothing here ") == set()


def test_no_patterns_no_automaton():
    assert automaton({}) is None and automaton({"x": ()}) is None
