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
