"""Venue numbers counted from source records with rules of the tests' own, not with the code under test.

Shared by the sample checks (tests/integration/test_venues.py, test_review_data.py) and the
full-corpus checks against a running site (tests/live/test_live_site.py): one reading of a
raw status, whichever index the numbers are compared with.
"""

from __future__ import annotations

from collections import Counter

from services.indexer.cleaning.text import clean_text
from services.search.catalogue import catalogue


def decision(raw: str) -> str | None:
    """A raw status by plain words: accepted, rejected (desk too), withdrawn; None for no decision or a workshop."""
    text = raw.strip().lower()
    if text in ("", "active"):
        return None
    if "withdr" in text:
        return "withdrawn"
    if "reject" in text:
        return "rejected"
    return None if "workshop" in text else "accepted"


def expected_rate(records: list[dict]) -> float | None:
    """The rate the source's statuses give, or None when it lists no rejections."""
    counts = Counter(decision(r.get("status") or "") for r in records)
    if not counts["rejected"]:
        return None
    return counts["accepted"] / (counts["accepted"] + counts["rejected"] + counts["withdrawn"])


def venue_numbers(conference: str, records: list[dict]) -> dict:
    """One venue-year's records by raw status and the catalogue's reading of them (the venue API's numbers)."""
    cat = catalogue()
    statuses = Counter(clean_text(r.get("status") or "") for r in records)
    numbers: Counter = Counter()
    for raw, n in statuses.items():
        outcome = cat.outcome(conference, raw)
        if not outcome.main:
            continue
        withdrawn = cat.outcome_name(conference, raw) == "withdrawn"
        numbers["submissions"] += n * (outcome.decided or withdrawn)
        numbers["accepted"] += n * outcome.accepted
        numbers["rejected"] += n * (outcome.decided and not outcome.accepted)
        numbers["decided"] += n * (outcome.decided or withdrawn)  # the contract's accepted / decided
        for tier in ("oral", "spotlight", "poster"):
            numbers[tier] += n * (outcome.accepted and outcome.tier == tier)
    return {"papers": sum(statuses.values()), "by_status": {raw or "(none)": n for raw, n in statuses.items()},
            **numbers}


def venue_mismatches(year: int, numbers: dict, got: dict) -> list[str]:
    """Where a venue API answer (``got``) differs from :func:`venue_numbers`; empty when they agree."""
    out = [f"{year} {name}: {got.get(name)} != {numbers.get(name, 0)}"
           for name in ("papers", "by_status", "accepted", "rejected", "decided", "oral", "spotlight", "poster")
           if got.get(name) != numbers.get(name, 0)]
    if numbers["rejected"]:
        rate = round(numbers["accepted"] / numbers["submissions"], 4)
        if got.get("submissions") != numbers["submissions"] or got.get("acceptance_rate") != rate:
            out.append(f"{year} rate: {got.get('submissions')} / {got.get('acceptance_rate')} != "
                       f"{numbers['submissions']} / {rate}")
        if got.get("accepted") and got.get("decided") and got["acceptance_rate"] != round(got["accepted"] / got["decided"], 4):
            out.append(f"{year} rate is not accepted / decided")
    elif got.get("submissions") is not None or got.get("acceptance_rate") is not None or got.get("rejections_listed"):
        out.append(f"{year}: an accepted-only list shows a rate")  # no submissions, no (fake 100%) rate
    return out
