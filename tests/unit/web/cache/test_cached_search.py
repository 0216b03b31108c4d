"""CachedSearch implements every read explicitly; without a store (or a request) it passes through."""

from __future__ import annotations

from fake_reads import FakeReads, fake_app, signature_gaps

from services.search.query.request import SearchRequest
from services.search.reads import SearchReads
from services.web import extensions
from services.web.cache.results import CachedSearch
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
        return 1, 0

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
