"""A request's budget starts at the front: one that waited past the queue budget is answered at once, not run late."""

from __future__ import annotations

import time

from fake_reads import FakeReads, fake_app
from werkzeug.datastructures import Headers

from services.search.engine.boundary import Deadlines
from services.web.http.queueing import budget_left, waited


def _front(started: float, held: str | None = None) -> Headers:
    headers = Headers({"X-Request-Start": f"t={started:.3f}"})
    if held is not None:
        headers["X-Request-Held"] = held
    return headers


def test_the_wait_is_from_when_the_front_received_the_request():
    assert waited(_front(100.0), now=100.75) == 0.75
    assert waited(_front(100.0, held="0.250"), now=100.75) == 1.0  # nginx held it 250 ms before handing it on


def test_without_the_fronts_headers_or_with_junk_nothing_was_waited():
    assert waited(Headers(), now=100.0) == 0.0
    for junk in ("100", "t=", "t=abc", "t=nan", "t=-5", "t=inf"):
        assert waited(Headers({"X-Request-Start": junk}), now=100.0) == 0.0
    assert waited(_front(100.0, held="junk"), now=100.5) == 0.5


def test_a_start_in_the_future_buys_no_extra_time():
    assert waited(_front(200.0), now=100.0) == 0.0
    assert waited(_front(100.0, held="1e9"), now=100.0) == 60.0  # capped


def test_the_budget_left_shrinks_with_the_wait_and_is_gone_past_the_queue_budget():
    assert budget_left(2.0, 0.0, 0.5) == 2.0
    assert budget_left(2.0, 0.4, 0.5) == 1.6
    assert budget_left(2.0, 0.6, 0.5) == 0.0
    assert budget_left(2.0, 3.0, 5.0) == 0.0


class BudgetedReads(FakeReads):
    """The fake search, asking for its call's time as PaperSearch does (Deadlines.left raises once it is spent)."""

    def search(self, req):
        Deadlines().left(Deadlines().call)
        return super().search(req)


def test_a_search_that_waited_past_the_queue_budget_is_a_fast_503_with_retry_after():
    reads = BudgetedReads()
    client = fake_app(reads, PAPERLIST_QUEUE_BUDGET="0.5").test_client()
    late = client.get("/api/v1/search?q=graph", headers={"X-Request-Start": f"t={time.time() - 1.0:.3f}"})
    assert late.status_code == 503
    assert int(late.headers["Retry-After"]) >= 1
    assert late.get_json()["error"]["code"] == "unavailable"
    assert late.headers["Cache-Control"] == "no-store"  # the edge never keeps it (it serves its stale copy instead)
    page = client.get("/search?q=graph", headers={"X-Request-Start": f"t={time.time() - 1.0:.3f}"})
    assert page.status_code == 503 and "text/html" in page.headers["Content-Type"]


def test_a_search_that_waited_less_is_answered():
    client = fake_app(BudgetedReads(), PAPERLIST_QUEUE_BUDGET="0.5").test_client()
    prompt = client.get("/api/v1/search?q=graph", headers={"X-Request-Start": f"t={time.time() - 0.1:.3f}"})
    assert prompt.status_code == 200 and prompt.get_json()["total"] > 0
    assert client.get("/api/v1/search?q=graph").status_code == 200  # no front: nothing waited


def test_a_readiness_probe_is_never_shed():
    client = fake_app(BudgetedReads(), PAPERLIST_QUEUE_BUDGET="0.5").test_client()
    late = client.get("/readyz", headers={"X-Request-Start": f"t={time.time() - 5:.3f}"})
    assert late.status_code == 200
