"""Permutations of a query are one canonical URL; a canonical one is never redirected again."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest

from services.web.http.canonical import canonical_query, redirect_target


def test_parameters_sort_by_name_and_repeated_values_keep_their_order():
    assert canonical_query([("q", "graph nets"), ("year", "2024"), ("conference", "iclr")]) == \
        "conference=iclr&q=graph+nets&year=2024"
    assert canonical_query([("venue", "b"), ("q", "x"), ("venue", "a")]) == "q=x&venue=b&venue=a"
    assert canonical_query([]) == ""


@pytest.mark.parametrize("raw", ["b=2&a=1", "a=1&b=2", "q=graph%20nets&a=", "q=caf%C3%A9&z=1&a=%2F", "a"])
def test_every_permutation_goes_to_one_url_which_stays(raw):
    pairs = parse_qsl(raw, keep_blank_values=True)
    target = redirect_target("/search", raw, pairs)
    canonical = target.split("?", 1)[1] if target else raw
    assert redirect_target("/search", canonical, parse_qsl(canonical, keep_blank_values=True)) is None
    assert sorted(parse_qsl(canonical, keep_blank_values=True)) == sorted(pairs)


def test_a_canonical_query_is_not_redirected_and_others_are():
    assert redirect_target("/search", "a=1&b=2", [("a", "1"), ("b", "2")]) is None
    assert redirect_target("/search", "b=2&a=1", [("b", "2"), ("a", "1")]) == "/search?a=1&b=2"
    assert redirect_target("/papers/x%20y", "q=a%20b", [("q", "a b")]) == "/papers/x%20y?q=a+b"
    assert redirect_target("/", "", []) is None
