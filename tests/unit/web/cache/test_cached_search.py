"""CachedSearch implements every read explicitly; without a store (or a request) it passes through."""

from __future__ import annotations

from fake_reads import FakeReads, fake_app, signature_gaps

import pytest

from services.search.engine.generation import GenerationRead
from services.search.query.request import SearchRequest
from services.search.reads import SearchReads
from services.search.records.model import Paper
from services.web import extensions, requestctx
from services.web.cache.codec import codec_for
from services.web.cache.results import REFRESHES_IN_FLIGHT, CachedSearch, digest_of
from services.web.extensions import SiteReads


def test_it_has_every_read_of_the_protocol():
    """The search reads, and the web's own fragments kept like them (what the views call)."""
    assert signature_gaps(CachedSearch) == [] and isinstance(CachedSearch(FakeReads(), None), SearchReads)
    assert signature_gaps(CachedSearch, SiteReads) == [] and isinstance(CachedSearch(FakeReads(), None), SiteReads)


def test_without_a_store_every_read_reaches_the_service_once():
    reads = FakeReads()
    cached = CachedSearch(reads, None)
    req = SearchRequest(q="graph")
    cached.search(req)
    cached.paper("iclr-2018-p1")
    cached.similar("iclr-2018-p1")
    cached.export(req)
    assert [name for name, _ in reads.calls] == ["search", "paper", "similar", "export"]
    assert reads.calls[2][1] == ("iclr-2018-p1", 6)  # defaults spelled out: one key per call


def test_the_app_reads_through_it():
    reads = FakeReads()
    app = fake_app(reads)
    assert isinstance(extensions.reads(app), CachedSearch) and extensions.reads(app).service is reads
    assert extensions.reads(app).store is None  # PAPERLIST_CACHE=false


class _FollowerStore:
    """A store where another request leads every key: each read waits for it, and its wait is recorded."""

    def __init__(self):
        self.waits: list[float] = []

    def generation(self):
        return GenerationRead(1, 0, None)

    def fresh_key(self, gen, digest):
        return f"fresh:{gen}:{digest}"

    def stale_key(self, digest):
        return f"stale:{digest}"

    def get_or_lead(self, key):
        return False, None

    def wait(self, key, seconds):
        self.waits.append(seconds)
        return None

    def store(self, *args):
        pass

    def release(self, key):
        pass

    def quietly(self, operation, *args):
        return operation(*args)


def test_an_identical_miss_waits_for_its_leader_no_longer_than_the_requests_budget_has_left():
    from services.search.engine.boundary import start_deadline

    store = _FollowerStore()
    cached = CachedSearch(FakeReads(), store)
    with fake_app().test_request_context("/api/v1/search?q=graph"):
        start_deadline(60.0)
        cached.search(SearchRequest(q="graph"))
        start_deadline(1.0)  # a request that waited in the queue has this much of its budget left
        cached.search(SearchRequest(q="graph"))
        start_deadline(0.0)  # one shed at the front: no wait at all
        cached.search(SearchRequest(q="graph"))
    assert store.waits[0] > 59  # the store caps it with its own wait
    assert 0.5 < store.waits[1] <= 1.0 - 0.25  # less the render reserve
    assert store.waits[2] == 0.0


class _DictStore(_FollowerStore):
    """A store over a dict: entries by key, locks as a set; the generation as set by the test."""

    def __init__(self, gen: GenerationRead, lead: bool = True):
        super().__init__()
        self.gen, self.lead = gen, lead
        self.entries: dict[str, bytes] = {}
        self.locks: set[str] = set()
        self.ended: dict[int, int] = {}  # generation -> ms since it ended

    def generation(self):
        return self.gen

    def get(self, key):
        return self.entries.get(key)

    def get_or_lead(self, key):
        if key in self.entries:
            return False, self.entries[key]
        if self.lead and key not in self.locks:
            self.locks.add(key)
            return True, None
        return False, None

    def store(self, key, stale_key, raw, settle_ms, gen):
        self.entries[key], self.entries[stale_key] = raw, b"%d\n" % gen + raw
        self.locks.discard(key)

    def stale(self, stale_key):
        raw = self.entries.get(stale_key)
        return None if raw is None else (int(raw.split(b"\n")[0]), raw.split(b"\n", 1)[1])

    def ended_ms_ago(self, gen):
        return self.ended.get(gen)

    def release(self, key):
        self.locks.discard(key)


PAPER_ID = "iclr-2018-p1"


def _kept_before(store: _DictStore, reads: FakeReads, generation: int, ended_ms: int = 2_000) -> Paper:
    """The paper as an answer of ``generation``, which ended ``ended_ms`` ago (its stale copy), its title
    marked so that it is told apart."""
    old = reads.paper(PAPER_ID).model_copy(update={"title": "Kept before the write"})
    reads.calls.clear()
    raw = codec_for(Paper | None).dumps(old)
    store.entries[store.stale_key(digest_of("paper", (PAPER_ID,)))] = b"%d\n" % generation + raw
    store.ended[generation] = ended_ms
    return old


def _read(cached: CachedSearch) -> tuple[Paper, requestctx.RequestState]:
    """The paper read in a request, then what runs once its answer is sent."""
    with fake_app().test_request_context(f"/paper/{PAPER_ID}"):
        paper = cached.paper(PAPER_ID)
        state = requestctx.current()
        writes, state.deferred = state.deferred, []
        for write in writes:
            write()
    return paper, state


@pytest.mark.parametrize("lead", [True, False])
def test_right_after_a_write_a_miss_is_answered_with_the_previous_answer_and_refreshed_by_its_leader(lead):
    reads = FakeReads()
    store = _DictStore(GenerationRead(5, 0, age_ms=2_000), lead=lead)
    _kept_before(store, reads, 4)
    paper, state = _read(CachedSearch(reads, store, refresh_window=30))
    assert paper.title == "Kept before the write" and state.cache_outcome == "stale"
    assert store.waits == []  # not waiting for the leader either
    fresh = store.entries.get(store.fresh_key(5, digest_of("paper", (PAPER_ID,))))
    if lead:  # computed once the answer went out, and kept for the next request
        assert reads.called("paper") == 1 and fresh and b"Kept before the write" not in fresh
    else:  # another request holds the lock: it refreshes
        assert reads.called("paper") == 0 and fresh is None


@pytest.mark.parametrize("gen, window, ended_ms", [
    (GenerationRead(5, 0, age_ms=45_000), 30, 45_000),  # the write is older than the window
    (GenerationRead(5, 0, age_ms=None), 30, 2_000),     # or older than the mark
    (GenerationRead(5, 0, age_ms=2_000), 0, 2_000),     # or the window is off
    (GenerationRead(5, 0, age_ms=2_000), 30, 40_000),   # or the copy's generation ended before the window
])
def test_outside_the_window_a_miss_asks_for_the_new_answer_at_once(gen, window, ended_ms):
    reads = FakeReads()
    store = _DictStore(gen)
    _kept_before(store, reads, 3, ended_ms)
    paper, state = _read(CachedSearch(reads, store, refresh_window=window))
    assert paper.title != "Kept before the write" and state.cache_outcome == "miss" and reads.called("paper") == 1


def test_without_a_free_refresh_slot_the_previous_answer_is_served_and_the_entry_left_to_a_later_request():
    reads = FakeReads()
    store = _DictStore(GenerationRead(5, 0, age_ms=2_000))
    _kept_before(store, reads, 4)
    cached = CachedSearch(reads, store, refresh_window=30)
    for _ in range(REFRESHES_IN_FLIGHT):
        cached._refreshing.acquire()
    paper, _ = _read(cached)
    assert paper.title == "Kept before the write" and reads.called("paper") == 0
    assert store.locks == set()  # the next request leads


def test_a_fragment_rendered_from_a_stale_read_is_shown_but_not_kept():
    reads = FakeReads()
    store = _DictStore(GenerationRead(5, 0, age_ms=2_000))
    _kept_before(store, reads, 4)
    cached = CachedSearch(reads, store, refresh_window=30)
    req = SearchRequest(q="graph")
    with fake_app().test_request_context("/search?q=graph"):
        html = cached.fragment("card", req, lambda r: f"<p>{cached.paper(PAPER_ID).title}</p>")
        for write in requestctx.current().deferred:
            write()
    assert html == "<p>Kept before the write</p>"
    fragment_key = store.fresh_key(5, digest_of("fragment:card", (req,)))
    assert fragment_key not in store.entries and fragment_key not in store.locks


def test_the_window_is_within_what_a_bump_marks():
    from services.search.engine.generation import RECENT_MS
    from services.settings import Settings

    limit = next(m.le for m in Settings.model_fields["cache_refresh_window"].metadata if hasattr(m, "le"))
    assert limit * 1000 == RECENT_MS


def test_an_answer_made_while_the_last_write_settles_is_kept_as_of_the_generation_before():
    """It may lack that write: as a stand-in it must count as that old."""
    reads = FakeReads()
    store = _DictStore(GenerationRead(5, 1_500, age_ms=500))
    _read(CachedSearch(reads, store, refresh_window=30))
    assert store.stale(store.stale_key(digest_of("paper", (PAPER_ID,))))[0] == 4
    store.gen = GenerationRead(6, 0, age_ms=3_000)
    _read(CachedSearch(reads, store, refresh_window=30))
    assert store.stale(store.stale_key(digest_of("paper", (PAPER_ID,))))[0] == 6
