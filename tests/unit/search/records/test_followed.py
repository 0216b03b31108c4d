"""A followed source as the registry keeps it (services/search/records/followed.py): what an operator may give,
the back-off after failures, the round trip through its stored document."""

from datetime import datetime, timezone
from random import Random

import pytest

from services.search.records.followed import (
    BACKOFF_BASE_S,
    FollowedSource,
    InvalidSource,
    new_source,
    next_check,
    parse_interval,
)


@pytest.mark.parametrize("given, seconds", [("6h", 21600), ("30m", 1800), ("2d", 172800), ("3600", 3600), (None, 21600)])
def test_intervals_read_as_durations(given, seconds):
    assert parse_interval(given) == seconds


@pytest.mark.parametrize("url, venue_years, interval, says", [
    ("ftp://x/a.json", (), None, "http(s)"), ("https://x/a b.json", (), None, "without spaces"),
    ("https://x/a.json", ("iclr",), None, "CONFERENCE:YEAR"), ("https://x/a.json", ("iclr:99",), None, "CONFERENCE:YEAR"),
    ("https://x/a.json", (), "5y", "duration"), ("https://x/a.json", (), "1s", "between"),
    ("/srv/lists/iclr2025.json", (), None, "http(s)"),
])
def test_what_cannot_be_followed_says_why(url, venue_years, interval, says):
    with pytest.raises(InvalidSource, match=says.replace("(", r"\(").replace(")", r"\)")):
        new_source(url, venue_years, interval)


def test_a_source_round_trips_and_a_local_path_is_the_cli_s_only():
    source = new_source("/srv/lists/iclr2025.json", ["ICLR:2025"], "2h", allow_paths=True)
    assert source.venue_years == ("iclr:2025",) and source.interval_s == 7200 and source.complete
    again = FollowedSource.from_document(source.to_document())
    assert again == source and again.id == source.id and len(source.id) == 40


def test_back_off_doubles_per_failure_up_to_the_interval_with_jitter():
    now = datetime(2026, 12, 7, tzinfo=timezone.utc)
    waits = [(next_check(now, 3600, failures, Random(1)) - now).total_seconds() for failures in range(0, 9)]
    assert 3600 * 0.9 <= waits[0] <= 3600 * 1.1
    for failures, wait in enumerate(waits[1:], 1):
        expected = min(BACKOFF_BASE_S * 2 ** (failures - 1), 3600)
        assert expected * 0.9 <= wait <= expected * 1.1, (failures, wait)
    assert FollowedSource(url="https://x", failures=3).failing and not FollowedSource(url="https://x", failures=2).failing
