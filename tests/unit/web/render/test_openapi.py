"""The OpenAPI document is generated from the operations the views declare: every route under
/api/ is in it with its methods and path parameters, or says why not (@undocumented)."""

from __future__ import annotations

import re

import pytest
from fake_reads import fake_app
from flask import Flask

from services.web.render.openapi import openapi_document, openapi_path, operation, operations, undocumented

IGNORED_METHODS = {"HEAD", "OPTIONS"}


@pytest.fixture(scope="module")
def app():
    return fake_app()


def _api_routes(app) -> set[tuple[str, str]]:
    return {(openapi_path(rule.rule), method.lower())
            for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")
            and not getattr(app.view_functions[rule.endpoint], "undocumented", None)
            for method in rule.methods - IGNORED_METHODS}


def test_the_document_has_every_api_route_and_method_and_nothing_else(app):
    paths = openapi_document(app)["paths"]
    documented = {(path, method) for path, item in paths.items() for method in item}
    assert documented == _api_routes(app)
    assert {("/api/v1/admin/reindex", "get"), ("/api/v1/admin/tasks/{task_id}", "get"),
            ("/api/v1/admin/reindex", "post")} <= documented


def test_only_the_document_its_page_and_the_way_there_are_left_out(app):
    left_out = {rule.rule for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")
                and getattr(app.view_functions[rule.endpoint], "undocumented", None)}
    assert left_out == {"/api/v1/openapi.json", "/api/docs", "/api/", "/api/v1"}


def test_the_apis_index_is_an_operation_a_redirect_to_its_docs(app):
    op = openapi_document(app)["paths"]["/api/v1/"]["get"]
    assert op["operationId"] == "apiIndex"
    found = op["responses"]["302"]
    assert found["headers"]["Location"]["required"] and "content" not in found  # where to go, no body
    assert "200" not in op["responses"] and {"400", "429", "503"} <= set(op["responses"])
    resp = app.test_client().get("/api/v1/")
    assert resp.status_code == 302 and resp.headers["Location"] == "/api/docs"


def test_path_parameters_are_the_routes_own(app):
    for path, item in openapi_document(app)["paths"].items():
        for method, op in item.items():
            declared = {p["name"] for p in op.get("parameters", ()) if p["in"] == "path"}
            assert declared == set(re.findall(r"\{(\w+)\}", path)), (method, path)


def test_operation_ids_are_unique(app):
    ids = [op["operationId"] for item in openapi_document(app)["paths"].values() for op in item.values()]
    assert len(ids) == len(set(ids))


def test_an_api_route_without_a_declaration_is_an_error():
    bare = Flask(__name__)

    @bare.get("/api/v1/thing/<int:n>")
    def thing(n):
        return {}

    with pytest.raises(LookupError, match=r"/api/v1/thing/<int:n> \(thing\) declares no @operation"):
        list(operations(bare))

    declared = Flask(__name__)

    @declared.get("/api/v1/thing/<int:n>")
    @operation("thing", "A thing", answer="Error", params=[{"name": "n", "in": "path", "required": True}])
    def thing2(n):
        return {}

    @declared.get("/api/v1/doc")
    @undocumented("a test's page")
    def page():
        return ""

    @declared.get("/elsewhere")
    def other():
        return ""

    assert [(path, method, op.id) for path, method, op in operations(declared)] == [
        ("/api/v1/thing/{n}", "get", "thing")]


def test_flask_rules_become_openapi_paths():
    assert openapi_path("/api/v1/venues/<slug>/<int:year>") == "/api/v1/venues/{slug}/{year}"
    assert openapi_path("/api/v1/papers/<paper_id>/similar") == "/api/v1/papers/{paper_id}/similar"


def test_the_admin_body_is_its_model(app):
    body = openapi_document(app)["paths"]["/api/v1/admin/reindex"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    assert body["required"] is False  # no body: the defaults
    assert schema["additionalProperties"] is False and schema["properties"]["from_sources"]["type"] == "boolean"


def test_export_documents_a_reading_lists_ids_with_the_pattern_the_view_validates(app, fake_client):
    params = {p["name"]: p for p in openapi_document(app)["paths"]["/api/v1/export"]["get"]["parameters"]}
    pattern = re.compile(params["ids"]["schema"]["pattern"])
    assert params["ids"]["in"] == "query" and "format" in params and "q" in params
    for ids in ("iclr-2018-p1,cvpr-2016-p3", " a , b ,", "<script>", "x" * 101):
        documented = bool(pattern.search(ids))
        answered = fake_client.get("/api/v1/export", query_string={"ids": ids, "format": "json"}).status_code
        assert (answered == 200) == documented, (ids, answered)


def test_people_are_operations_whose_ids_have_the_pattern_the_view_validates(app):
    from services.search.limits import PERSON_ID_PATTERN

    paths = openapi_document(app)["paths"]
    person = paths["/api/v1/people/{person_id}"]["get"]
    assert person["operationId"] == "getPerson" and "404" in person["responses"]
    assert person["parameters"][0]["schema"]["pattern"] == f"^{PERSON_ID_PATTERN}$"
    named = paths["/api/v1/people"]["get"]
    assert named["parameters"][0]["name"] == "name" and named["parameters"][0]["required"]
