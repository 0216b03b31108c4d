"""Permutations of a query are one canonical query, whatever the order and the encoding."""

from __future__ import annotations

import itertools
from urllib.parse import parse_qsl

import pytest

from services.web.http.canonical import canonical_query


def test_parameters_sort_by_name_and_repeated_values_keep_their_order():
    assert canonical_query([("q", "graph nets"), ("year", "2024"), ("conference", "iclr")]) == \
        "conference=iclr&q=graph+nets&year=2024"
    assert canonical_query([("venue", "b"), ("q", "x"), ("venue", "a")]) == "q=x&venue=b&venue=a"
    assert canonical_query([]) == ""


@pytest.mark.parametrize("raw", ["b=2&a=1", "a=1&b=2", "q=graph%20nets&a=", "q=caf%C3%A9&z=1&a=%2F", "a"])
def test_a_canonical_query_is_its_own_canonical_form_and_keeps_every_pair(raw):
    pairs = parse_qsl(raw, keep_blank_values=True)
    canonical = canonical_query(pairs)
    assert canonical_query(parse_qsl(canonical, keep_blank_values=True)) == canonical
    assert sorted(parse_qsl(canonical, keep_blank_values=True)) == sorted(pairs)


def test_every_permutation_of_distinct_names_is_one_query():
    pairs = [("q", "diffusion"), ("conference", "neurips"), ("year", "2020-2025"), ("page_size", "5")]
    forms = {canonical_query(order) for order in itertools.permutations(pairs)}
    assert forms == {"conference=neurips&page_size=5&q=diffusion&year=2020-2025"}
