"""Typed entries of the catalogue files, validated when loaded so a typo fails at once, by name.

Cross-file references (a venue's home topic, its status outcomes) are checked by the
loader (``load.py``), which sees all three files.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from services.search.model import STATUSES

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


class Venue(Entry):
    """A conference: names, aliases, its home topic (the venue prior) and status vocabulary."""

    slug: Slug
    name: Text
    full_name: str = ""
    aliases: tuple[Slug, ...] = ()
    month: Annotated[int, Field(ge=1, le=12)] | None = None  # when it is usually held
    home_topic: str | None = None
    statuses: tuple[tuple[str, str], ...] = ()  # (raw status, outcome name)

    @field_validator("statuses", mode="before")
    @classmethod
    def _pairs(cls, value: Any) -> Any:
        return tuple(value.items()) if isinstance(value, dict) else value

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

    def facet_status(self, raw: str) -> str:
        """The ``status`` facet value of a raw status, for any venue."""
        lowered = raw.lower()
        if not lowered:
            return self.facet.empty
        return next((rule.status for rule in self.facet.rules if rule.contains in lowered),
                    self.facet.otherwise)
