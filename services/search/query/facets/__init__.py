"""Facets: every filterable, countable dimension of a search.

:mod:`.kinds` has a class per kind of facet (terms, people, boolean, status, year range,
score); :mod:`.registry` declares the site's facets once, in :data:`FACETS`. Callers import
from here.
"""

from .kinds import (
                    BooleanFacet,
                    Clause,
                    Facet,
                    FacetValue,
                    PersonFacet,
                    RangeFacet,
                    ScoreFacet,
                    ScoreSpan,
                    Span,
                    StatusFacet,
)
from .registry import FACETS, FacetRegistry

__all__ = ["FACETS", "BooleanFacet", "Clause", "Facet", "FacetRegistry", "FacetValue", "PersonFacet", "RangeFacet",
           "ScoreFacet", "ScoreSpan", "Span", "StatusFacet"]
