"""Every parameter must be UTF-8: a 400 names the one that is not, on every route, before anything runs."""

from __future__ import annotations

import pytest
from fake_reads import fake_app

from services.search.errors import InvalidRequest
from services.web.http.parameters import check_utf8


@pytest.mark.parametrize("query, name", [
    (b"q=%C3%28", "q"), (b"q=%FF%FE", "q"), (b"a=1&conference=%ED%A0%80", "conference"), (b"q=%E2%82", "q"),
    (b"q=\xff", "q"),                  # a raw byte, not even escaped
    (b"%FF=1", "\ufffd"),              # the name itself
])
def test_a_parameter_that_is_not_utf8_is_named(query, name):
    with pytest.raises(InvalidRequest) as raised:
        check_utf8(query)
    assert raised.value.parameter == name


@pytest.mark.parametrize("query", [b"", b"q=graph+nets", b"q=caf%C3%A9&year=2024", b"q=%F0%9F%98%80", b"q=%G1&b",
                                   b"q=100%", b"&&=&"])
def test_utf8_and_escapes_that_are_text_pass(query):
    check_utf8(query)


@pytest.mark.parametrize("path", ["/search?q=%C3%28", "/api/v1/search?q=%FF%FE", "/api/v1/suggest?q=%FF",
                                  "/search.atom?conference=%C3", "/papers/neurips-2021-p2?x=%FF"])
def test_every_route_answers_400_naming_it(path):
    resp = fake_app().test_client().get(path)
    assert resp.status_code == 400
    text = resp.get_data(as_text=True)
    assert "not valid UTF-8" in text
    if path.startswith("/api/"):
        assert resp.get_json()["error"]["code"] == "invalid_parameter"
    else:
        assert "<!doctype html>" in text and resp.headers["Cache-Control"] == "no-store"
