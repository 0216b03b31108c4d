"""The JSON answers about followed sources (issue 47): the public freshness list and the admin API's view.

Apart from :mod:`.schemas` because they describe the registry, not papers; the public list leaves out
what only an operator needs (validators, hashes), the admin view adds the failures and the passes.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from services.search.records.followed import FAILING_AFTER, OUTCOMES

from .schemas import Answer, Count


class FollowedSourceRow(Answer):
    """One followed source on the freshness page: its venue-years, when it was last checked and changed,
    its papers and its next check; ``failing`` after several failed polls in a row."""

    url: str
    venue_years: list[str] = Field(description="CONFERENCE:YEAR of each venue-year the file lists.")
    last_checked: str | None = Field(description="The last poll (ISO 8601, UTC); null before the first.")
    last_changed: str | None = Field(description="The last poll that found and ingested new content.")
    next_check: str | None
    papers: Count | None = Field(description="Papers indexed from it as last ingested.")
    outcome: str = Field(description=f"The last poll's: {', '.join(OUTCOMES)}.")
    failing: bool = Field(description=f"True after {FAILING_AFTER} consecutive failed polls (a red row on the page).")


class FollowedSources(Answer):
    """Every followed source, by URL."""

    sources: list[FollowedSourceRow]
    interval_default_s: Count


class AdminSource(Answer):
    """A followed source as the operator sees it: the public row plus failures, errors and alerts."""

    model_config = ConfigDict(extra="allow", json_schema_serialization_defaults_required=False)

    id: str
    url: str
    failures: Count
    last_error: str | None = None
    alert: str | None = Field(None, description="A refused change (unparsable, or an implausible drop).")


class AdminSources(Answer):
    """The followed sources for the operator, and the corpus passes' state (as the worker reports it)."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=False)

    sources: list[AdminSource]
    passes: Any = Field(None, description="Each corpus pass's state: queued, running, done or failed, when, "
                                          "and what it wrote; null when no worker answered in time.")


COMPONENTS: tuple[type[Answer], ...] = (FollowedSourceRow, FollowedSources, AdminSource, AdminSources)
