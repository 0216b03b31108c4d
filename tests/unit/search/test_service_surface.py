"""PaperSearch's public methods are the product's reads and nothing else.

A read only a benchmark or a test wants (other fusion weights, the lists a fusion joins,
filters the web never passes) belongs in ``bench/`` (``bench/relevance/fusion_lists.py`` subclasses
PaperSearch); this test fails when one is added to the front door instead. A method the
tools or operations call that the web does not goes in :data:`TOOL_ENTRY_POINTS`, by name,
with who calls it.
"""

from __future__ import annotations

import inspect

from services.search.reads import SearchReads
from services.search.service import PaperSearch

# Public methods of PaperSearch that the web does not call but a tool or operation does: {name: caller}.
TOOL_ENTRY_POINTS: dict[str, str] = {}


def public_methods(cls: type) -> set[str]:
    """Its public functions, its own and those it inherits from our classes (PaperSearch's nearby reads)."""
    ours = [klass for klass in cls.__mro__ if klass.__module__.startswith("services.")]
    return {name for klass in ours for name, value in vars(klass).items()
            if not name.startswith("_") and inspect.isfunction(value)}


def test_every_public_method_is_a_read_of_the_protocol_or_a_named_tool_entry_point():
    reads = public_methods(SearchReads)
    extra = public_methods(PaperSearch) - reads - set(TOOL_ENTRY_POINTS)
    assert not extra, f"PaperSearch methods neither in SearchReads nor TOOL_ENTRY_POINTS: {sorted(extra)}"
    assert reads <= public_methods(PaperSearch)


def test_every_public_method_is_an_entry_point():
    """Each goes through the breaker and the error translation (``translating`` wraps it)."""
    unwrapped = {name for name in public_methods(PaperSearch) if not hasattr(getattr(PaperSearch, name), "__wrapped__")}
    assert not unwrapped

