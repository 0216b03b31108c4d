"""The scheduler's tick (services/indexer/follow/schedule.py): a due source is claimed once, and a freshly seeded
registry is sent a few polls at a time, the most overdue first, never all at once."""

from __future__ import annotations

from services import redis_keys
from services.indexer.follow import schedule
from services.search.records.followed import FollowedSource


class _Pipe:
    def __init__(self, client):
        self.client, self.calls = client, []

    def exists(self, key):
        self.calls.append(key)

    def execute(self):
        return [int(key in self.client.keys) for key in self.calls]


class _Redis:
    """The little of Redis the tick uses: SET NX with a TTL, EXISTS in a pipeline, DEL."""

    def __init__(self):
        self.keys: dict[str, str] = {}

    def set(self, key, value, nx=False, ex=None):
        if nx and key in self.keys:
            return None
        self.keys[key] = value
        return True

    def delete(self, key):
        self.keys.pop(key, None)

    def pipeline(self, transaction=True):
        return _Pipe(self)


def _sources(n: int) -> list[FollowedSource]:
    return [FollowedSource(url=f"https://example.org/v/v{2000 + i}.json",
                           next_check=None if i % 2 else f"2026-12-0{1 + i % 9}T00:00:00+00:00") for i in range(n)]


def test_a_seeded_registry_is_sent_a_few_polls_at_a_time_the_most_overdue_first():
    client, due = _Redis(), _sources(364)
    first = schedule.to_send(client, "a", due)
    assert len(first) == schedule.MAX_IN_FLIGHT and all(s.next_check is None for s in first)
    for source in first:
        assert schedule.claim(client, "a", source)
    assert schedule.to_send(client, "a", due) == [], "the polls in flight fill the room"
    schedule.release(client, "a", first[0].id)  # one poll done
    (nxt,) = schedule.to_send(client, "a", [s for s in due if s is not first[0]])
    assert nxt not in first


def test_a_claimed_source_is_not_claimed_again_until_released():
    client, (source,) = _Redis(), _sources(1)
    assert schedule.claim(client, "a", source) and not schedule.claim(client, "a", source)
    assert redis_keys.follow_claim("a", source.id) in client.keys
    schedule.release(client, "a", source.id)
    assert schedule.claim(client, "a", source)
