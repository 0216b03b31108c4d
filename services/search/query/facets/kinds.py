"""The kinds of facet: what differs between a terms, people, boolean, status, year-range and score facet.

Each kind owns, for its values: parsing and validating URL values, the filter clause, the
aggregation, the labels of its values and the OpenAPI schema of its parameter. The facets
themselves are declared once, in :mod:`.registry`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, NamedTuple

from services.search.catalogue import catalogue
from services.search.errors import InvalidRequest
from services.search.limits import MAX_FILTER_VALUES, MAX_VALUE_CHARS, MAX_YEAR, MIN_YEAR
from services.search.records.people import is_person_id

Clause = dict[str, Any]


@dataclass(frozen=True)
class FacetValue:
    """One counted value as results show it."""

    value: str
    label: str
    count: int
    selected: bool


def _same(value: str) -> str:
    return value


@dataclass(frozen=True)
class Facet:
    """A terms facet over a keyword field; the base of the other kinds.

    ``name`` is the URL parameter (and the aggregation's and the API's key), ``field``
    the indexed field, ``size`` how many values are counted, ``label`` the heading.
    """

    name: str
    field: str
    label: str
    size: int
    description: str = ""                   # of the URL parameter, for the OpenAPI document
    labels: Callable[[str], str] = _same     # value -> what the filter panel shows
    canonical: Callable[[str], str] | None = None  # value -> canonical form ("" drops the value)
    choices: tuple[str, ...] = ()           # when set, the only values accepted (case-insensitive)
    hidden: tuple[str, ...] = ()            # values left out of results unless selected
    # Counted only when asked for (``facets=``) or selected: high-cardinality terms cost the most.
    on_demand: bool = False

    # --- URL values -------------------------------------------------------------------------------

    def parse(self, raw: Sequence[str]) -> tuple[Any, ...]:
        """Validated, canonical values of the parameter's (repeatable) raw values, in order, once each."""
        # Count what was sent (blanks and repeats too): the limit bounds the request, not the filter.
        if len(raw) > MAX_FILTER_VALUES:
            raise InvalidRequest(self.name, f"at most {MAX_FILTER_VALUES} values")
        values = [v.strip() for v in raw if v.strip()]
        if any(len(v) > MAX_VALUE_CHARS for v in values):
            raise InvalidRequest(self.name, f"a value is longer than {MAX_VALUE_CHARS} characters")
        parsed = [self.parse_value(v) for v in values]
        return tuple(dict.fromkeys(v for v in parsed if v is not None and v != ""))

    def parse_value(self, text: str) -> Any:
        if self.choices:
            if text.lower() not in self.choices:
                raise InvalidRequest(self.name, f"'{text[:40]}' is not one of {', '.join(self.choices)}")
            return text.lower()
        return self.canonical(text) if self.canonical else text

    def value_label(self, text: str) -> str:
        return self.labels(text)

    def text(self, value: Any) -> str:
        """The URL form of a parsed value (``parse_value(text(v)) == v``)."""
        return str(value)

    def item_schema(self) -> dict[str, Any]:
        """OpenAPI schema of one value (blank values are ignored, so "" is always valid)."""
        if self.choices:
            return {"type": "string", "enum": [*self.choices, ""]}
        return {"type": "string", "maxLength": MAX_VALUE_CHARS}

    # --- Elasticsearch ----------------------------------------------------------------------------

    def es_value(self, value: Any) -> Any:
        return value

    def value_clause(self, value: Any) -> Clause:
        """The filter for one selected value (its exact count is taken under it)."""
        return {"terms": {self.field: [self.es_value(value)]}}

    def clause(self, values: tuple[Any, ...]) -> Clause:
        """The filter for a selection: any of its values."""
        return {"terms": {self.field: [self.es_value(v) for v in values]}}

    def filter(self, values: tuple[Any, ...]) -> Clause | None:
        """The selection's filter, or the default one (hidden values left out), or none."""
        if values:
            return self.clause(values)
        if self.hidden:
            return {"bool": {"must_not": [{"terms": {self.field: list(self.hidden)}}]}}
        return None

    def aggregation(self, values: tuple[Any, ...]) -> dict[str, Any]:
        """Counts of the top values, plus exact counts of the selected ones."""
        aggs: dict[str, Any] = {"values": {"terms": {"field": self.field, "size": self.size}}}
        if values:
            aggs["selected"] = {"filters": {"filters": {self.text(v): self.value_clause(v) for v in values}}}
        return aggs

    def bucket_key(self, bucket: Mapping[str, Any]) -> str:
        return str(bucket["key"])

    def shape(self, agg: Mapping[str, Any], selected: tuple[str, ...]) -> list[FacetValue]:
        counts = {self.bucket_key(b): b["doc_count"] for b in agg["values"]["buckets"]}
        exact = {k: b["doc_count"] for k, b in ((agg.get("selected") or {}).get("buckets") or {}).items()}
        out = [FacetValue(v, self.value_label(v), exact.get(v, c), v in selected) for v, c in counts.items()]
        # Selected values stay visible, even at count 0: first, so no clipped list hides them.
        out.extend(FacetValue(v, self.value_label(v), exact.get(v, 0), True) for v in selected if v not in counts)
        return sorted(out, key=lambda fv: not fv.selected)


_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


@dataclass(frozen=True)
class PersonFacet(Facet):
    """People, counted by person id (``field``: ``author_ids``) and labelled by who they are ("Yang Liu ·
    Tsinghua University"): the labels come from the people index, read once per answer by the front door
    (:meth:`people`, :meth:`labelled`). A selected value is a person id, or a name (an older link, the page
    of a name whose people are undecided): a name selects every person of it by ``key_field``, case and
    accents aside ("Remi Munos" selects "Rémi Munos" too)."""

    key_field: str = ""
    key: Callable[[str], str] = _same

    def parse_value(self, text: str) -> str:
        return text.lower() if is_person_id(text.lower()) else text

    def _clauses(self, values: tuple[Any, ...]) -> list[Clause]:
        ids = [v for v in values if is_person_id(v)]
        keys = list(dict.fromkeys(self.key(v) for v in values if not is_person_id(v)))
        return [*([{"terms": {self.field: ids}}] if ids else []), *([{"terms": {self.key_field: keys}}] if keys else [])]

    def value_clause(self, value: Any) -> Clause:
        return self._clauses((value,))[0]

    def clause(self, values: tuple[Any, ...]) -> Clause:
        found = self._clauses(values)
        return found[0] if len(found) == 1 else {"bool": {"should": found, "minimum_should_match": 1}}

    def people(self, values: Iterable[FacetValue]) -> list[str]:
        """The person ids among ``values``: those whose labels the people index gives."""
        return [v.value for v in values if is_person_id(v.value)]

    def labelled(self, values: Iterable[FacetValue], labels: Mapping[str, str]) -> list[FacetValue]:
        return [replace(v, label=labels[v.value]) if v.value in labels else v for v in values]


@dataclass(frozen=True)
class BooleanFacet(Facet):
    """A boolean field; URL values true/false (also 1/0, yes/no, on/off), parsed to ``bool``."""

    true_label: str = "Yes"
    false_label: str = "No"

    def value_label(self, text: str) -> str:
        return self.true_label if text == "true" else self.false_label

    def parse_value(self, text: str) -> bool:
        lowered = text.lower()
        if lowered in _TRUE or lowered in _FALSE:
            return lowered in _TRUE
        raise InvalidRequest(self.name, f"'{text[:40]}' is not true or false")

    def text(self, value: Any) -> str:
        return "true" if value else "false"

    def item_schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": [w for pair in zip(_TRUE, _FALSE, strict=True) for w in pair] + [""]}

    def bucket_key(self, bucket: Mapping[str, Any]) -> str:
        return str(bucket.get("key_as_string", bucket["key"]))


@dataclass(frozen=True)
class StatusFacet(Facet):
    """The decision. ``accept`` is every paper its venue's main track accepted, whatever the tier
    (oral, spotlight, poster, a short paper, none given): the catalogue says which statuses those are
    (statuses.toml, ``accepted`` and ``main``), the ones venue statistics count as accepted.

    The indexed status ``accept`` is an acceptance whose tier the source does not give; in URLs and
    facet lists it is ``untiered`` ("Accepted (tier not given)"), a value of its own beside the tiers.
    ``accept`` is counted by a filter of its own, so its count is the total its selection lists.
    """

    GROUP: ClassVar[str] = "accept"
    UNTIERED: ClassVar[str] = "untiered"
    INDEXED_UNTIERED: ClassVar[str] = "accept"  # how the index stores an untiered acceptance

    def members(self) -> tuple[str, ...]:
        """The indexed statuses ``accept`` stands for."""
        return catalogue().statuses.accepted_main()

    def es_values(self, value: Any) -> list[str]:
        if value == self.GROUP:
            return list(self.members())
        return [self.INDEXED_UNTIERED if value == self.UNTIERED else value]

    def value_clause(self, value: Any) -> Clause:
        return {"terms": {self.field: self.es_values(value)}}

    def clause(self, values: tuple[Any, ...]) -> Clause:
        return {"terms": {self.field: list(dict.fromkeys(v for value in values for v in self.es_values(value)))}}

    def aggregation(self, values: tuple[Any, ...]) -> dict[str, Any]:
        aggs = super().aggregation(values)
        aggs["group"] = {"filter": self.value_clause(self.GROUP)}
        return aggs

    def bucket_key(self, bucket: Mapping[str, Any]) -> str:
        key = super().bucket_key(bucket)
        return self.UNTIERED if key == self.INDEXED_UNTIERED else key

    def shape(self, agg: Mapping[str, Any], selected: tuple[str, ...]) -> list[FacetValue]:
        values = [v for v in super().shape(agg, selected) if v.value != self.GROUP]
        exact = ((agg.get("selected") or {}).get("buckets") or {}).get(self.GROUP, {}).get("doc_count")
        count = exact if exact is not None else (agg.get("group") or {}).get("doc_count", 0)
        chosen = self.GROUP in selected
        if count or chosen:  # the whole before its tiers
            values.insert(sum(v.selected for v in values) if not chosen else 0,
                          FacetValue(self.GROUP, self.value_label(self.GROUP), count, chosen))
        return values


class Span(NamedTuple):
    """An inclusive range of years; one year is ``Span(y, y)``."""

    low: int
    high: int


_RANGE = re.compile(r"^\s*([0-9]{4})\s*(?:[-–]\s*([0-9]{4})\s*)?$")  # ASCII digits, as the OpenAPI pattern


def _digits_between(low: int, high: int) -> str:
    """A regex alternation for the four-digit numbers ``low..high`` (whole centuries compressed)."""
    parts = []
    for century in range(low // 100, high // 100 + 1):
        first, last = max(low, century * 100), min(high, century * 100 + 99)
        if (first, last) == (century * 100, century * 100 + 99):
            parts.append(f"{century}[0-9]{{2}}")
        else:
            parts.extend(str(y) for y in range(first, last + 1))
    return "(" + "|".join(parts) + ")"


@dataclass(frozen=True)
class RangeFacet(Facet):
    """A year field: values are years or ranges (``2021``, ``2018-2022``), counted per year.

    ``timeline`` also gives a per-year histogram and the min/max of the result set. Then the
    histogram is the one aggregation asked: the per-year counts (newest ``size`` years) and the
    span are read from its buckets. A terms and a stats aggregation beside it counted the same
    field twice more, a fifth of the whole search body on the full corpus (bench/cost/miss_cost.py).
    """

    low: int = MIN_YEAR
    high: int = MAX_YEAR
    timeline: bool = True

    def parse_value(self, text: str) -> Span:
        match = _RANGE.match(text)
        if not match:
            raise InvalidRequest(self.name, f"'{text[:40]}' is not a year or a range like 2018-2022")
        low, high = sorted((int(match.group(1)), int(match.group(2) or match.group(1))))
        if low < self.low or high > self.high:
            raise InvalidRequest(self.name, f"'{text[:40]}' is outside {self.low}-{self.high}")
        return Span(low, high)

    def text(self, value: Any) -> str:
        low, high = value
        return str(low) if low == high else f"{low}-{high}"

    def item_schema(self) -> dict[str, Any]:
        year = _digits_between(self.low, self.high)
        return {"type": "string", "pattern": rf"^\s*({year}\s*([-–]\s*{year}\s*)?)?$"}

    def value_clause(self, value: Any) -> Clause:
        low, high = value
        return {"range": {self.field: {"gte": low, "lte": high}}}

    def clause(self, values: tuple[Any, ...]) -> Clause:
        return {"bool": {"should": [self.value_clause(v) for v in values], "minimum_should_match": 1}}

    def aggregation(self, values: tuple[Any, ...]) -> dict[str, Any]:
        aggs = super().aggregation(values)
        if self.timeline:
            del aggs["values"]
            aggs["histogram"] = {"histogram": {"field": self.field, "interval": 1, "min_doc_count": 1}}
        else:
            aggs["values"]["terms"]["order"] = {"_key": "desc"}
        return aggs

    def shape(self, agg: Mapping[str, Any], selected: tuple[str, ...]) -> list[FacetValue]:
        if "values" not in agg:  # a timeline: the newest years of the histogram
            newest = [{"key": year, "doc_count": n} for year, n in reversed(self.histogram(agg))][:self.size]
            agg = {**agg, "values": {"buckets": newest}}
        newest_first = sorted(super().shape(agg, selected), key=lambda f: f.value, reverse=True)
        return sorted(newest_first, key=lambda f: not f.selected)

    def histogram(self, agg: Mapping[str, Any]) -> list[tuple[int, int]]:
        return [(int(b["key"]), b["doc_count"]) for b in (agg.get("histogram") or {}).get("buckets", [])]

    def span(self, agg: Mapping[str, Any]) -> tuple[int, int] | None:
        years = self.histogram(agg)
        return (years[0][0], years[-1][0]) if years else None


class ScoreSpan(NamedTuple):
    """Scores from ``low``: a whole point (``6``: 6 <= score < 7) or up to ``high`` inclusive (``5.5-7``)."""

    low: float
    high: float
    whole: bool = False


_SCORE = r"(?:100(?:\.0{1,2})?|[0-9]{1,2}(?:\.[0-9]{1,2})?)"  # 0 to 100, at most two decimals
_SCORE_RANGE = re.compile(rf"^\s*({_SCORE})\s*(?:[-–]\s*({_SCORE})\s*)?$")


@dataclass(frozen=True)
class ScoreFacet(Facet):
    """A score field (the mean review rating): counted per whole point, filtered by a point or a range.

    ``6`` selects 6 <= score < 7 (the counted bucket), ``5.5-7`` selects 5.5 <= score <= 7. Papers
    without a score match no value, so a selection lists only papers the source has scores for.
    """

    def parse_value(self, text: str) -> ScoreSpan:
        match = _SCORE_RANGE.match(text)
        if not match:
            raise InvalidRequest(self.name, f"'{text[:40]}' is not a score from 0 to 100 or a range like 5.5-7")
        low = float(match.group(1))
        if match.group(2) is None:
            span = ScoreSpan(float(int(low)), float(int(low)) + 1, True)
        else:
            span = ScoreSpan(*sorted((low, float(match.group(2)))))
        return span

    def text(self, value: Any) -> str:
        return f"{value.low:g}" if value.whole else f"{value.low:g}-{value.high:g}"

    def value_label(self, text: str) -> str:
        span = self.parse_value(text)
        return f"{span.low:g}–{span.high:g}"

    def item_schema(self) -> dict[str, Any]:
        return {"type": "string", "pattern": rf"^\s*({_SCORE}\s*([-–]\s*{_SCORE}\s*)?)?$"}

    def value_clause(self, value: Any) -> Clause:
        bound = "lt" if value.whole else "lte"
        return {"range": {self.field: {"gte": value.low, bound: value.high}}}

    def clause(self, values: tuple[Any, ...]) -> Clause:
        return {"bool": {"should": [self.value_clause(v) for v in values], "minimum_should_match": 1}}

    def aggregation(self, values: tuple[Any, ...]) -> dict[str, Any]:
        aggs = super().aggregation(values)
        aggs["values"] = {"histogram": {"field": self.field, "interval": 1, "min_doc_count": 1,
                                        "order": {"_key": "desc"}}}
        return aggs

    def bucket_key(self, bucket: Mapping[str, Any]) -> str:
        return f"{float(bucket['key']):g}"
