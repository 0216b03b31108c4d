"""A paper in an agent's list: the API's summary fields and the start of the abstract."""

from __future__ import annotations

from services.mcp_server.briefs import (
    BRIEF_FIELDS,
    ELLIPSIS,
    PERSON_BRIEF_FIELDS,
    PaperBrief,
    PersonBrief,
    abstract_start,
)
from services.search.limits import BRIEF_ABSTRACT
from services.web.render.people_schemas import Person
from services.web.render.schemas import PaperSummary


def test_a_brief_is_the_apis_summary_narrowed_with_the_abstracts_start():
    assert list(PaperBrief.model_fields) == [*BRIEF_FIELDS, "abstract"]
    for name in BRIEF_FIELDS:
        assert PaperBrief.model_fields[name].annotation == PaperSummary.model_fields[name].annotation, name
        assert PaperBrief.model_fields[name].description == PaperSummary.model_fields[name].description, name


def test_a_person_brief_is_the_apis_person_narrowed():
    assert tuple(PersonBrief.model_fields) == PERSON_BRIEF_FIELDS
    for name in PERSON_BRIEF_FIELDS:
        assert PersonBrief.model_fields[name].annotation == Person.model_fields[name].annotation, name


def test_the_abstracts_start_is_cut_at_a_word():
    words = "diffusion " * 100
    cut = abstract_start(words)
    assert len(cut) <= BRIEF_ABSTRACT and cut.endswith(ELLIPSIS) and cut.removesuffix(ELLIPSIS).endswith("diffusion")
    assert abstract_start("A  short\nabstract.") == "A short abstract."
    assert abstract_start("") == ""
