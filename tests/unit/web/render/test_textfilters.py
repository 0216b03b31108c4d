"""The text filters' figures: an estimated count says so and claims no precision it lacks."""

from __future__ import annotations

import pytest

from services.web.render.textfilters import estimate


@pytest.mark.parametrize("count, shown", [
    (0, "≈ 0"), (7, "≈ 7"), (15, "≈ 15"), (149, "≈ 150"), (6_817, "≈ 6,800"), (24_249, "≈ 24,000"),
    (131_201, "≈ 130,000"),
])
def test_an_estimate_shows_two_significant_figures(count, shown):
    assert estimate(count) == shown
