"""How :class:`PaperSearch` calls Elasticsearch: every read within the request's deadline, never a
partial answer, and one breaker admission (one failure counted) per call a caller makes.

A recording stand-in for the client answers; no Elasticsearch runs.
"""

from __future__ import annotations

from typing import Any

import elastic_transport
import pytest

from services.search.engine.boundary import Deadlines, search_breaker, start_deadline
from services.search.engine.breaker import CLOSED
from services.search.errors import SearchOverloaded, SearchUnavailable
from services.search.query.request import SearchRequest
from services.search.service import PaperSearch


class Aggregation(dict):
    """An empty aggregation answer under any name asked for (sub-aggregations too)."""

    def __init__(self) -> None:
        super().__init__(buckets=[], doc_count=0, sum_other_doc_count=0)

    def __missing__(self, name: str) -> Aggregation:
        return Aggregation()


class Response(dict):
    """What the client returns: a mapping with ``.body``."""

    @property
    def body(self) -> dict:
        return self


class RecordingES:
    """Answers ``search`` and ``get``; records each call's client deadline and arguments."""

    def __init__(self, *, timed_out: bool = False, down: bool = False, stored: dict | None = None):
        self.calls: list[tuple[str, float | None, dict]] = []
        self.timed_out = timed_out
        self.down = down
        self.stored = stored if stored is not None else {"abstract": ""}
        self._timeout: float | None = None

    def options(self, *, request_timeout: float | None = None, **_: Any) -> RecordingES:
        clone = type(self).__new__(type(self))
        clone.__dict__ = {**self.__dict__, "_timeout": request_timeout}  # shares ``calls``
        return clone

    def search(self, **kwargs: Any) -> Response:
        self.calls.append(("search", self._timeout, kwargs))
        if self.down:
            raise elastic_transport.ConnectionTimeout("timed out")
        return Response(timed_out=self.timed_out, hits={"total": {"value": 0}, "hits": []},
                        aggregations=Aggregation())

    def get(self, **kwargs: Any) -> Response:
        self.calls.append(("get", self._timeout, kwargs))
        return Response(_source=self.stored)

    def mget(self, **kwargs: Any) -> Response:
        self.calls.append(("mget", self._timeout, kwargs))
        return Response(docs=[{"_id": i, "found": i == "p1", "_source": {**self.stored, "paper_id": i}}
                              for i in kwargs["ids"]])


def _service(es: RecordingES, **kwargs: Any) -> PaperSearch:
    return PaperSearch(es, "papers", deadlines=Deadlines(search=2.0, ready=1.0), **kwargs)  # type: ignore[arg-type]


READS = {
    "search": lambda s: s.search(SearchRequest(q="graph")),
    "trends": lambda s: s.trends(SearchRequest(q="graph")),
    "venue_years": lambda s: s.venue_years("iclr", 2020),
    "institutions": lambda s: s.institutions("iclr", 2020),
    "feed": lambda s: s.feed(SearchRequest(q="graph")),
    "export": lambda s: s.export(SearchRequest(q="graph")),
    "overview": lambda s: s.overview(),
    "conference": lambda s: s.conference("iclr"),
    "author": lambda s: s.author("Ada Lovelace"),
    "suggest": lambda s: s.suggest("gra"),
    "similar": lambda s: s.similar("p1"),
    "people_named": lambda s: s.people_named("Ada Lovelace"),
}


@pytest.mark.parametrize("read", sorted(READS))
def test_every_search_gets_its_deadline_and_a_server_side_timeout(read):
    start_deadline(2.0)
    es = RecordingES()
    READS[read](_service(es))
    searches = [(timeout, kwargs) for api, timeout, kwargs in es.calls if api == "search"]
    assert searches, read
    for timeout, kwargs in searches:
        assert timeout is not None and 0 < timeout <= 1.5, (read, timeout)  # its share, within the budget
        assert kwargs.get("timeout", "").endswith("ms"), (read, kwargs)     # Elasticsearch stops in time too


@pytest.mark.parametrize("read", sorted(READS))
def test_a_partial_answer_is_never_shown(read):
    """Elasticsearch out of time answers what it has: a 503 (or the last good answer), never that."""
    start_deadline(2.0)
    with pytest.raises(SearchOverloaded):
        READS[read](_service(RecordingES(timed_out=True)))


def test_paper_reads_get_their_deadline():
    start_deadline(2.0)
    es = RecordingES(stored={"paper_id": "p1", "conference": "iclr", "title": "T", "year": 2020})
    service = _service(es)
    service.paper("p1")
    service.similar("p1")  # no embedding: its words instead
    gets = [timeout for api, timeout, _ in es.calls if api == "get"]
    assert len(gets) == 2 and all(t is not None and 0 < t <= 1.5 for t in gets)


def test_a_persons_reads_go_to_the_people_index_within_the_deadline():
    """The person by id, their papers from the alias; a name's people and the people a prefix starts, searched."""
    start_deadline(2.0)
    es = RecordingES(stored={"person_id": "p1", "name": "Ada Lovelace", "name_key": "ada lovelace", "kind": "person"})
    service = _service(es)
    assert service.person("p1").person.name == "Ada Lovelace"
    assert service.people_named("Ada Lovelace") == [] and service.suggest("ada") == []
    assert list(service.people(["p1", "p2"])) == ["p1"]  # p2 is nobody
    indices = [(api, kwargs["index"]) for api, _, kwargs in es.calls]
    assert indices == [("get", "papers-people"), ("search", "papers"), ("search", "papers-people"),
                       ("search", "papers-people"), ("search", "papers"), ("mget", "papers-people")]
    assert all(timeout is not None and 0 < timeout <= 1.5 for _, timeout, _ in es.calls)
    assert all(kwargs["timeout"].endswith("ms") for api, _, kwargs in es.calls if api == "search")


def test_a_reading_list_is_one_multi_get_within_the_deadline_in_its_order():
    start_deadline(2.0)
    es = RecordingES(stored={"conference": "iclr", "title": "T", "year": 2020})
    found = _service(es).papers_by_id(["p2", "p1", "p1"])
    assert [p.paper_id for p in found] == ["p1"]  # p2 is no paper; p1 once
    (api, timeout, kwargs), = es.calls
    assert api == "mget" and kwargs["ids"] == ["p2", "p1"] and 0 < timeout <= 1.5
    assert _service(es).papers_by_id([]) == [] and len(es.calls) == 1  # nothing asked, nothing sent


def test_one_failed_call_counts_once_toward_the_breaker():
    """similar() falls back to more_like_this on its words: one call, one failure."""
    breaker = search_breaker(failures=2, cooldown=60)
    service = _service(RecordingES(down=True), breaker=breaker)
    with pytest.raises(SearchUnavailable):
        service.similar("p1")
    assert breaker.state == CLOSED  # two failures would have opened it


def test_a_probing_breaker_lets_the_whole_call_through():
    """While half-open, the breaker admits one call; the fallback inside it is part of that call."""
    clock = [0.0]
    breaker = search_breaker(failures=1, cooldown=2.0)
    breaker._clock = lambda: clock[0]
    failing = _service(RecordingES(down=True), breaker=breaker)
    with pytest.raises(SearchUnavailable):
        failing.search(SearchRequest(q="graph"))
    clock[0] += 2.5  # the cool-down is over: the next call probes
    healthy = _service(RecordingES(), breaker=breaker)
    assert healthy.similar("p1") == []
    assert breaker.state == CLOSED


class AggsOutOfTime(RecordingES):
    """Elasticsearch that runs out of time on any search counting facets; hits alone come back in time."""

    def search(self, **kwargs: Any) -> Response:
        self.calls.append(("search", self._timeout, kwargs))
        aggs = {name for name in kwargs.get("aggs") or {} if name != "lexical_matches"}
        hits = [{"_id": "p1", "_source": {"paper_id": "p1", "conference": "iclr", "title": "Graphs", "year": 2020}}]
        return Response(timed_out=bool(aggs), hits={"total": {"value": 1}, "hits": hits}, aggregations=Aggregation())


def _sent(es: RecordingES) -> list[tuple[str, float | None, dict]]:
    """The calls made, without the count a short query is first asked for (is it broad?)."""
    count = {"query", "post_filter", "size", "track_total_hits"}
    return [call for call in es.calls if set(call[2]) - {"timeout", "index"} != count]


def test_a_search_whose_facet_counts_run_out_of_time_answers_its_hits():
    start_deadline(2.0)
    es = AggsOutOfTime()
    service = PaperSearch(es, "papers", deadlines=Deadlines(search=2.0, ready=1.0, facets=0.1))  # type: ignore[arg-type]
    results = service.search(SearchRequest(q="graph"))
    assert [h.paper.paper_id for h in results.hits] == ["p1"] and results.total == 1
    assert results.left_out == ("facets",) and results.facets == {}
    first, second = (kwargs for _, _, kwargs in _sent(es)[:2])
    assert first["aggs"] and first["timeout"] == "100ms"  # the facets budget, not half the deadline
    assert "aggs" not in second and second["timeout"] == "750ms"  # the hits alone, with the time left


def test_trends_that_run_out_of_time_are_refused_not_partial():
    start_deadline(2.0)
    service = PaperSearch(AggsOutOfTime(), "papers", deadlines=Deadlines(facets=0.1))  # type: ignore[arg-type]
    with pytest.raises(SearchOverloaded):
        service.trends(SearchRequest(q="graph"))


class AggsNotAnswered(AggsOutOfTime):
    """Elasticsearch too busy to answer a search with facets before the client's deadline; hits alone in time."""

    def search(self, **kwargs: Any) -> Response:
        if {name for name in kwargs.get("aggs") or {} if name != "lexical_matches"}:
            self.calls.append(("search", self._timeout, kwargs))
            raise elastic_transport.ConnectionTimeout("read timed out")
        return super().search(**kwargs)


def test_facets_the_cluster_is_too_busy_to_answer_leave_the_hits_and_never_open_the_breaker():
    """Under load a client-side timeout of the facets is a left-out part, not a 503 nor an outage (issue 17)."""
    breaker = search_breaker(failures=1)
    es = AggsNotAnswered()
    service = PaperSearch(es, "papers", deadlines=Deadlines(search=2.0, ready=1.0, facets=0.5),  # type: ignore[arg-type]
                          breaker=breaker)
    for _ in range(3):
        start_deadline(2.0)
        results = service.search(SearchRequest(q="graph"))
        assert [h.paper.paper_id for h in results.hits] == ["p1"] and results.left_out == ("facets",)
    assert breaker.state == CLOSED
    first, second = _sent(es)[:2]
    assert first[1] == 1.0 and "aggs" not in second[2]  # twice the facets budget, then the hits with the time left
