"""The JSON answers described once: the OpenAPI components come from the models, and a builder
cannot send a key its model does not declare."""

from __future__ import annotations

import json
import re

import pydantic
import pytest
from fake_reads import fake_app

from services.web.render import schemas
from services.web.render.openapi import COMPONENTS, components, openapi_document


def test_every_model_is_a_component_and_every_reference_resolves():
    document = openapi_document(fake_app())
    names = set(document["components"]["schemas"])
    assert {model.__name__ for model in COMPONENTS} <= names
    referenced = set(re.findall(r"#/components/schemas/(\w+)", json.dumps(document)))
    assert referenced and referenced <= names


def test_fields_are_required_where_answers_always_carry_them():
    search = components()["SearchResponse"]
    assert set(search["required"]) == set(schemas.SearchResponse.model_fields)
    assert search["properties"]["next_search_after"]["type"] == ["string", "null"]  # as the docs page reads it
    assert "detail" not in components()["Suggestion"]["required"]  # only where it tells two titles apart


def test_an_undeclared_key_is_an_error_not_dropped():
    with pytest.raises(pydantic.ValidationError):
        schemas.Topic(slug="vision", label="Vision", colour="blue")
