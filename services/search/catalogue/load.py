"""Read and validate the catalogue files once, on first use; errors name the file and entry."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from .model import Outcome, Statuses, Topic, Topics, Venue, Venues

FILES = ("venues.toml", "topics.toml", "statuses.toml")
_Model = TypeVar("_Model", bound=BaseModel)


class CatalogueError(ValueError):
    """A catalogue file that is missing, not TOML, or not valid; the message says where."""


@dataclass(frozen=True)
class Catalogue:
    """Venues, topics and the status vocabulary, cross-checked; lookups are built on first use."""

    venues: tuple[Venue, ...]
    topics: tuple[Topic, ...]
    fallback: str
    neutral: tuple[str, ...]
    statuses: Statuses

    @cached_property
    def _venues(self) -> dict[str, Venue]:
        return {v.slug: v for v in self.venues}

    @cached_property
    def aliases(self) -> dict[str, str]:
        """Alias -> canonical slug."""
        return {alias: v.slug for v in self.venues for alias in v.aliases}

    @cached_property
    def _topics(self) -> dict[str, Topic]:
        return {t.slug: t for t in self.topics}

    def venue(self, slug: str) -> Venue | None:
        return self._venues.get(slug)

    def topic(self, slug: str) -> Topic | None:
        return self._topics.get(slug)

    def outcome(self, conference: str, raw: str) -> Outcome:
        """Decided/accepted/tier of a raw status at a venue (canonical slug); unlisted
        statuses and venues are read through the facet rules."""
        return self.statuses.outcomes[self.outcome_name(conference, raw)]

    def outcome_name(self, conference: str, raw: str) -> str:
        """The name of that outcome (a key of statuses.toml's ``[outcomes]``)."""
        venue = self._venues.get(conference)
        name = venue.outcome_name(raw) if venue else None
        return name or self.statuses.facet_status(raw.strip())

    def reads(self, conference: str, raw: str) -> bool:
        """Is a raw status mapped: listed by the venue, matched by a facet rule, or empty?

        A status only the facet rules' ``otherwise`` would take is a guess, which
        ``paperlist status`` reports so that the word gets its line in venues.toml.
        """
        venue = self._venues.get(conference)
        raw = raw.strip()
        return not raw or bool(venue and venue.outcome_name(raw)) or self.statuses.rule_for(raw) is not None


def load_catalogue(directory: Path | Traversable | None = None) -> Catalogue:
    """Read ``venues.toml``, ``topics.toml`` and ``statuses.toml`` from ``directory``
    (default: this package) and check them; raises :class:`CatalogueError`."""
    folder = directory if directory is not None else resources.files(__package__)
    venues = _read(folder, "venues.toml", Venues)
    topics = _read(folder, "topics.toml", Topics)
    statuses = _read(folder, "statuses.toml", Statuses)
    problems = [f"venues.{v.slug}.home_topic: unknown topic {v.home_topic!r}"
                for v in venues.venues.values() if v.home_topic and v.home_topic not in topics.topics]
    problems += [f"venues.{v.slug}.statuses: {raw!r} maps to unknown outcome {name!r}"
                 for v in venues.venues.values() for raw, name in v.statuses
                 if name not in statuses.outcomes]
    if problems:
        raise CatalogueError("venues.toml: " + "; ".join(problems))
    return Catalogue(venues=tuple(venues.venues.values()), topics=tuple(topics.topics.values()),
                     fallback=topics.fallback, neutral=topics.neutral, statuses=statuses)


@cache
def catalogue() -> Catalogue:
    """The package's catalogue, loaded on first call and shared afterwards."""
    return load_catalogue()


def _read(folder: Path | Traversable, name: str, model: type[_Model]) -> _Model:
    try:
        data = tomllib.loads(folder.joinpath(name).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise CatalogueError(f"{name}: missing from {folder}") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CatalogueError(f"{name}: not valid TOML: {exc}") from exc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        details = "; ".join(f"{'.'.join(map(str, e['loc'])) or '(file)'}: {e['msg']}"
                            for e in exc.errors())
        raise CatalogueError(f"{name}: {details}") from exc
