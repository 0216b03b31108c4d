"""Every facet of a search, declared once in :data:`FACETS`, and the registry that holds them in order.

Request parsing, search bodies, result shaping, the API, the OpenAPI document and the
templates all iterate over a :class:`FacetRegistry`, so adding a facet is its declaration
here (of a kind in :mod:`.kinds`) plus its mapping field in
:mod:`services.search.records.schema` (and, for a field derived from the paper, its value in
:func:`services.search.records.documents.to_document`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from services.search.catalogue import HIDDEN_STATUSES, STATUSES, VENUE_KINDS, taxonomy, venues
from services.search.records.name_keys import author_key

from .kinds import BooleanFacet, Clause, Facet, PersonFacet, RangeFacet, ScoreFacet, StatusFacet


@dataclass(frozen=True)
class FacetRegistry:
    """An ordered set of facets; the order is the order of URL parameters and of the filter panel."""

    facets: tuple[Facet, ...]
    _by_name: dict[str, Facet] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_name = {f.name: f for f in self.facets}
        if len(by_name) != len(self.facets):
            raise ValueError("facet names must be unique")
        object.__setattr__(self, "_by_name", by_name)

    def __iter__(self) -> Iterator[Facet]:
        return iter(self.facets)

    def __len__(self) -> int:
        return len(self.facets)

    def __getitem__(self, name: str) -> Facet:
        return self._by_name[name]

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    @property
    def timeline(self) -> RangeFacet | None:
        """The range facet whose histogram and span results show (the year), if any."""
        return next((f for f in self.facets if isinstance(f, RangeFacet) and f.timeline), None)

    @property
    def counted_by_default(self) -> tuple[str, ...]:
        """The facets a search counts when the request does not name any."""
        return tuple(f.name for f in self.facets if not f.on_demand)

    def default_filters(self) -> list[Clause]:
        """What every listing leaves out unless asked (rejected and withdrawn papers)."""
        return [clause for f in self.facets if (clause := f.filter(())) is not None]

    def extended(self, *facets: Facet) -> FacetRegistry:
        return FacetRegistry((*self.facets, *facets))

    @classmethod
    def of(cls, facets: Iterable[Facet]) -> FacetRegistry:
        return cls(tuple(facets))


_STATUS_LABELS = {StatusFacet.GROUP: "Accepted", StatusFacet.UNTIERED: "Accepted (tier not given)",
                  "withdrawn": "Withdrawn", "reject": "Rejected", "unknown": "Unknown"}
_STATUS_VALUES = (StatusFacet.GROUP, *(StatusFacet.UNTIERED if s == StatusFacet.INDEXED_UNTIERED else s for s in STATUSES))

FACETS = FacetRegistry((
    Facet("conference", "conference", "Conference", 60,
          "Conference slug, e.g. neurips (repeat to OR); a venue with papers (another is a 400 that lists them).",
          labels=venues.label, canonical=venues.canonical_slug),
    Facet("kind", "kind", "Venue type", len(VENUE_KINDS),
          "Kind of venue: " + ", ".join(VENUE_KINDS) + " (case-insensitive); kind=conference leaves journals out.",
          labels=lambda v: v.capitalize(), choices=VENUE_KINDS),
    RangeFacet("year", "year", "Year", 80, "A year (2021) or range (2018-2022)."),
    Facet("topic", "topics", "Topic", 40, "Topic slug, see /topics/<slug>.", labels=taxonomy.label),
    StatusFacet("status", "status", "Status", 15,
                "Decision: " + ", ".join(_STATUS_VALUES) + " (case-insensitive); accept is every accepted main-track "
                "paper (oral, spotlight, poster, short, untiered: accepted, tier not given). Rejected/withdrawn are "
                "hidden unless asked for, or named by a q that is their whole title (three words or more).",
                labels=lambda v: _STATUS_LABELS.get(v, v.capitalize()), choices=_STATUS_VALUES, hidden=HIDDEN_STATUSES),
    Facet("track", "track", "Track", 15, "Track, e.g. main."),
    Facet("keyword", "keywords.raw", "Keyword", 15, "Source keyword (lower-case).", on_demand=True),
    PersonFacet("author", "author_ids", "Author", 15,
                "A person id (p and 12 hex digits, as in /people/<id>): one researcher; or an author's name: every "
                "person of it (case and accents aside). Counted by person, each labelled by name and main affiliation.",
                on_demand=True, key_field="author_keys", key=author_key),
    Facet("affiliation", "affiliations.raw", "Affiliation", 15, "Exact affiliation.", on_demand=True),
    ScoreFacet("rating", "rating_avg", "Review rating", 12,
               "Mean review rating: a whole point (6: from 6 to under 7, as counted) or a range (5.5-7, inclusive); "
               "only papers whose source has review scores match."),
    BooleanFacet("has_code", "has_code", "Code", 2,
                 "true: only papers with a code link; false: only papers without "
                 "(also 1/0, yes/no, on/off; case-insensitive).",
                 true_label="Has code", false_label="No code"),
))
