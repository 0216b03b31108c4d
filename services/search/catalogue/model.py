"""Typed entries of the catalogue files, validated when loaded so a typo fails at once, by name.

Cross-file references (a venue's home topic, its status outcomes) are checked by the
loader (``load.py``), which sees all three files.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
# A cue in its matching form: lowercase words, single spaces, optional trailing "*".
Phrase = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+( [a-z0-9]+)*\*?$")]
Text = Annotated[str, StringConstraints(min_length=1)]


class Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _keyed(data: Any, table: str) -> Any:
    """``{table: {slug: {...}}}`` as written in TOML -> the same with ``slug`` in each entry."""
    entries = data.get(table) if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        return data
    return {**data, table: {key: {"slug": key, **value} if isinstance(value, dict) else value
                            for key, value in entries.items()}}


VENUE_KINDS = ("conference", "journal", "workshop")
# The values of a paper's ``status`` (the status facet's), which statuses.toml maps raw status words to;
# rejected and withdrawn papers are left out of listings unless asked for.
STATUSES = ("oral", "spotlight", "poster", "accept", "findings", "short", "demo", "workshop",
            "reject", "withdrawn", "unknown")
HIDDEN_STATUSES = ("reject", "withdrawn")
Kind = Literal["conference", "journal", "workshop"]
_YEAR = "{year}"  # the one placeholder a booktitle may hold


class Venue(Entry):
    """A venue: names, kind, aliases, its home topic (the venue prior), how its proceedings
    are cited, and its status vocabulary (syntax: venues.toml header)."""

    slug: Slug
    name: Text
    full_name: str = ""
    kind: Kind = "conference"
    aliases: tuple[Slug, ...] = ()
    month: Annotated[int, Field(ge=1, le=12)] | None = None  # when it is usually held
    home_topic: str | None = None
    booktitle: str = ""   # conferences and workshops: the proceedings' title, may hold {year}
    journal: str = ""     # journals: the journal's name as cited
    publisher: str = ""
    first_volume: Annotated[int, Field(ge=1800, le=2100)] | None = None  # journals: the year of volume 1
    statuses: tuple[tuple[str, str], ...] = ()  # (raw status, outcome name)
    scores_taken: tuple[tuple[int, date], ...] = ()  # (year, the day its review scores were read, before decisions)

    @field_validator("statuses", "scores_taken", mode="before")
    @classmethod
    def _pairs(cls, value: Any) -> Any:
        return tuple(value.items()) if isinstance(value, dict) else value

    @field_validator("booktitle")
    @classmethod
    def _only_the_year_placeholder(cls, value: str) -> str:
        if "{" in value.replace(_YEAR, "") or "}" in value.replace(_YEAR, ""):
            raise ValueError(f"the only placeholder a booktitle may hold is {_YEAR}")
        return value

    @model_validator(mode="after")
    def _cited_as_its_kind(self) -> Venue:
        if self.kind == "journal" and (self.booktitle or not self.journal):
            raise ValueError("a journal is cited by its `journal` name, without a booktitle")
        if self.kind != "journal" and (self.journal or self.first_volume):
            raise ValueError(f"`journal` and `first_volume` are for journals, not a {self.kind}")
        return self

    @property
    def is_journal(self) -> bool:
        return self.kind == "journal"

    def proceedings(self, year: int) -> str:
        """The BibTeX ``booktitle`` of this conference's ``year`` (its full name when none is
        listed); "" for a journal, which is cited by :attr:`journal`."""
        if self.kind == "journal":
            return ""
        return (self.booktitle or self.full_name or self.name).replace(_YEAR, str(year))

    def volume(self, year: int) -> int | None:
        """A journal's volume number of ``year`` (volumes by year, from :attr:`first_volume`)."""
        if self.first_volume is None or year < self.first_volume:
            return None
        return year - self.first_volume + 1

    def scores_taken_on(self, year: int) -> date | None:
        """When ``year``'s review scores were read, where that was before the decisions (else None)."""
        return dict(self.scores_taken).get(year)

    def outcome_name(self, raw: str) -> str | None:
        """The outcome this venue gives a raw status (case-insensitive), if it lists it."""
        wanted = raw.strip().casefold()
        return next((name for listed, name in self.statuses if listed.casefold() == wanted), None)


class Venues(Entry):
    venues: dict[str, Venue]

    @model_validator(mode="before")
    @classmethod
    def _slugs(cls, data: Any) -> Any:
        return _keyed(data, "venues")

    @model_validator(mode="after")
    def _aliases_are_unique(self) -> Venues:
        seen: dict[str, str] = {}
        for venue in self.venues.values():
            for name in (venue.slug, *venue.aliases):
                if name in seen:
                    raise ValueError(f"venues.{venue.slug}: {name!r} already names venue {seen[name]!r}")
                seen[name] = venue.slug
        return self


class Topic(Entry):
    """A taxonomy topic and the cue phrases that assign it (syntax: topics.toml header)."""

    slug: Slug
    label: Text
    description: Text
    strong: tuple[Phrase, ...]
    weak: tuple[Phrase, ...] = ()

    @field_validator("strong", "weak", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        return split_phrases(value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _no_repeats(self) -> Topic:
        repeated = sorted({p for p in self.strong + self.weak if (self.strong + self.weak).count(p) > 1})
        if repeated:
            raise ValueError(f"topics.{self.slug}: cue listed twice: {', '.join(repeated)}")
        return self


def split_phrases(spec: str) -> tuple[str, ...]:
    """``"a; b*;\\n c"`` -> ``("a", "b*", "c")``."""
    return tuple(p for p in (raw.strip() for raw in spec.split(";")) if p)


class Topics(Entry):
    fallback: Slug
    neutral: tuple[Phrase, ...] = ()
    topics: dict[str, Topic]

    @model_validator(mode="before")
    @classmethod
    def _slugs(cls, data: Any) -> Any:
        return _keyed(data, "topics")

    @field_validator("neutral", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        return split_phrases(value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _fallback_is_a_topic(self) -> Topics:
        if self.fallback not in self.topics:
            raise ValueError(f"fallback {self.fallback!r} is not a topic")
        return self


class Outcome(Entry):
    """What a status means for venue statistics (see statuses.toml)."""

    decided: bool
    accepted: bool
    tier: str | None = None
    main: bool = True

    @model_validator(mode="after")
    def _accepted_is_decided(self) -> Outcome:
        if self.accepted and not self.decided:
            raise ValueError("accepted but not decided")
        return self


class FacetRule(Entry):
    contains: Annotated[str, StringConstraints(pattern=r"^[a-z0-9 %-]+$")]
    status: str


class Facet(Entry):
    empty: str
    otherwise: str
    rules: tuple[FacetRule, ...]

    @model_validator(mode="after")
    def _values_are_statuses(self) -> Facet:
        for value in (self.empty, self.otherwise, *(rule.status for rule in self.rules)):
            if value not in STATUSES:
                raise ValueError(f"{value!r} is not a status facet value ({', '.join(STATUSES)})")
        return self


class Statuses(Entry):
    """The status vocabulary: facet rules for any venue, and the meaning of each outcome."""

    facet: Facet
    outcomes: dict[Slug, Outcome] = Field(min_length=1)

    @model_validator(mode="after")
    def _every_status_has_an_outcome(self) -> Statuses:
        missing = [s for s in STATUSES if s not in self.outcomes]
        if missing:
            raise ValueError(f"outcomes: no entry for the facet values {', '.join(missing)}")
        return self

    def accepted_main(self) -> tuple[str, ...]:
        """The facet values of papers a venue's main track accepted, whatever their tier (oral, spotlight,
        poster, none given, a short paper): what ``status=accept`` selects and venue statistics count."""
        return tuple(s for s in STATUSES if self.outcomes[s].accepted and self.outcomes[s].main)

    def facet_status(self, raw: str) -> str:
        """The ``status`` facet value of a raw status, for any venue."""
        lowered = raw.lower()
        if not lowered:
            return self.facet.empty
        rule = self.rule_for(raw)
        return rule.status if rule else self.facet.otherwise

    def rule_for(self, raw: str) -> FacetRule | None:
        """The first facet rule that reads a raw status; None when only ``otherwise`` would."""
        lowered = raw.lower()
        return next((rule for rule in self.facet.rules if rule.contains in lowered), None)
