"""Property-based tests of the JSON API against its own OpenAPI document (Schemathesis 4).

Every GET operation of the OpenAPI document, and POST /api/v1/similar, is exercised over real HTTP (``live_server``:
the Flask app over the ingested sample corpus) with generated valid *and* invalid requests,
in Schemathesis' examples, coverage (boundary values, wrong types, undeclared methods) and
fuzzing phases. Its default checks run on every response: no 5xx, status code, content
type, headers and body as documented, schema-valid requests accepted and schema-violating
ones rejected (400), undeclared methods answered with 405 and an ``Allow`` header.

Bounded and reproducible: ``MAX_EXAMPLES`` per operation (fuzzing), a per-request timeout
and a response-time limit, a fixed seed, derandomized Hypothesis and no example database on
disk. ``SCHEMATHESIS_SEED`` / ``SCHEMATHESIS_MAX_EXAMPLES`` explore further by hand;
``HYPOTHESIS_PROFILE=explore`` searches fresh examples (random seed, 5x the examples).

Generation is explicitly both modes: schema-valid (positive) and schema-violating
(negative) requests. A stateful run chains operations through the links Schemathesis
infers from the document (ids returned by one call fed to the next).

The admin API is not fuzzed (with the token its POST would start a real reindex); its operations
are checked without a token. The document is generated from an app of the same views at
collection time (:func:`openapi_document` of ``fake_app()``, so the pytest items exist then) and
a test asserts that ``/api/v1/openapi.json`` serves exactly it.
"""

from __future__ import annotations

import copy
import os
import re
import sys
from collections import Counter, defaultdict

import hypothesis
import pytest
import requests
import schemathesis
from fake_reads import fake_app
from openapi_spec_validator import validate

from services.search.catalogue import STATUSES
from services.search.limits import MAX_WINDOW, MAX_YEAR, MIN_YEAR
from services.search.query.query_language import parse
from services.search.query.sorting import SORTS
from services.web.render.openapi import openapi_document

pytestmark = pytest.mark.integration

EXPLORE = os.environ.get("HYPOTHESIS_PROFILE") == "explore"
SEED = int(os.environ.get("SCHEMATHESIS_SEED", "0")) or (None if EXPLORE else 20240613)
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "300" if EXPLORE else "60"))
REQUEST_TIMEOUT = 20     # seconds per request: fails a hung request instead of the whole run
MAX_RESPONSE_TIME = 10   # seconds: a healthy answer takes milliseconds

SENT: dict[str, Counter] = defaultdict(Counter)  # operation -> status code -> requests


def _config() -> schemathesis.Config:
    seed = {"seed": SEED} if SEED is not None else {}
    return schemathesis.Config.from_dict({
        **seed,
        "request-timeout": REQUEST_TIMEOUT,
        "generation": {"max-examples": MAX_EXAMPLES, "deterministic": not EXPLORE, "database": "none",
                       "mode": "all"},  # positive and negative
        "checks": {"max_response_time": MAX_RESPONSE_TIME},
        # The stateful phase follows the document's links (test_stateful_sequences_conform).
        "phases": {"stateful": {"enabled": True}},
    })


DOCUMENT = openapi_document(fake_app())
# A copy: Schemathesis changes the dict it is given (the served document is compared with DOCUMENT).
schema = schemathesis.openapi.from_dict(copy.deepcopy(DOCUMENT), config=_config())
ADMIN = "^/api/v1/admin/"


@pytest.fixture(scope="module")
def cursors(live_server) -> dict[tuple[str, bool], str]:
    """A real ``next_search_after`` cursor for each sort order, with and without query words (relevance
    without words is the browse order, whose cursor has other keys): cursors are opaque to a schema."""
    out = {}
    for sort in SORTS:
        for words in (False, True):
            params = {"sort": sort, "page_size": 1, **({"q": "learning"} if words else {})}
            resp = requests.get(f"{live_server}/api/v1/search", params=params, timeout=30)
            resp.raise_for_status()
            out[(sort, words)] = resp.json()["next_search_after"]
    return out


@pytest.fixture(scope="module", autouse=True)
def _report_requests():
    yield
    if SENT:
        lines = [f"  {label}: {sum(codes.values())} ({', '.join(f'{c}: {n}' for c, n in sorted(codes.items()))})"
                 for label, codes in sorted(SENT.items())]
        total = sum(sum(codes.values()) for codes in SENT.values())
        print(f"\nschemathesis sent {total} requests (seed {SEED}):\n" + "\n".join(lines), file=sys.stderr)


@pytest.fixture(scope="module")
def venues(live_server) -> list[str]:
    """The venues with papers: the only ``conference`` values the API takes (the index's, not a schema's)."""
    facets = requests.get(f"{live_server}/api/v1/search", params={"page_size": 1}, timeout=30).json()["facets"]
    return [v["value"] for v in facets["conference"]]


def _venues_with_papers(params: dict, venues: list[str]) -> None:
    """Generated ``conference`` values in place, each replaced by a venue with papers (blanks are ignored anyway)."""
    value = params.get("conference")
    if isinstance(value, (str, list)):
        chosen = [v if not isinstance(v, str) or not v.strip() or v.lower() in venues else venues[len(v) % len(venues)]
                  for v in (value if isinstance(value, list) else [value])]
        params["conference"] = chosen if isinstance(value, list) else chosen[0]


def _keep_positive_cases_valid(case, cursors: dict[tuple[str, bool], str], venues: list[str]) -> None:
    """Three rules of /search (the last two of /similar too) a schema cannot state: a cursor is a token the API
    issued, a conference is one with papers, and page * page_size stays inside the result window. Valid
    (positive) cases get a real cursor, real venues and a page inside the window; invalid (negative) cases
    are sent as generated."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return
    if isinstance(case.query, dict):
        _venues_with_papers(case.query, venues)
    if case.operation.path == "/api/v1/similar":  # the same rules, in the JSON body
        body = case.body if isinstance(case.body, dict) else {}
        _venues_with_papers(body, venues)
        page, size = body.get("page"), body.get("page_size", 20)
        if isinstance(page, (int, float)) and isinstance(size, (int, float)) and size > 0 and page * size > MAX_WINDOW:
            body["page"] = max(1, MAX_WINDOW // int(size))
        return
    if case.operation.path != "/api/v1/search":
        return
    query = case.query if isinstance(case.query, dict) else {}
    if query.get("search_after") and query.get("mode") not in (None, "", "lexical"):
        del query["search_after"]  # kNN modes page with page only (a 400 names the rule)
    if query.get("search_after"):
        sort = str(query.get("sort") or "relevance").lower()
        words = not parse(str(query.get("q") or "").strip()).is_empty
        query["search_after"] = cursors.get((sort, words), cursors[("relevance", words)])
    page, size = query.get("page"), query.get("page_size", 20)
    if isinstance(page, int) and isinstance(size, int) and size > 0 and page * size > MAX_WINDOW:
        query["page"] = max(1, MAX_WINDOW // size)


@schema.exclude(path_regex=ADMIN).parametrize()
@pytest.mark.timeout(600)
def test_api_conforms_to_its_openapi_document(case, live_server, cursors, venues):
    _keep_positive_cases_valid(case, cursors, venues)
    response = case.call(base_url=live_server)
    SENT[case.operation.label][response.status_code] += 1
    case.validate_response(response)


def test_stateful_sequences_conform(live_server, cursors, venues):
    """Chained calls over the document's links (a search's first hit into paper and similar,
    its cursor into the next page), valid and invalid requests."""
    base = schema.as_state_machine()

    class Workflow(base):  # type: ignore[misc, valid-type]
        def before_call(self, case):
            _keep_positive_cases_valid(case, cursors, venues)

        def get_call_kwargs(self, case):
            return {"base_url": live_server}

        def after_call(self, response, case):
            SENT[f"stateful {case.operation.label}"][response.status_code] += 1

    Workflow.run(settings=hypothesis.settings(
        max_examples=MAX_EXAMPLES // 3, stateful_step_count=5, deadline=None, database=None,
        derandomize=not EXPLORE, suppress_health_check=list(hypothesis.HealthCheck)))
    assert any(label.startswith("stateful") for label in SENT)


def test_served_document_is_the_tested_one_and_valid(live_server):
    resp = requests.get(f"{live_server}/api/v1/openapi.json", timeout=30)
    assert resp.status_code == 200 and resp.headers["Content-Type"].startswith("application/json")
    document = resp.json()
    assert document == DOCUMENT
    validate(document)  # openapi-spec-validator: raises, naming the offending path, when invalid
    assert document["openapi"].startswith("3.1")
    for path, item in document["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            assert "503" in responses, (method, path)
            if method == "get":  # bad input is documented; an answer, or where it is (the API's index)
                assert ("200" in responses or "302" in responses) and "400" in responses, (method, path)


def test_year_pattern_matches_the_validated_range():
    search = next(p for p in DOCUMENT["paths"]["/api/v1/search"]["get"]["parameters"] if p["name"] == "year")
    pattern = re.compile(search["schema"]["items"]["pattern"])
    for ok in (str(MIN_YEAR), str(MAX_YEAR), "2021", "2018-2022", " 2018 – 2022 ", ""):
        assert pattern.search(ok), ok
    for bad in (str(MIN_YEAR - 1), str(MAX_YEAR + 1), "0000", "20x1", "2018-", "٢٠٢١"):
        assert not pattern.search(bad), bad


def _operation(path: str, method: str = "GET"):
    return schema[path][method]


def test_real_papers_and_similar_lists_conform(live_server):
    """Generated ids are almost never real, so fetch real papers from every conference too."""
    facets = requests.get(f"{live_server}/api/v1/search", params={"page_size": 1}, timeout=30).json()["facets"]
    ids = []
    for conference in [v["value"] for v in facets["conference"]]:
        hits = requests.get(f"{live_server}/api/v1/search", timeout=30, params={
            "conference": conference, "page_size": 3, "status": list(STATUSES)}).json()["hits"]
        ids.extend(h["id"] for h in hits)
    assert len(ids) > 40
    paper, similar = _operation("/api/v1/papers/{paper_id}"), _operation("/api/v1/papers/{paper_id}/similar")
    for paper_id in ids:
        resp = paper.Case(path_parameters={"paper_id": paper_id}).call_and_validate(base_url=live_server)
        assert resp.status_code == 200 and resp.json()["id"] == paper_id
    for paper_id in ids[::5]:
        resp = similar.Case(path_parameters={"paper_id": paper_id}).call_and_validate(base_url=live_server)
        assert resp.status_code == 200


@pytest.mark.parametrize(("path", "method", "path_parameters"), [
    ("/api/v1/admin/reindex", "POST", {}), ("/api/v1/admin/reindex", "GET", {}),
    ("/api/v1/admin/tasks/{task_id}", "GET", {"task_id": "0f3c"})])
def test_the_admin_api_without_a_token_is_a_documented_401(live_server, path, method, path_parameters):
    operation = _operation(path, method)
    for headers in ({}, {"Authorization": "Bearer wrong"}):
        resp = operation.Case(headers=headers, path_parameters=path_parameters).call_and_validate(base_url=live_server)
        assert resp.status_code == 401 and resp.json()["error"]["code"] == "unauthorized"
