"""The tools' arguments are the API's parameters: the same names and schemas, read into query-string values."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.mcp_server.arguments import (
    NameArguments,
    PaperArguments,
    PersonArguments,
    SearchArguments,
    VenueArguments,
    query_values,
)
from services.search.query.sorting import SORTS
from services.web.render.openapi import (
    AUTHOR_NAME,
    MODE_PARAM,
    PAPER_ID,
    PERSON_ID,
    PERSON_PAGING,
    SEARCH_PARAMS,
    VENUE_PATH,
)


@pytest.mark.parametrize("model, params", [
    (SearchArguments, [*SEARCH_PARAMS, MODE_PARAM]),
    (PaperArguments, [PAPER_ID]),
    (VenueArguments, VENUE_PATH),
    (PersonArguments, [PERSON_ID, *PERSON_PAGING]),
    (NameArguments, [AUTHOR_NAME]),
])
def test_each_argument_is_an_api_parameter_with_its_schema(model, params):
    schema = model.model_json_schema()
    assert list(schema["properties"]) == [p["name"] for p in params]
    assert schema["additionalProperties"] is False
    assert schema.get("required", []) == [p["name"] for p in params if p.get("required")]
    for param in params:
        field = schema["properties"][param["name"]]
        if param["schema"]["type"] == "array":  # one value or a list of them
            assert field["anyOf"] == [param["schema"]["items"], param["schema"]]
        else:
            assert {k: field[k] for k in param["schema"]} == param["schema"]
        assert field.get("description") == param.get("description")


def test_the_search_takes_the_apis_sorts_and_facets():
    props = SearchArguments.model_json_schema()["properties"]
    assert props["sort"]["enum"] == list(SORTS)
    assert {"q", "conference", "year", "topic", "track", "status", "sort", "page", "page_size", "mode"} <= set(props)


def test_arguments_become_query_string_values():
    given = SearchArguments.model_validate({"q": "graph", "conference": ["iclr", "icml"], "year": "2018-2020",
                                            "page": 2})
    assert query_values(given) == {"q": ["graph"], "conference": ["iclr", "icml"], "year": ["2018-2020"],
                                   "page": ["2"]}


@pytest.mark.parametrize("model, given", [
    (SearchArguments, {"venue": "iclr"}),  # not a name the API takes (it is `conference`)
    (SearchArguments, {"page": "two"}),
    (SearchArguments, {"conference": {"slug": "iclr"}}),
    (PaperArguments, {}),
    (VenueArguments, {"slug": "iclr", "year": "recent"}),
])
def test_what_does_not_fit_the_api_is_refused(model, given):
    with pytest.raises(ValidationError):
        model.model_validate(given)
