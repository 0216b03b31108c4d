"""The tools' arguments: the JSON API's own parameters, as pydantic models the SDK validates and publishes.

Each tool takes what its API route takes, declared once for the OpenAPI document
(:mod:`services.web.render.openapi`: ``SEARCH_PARAMS`` from the facet registry, the sorts and the limits;
``PAPER_ID``, ``PERSON_ID``, ``VENUE_PATH``...). :func:`arguments_model` turns those declarations into a
model whose JSON schema is each parameter's schema as the API documents it, so an agent reads the same
names, enums, patterns and bounds as a client of ``/api/v1``. A parameter that may repeat in a query string
(a facet) takes one value or a list. The model checks the JSON types and refuses a name the API does not take;
the values themselves are read by the API's own parsers (``parse_request`` and the rest, in :mod:`.tools`),
so a value means the same, and is refused with the same message, as on the API.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any

from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, create_model

from services.web.render.openapi import (
    AUTHOR_NAME,
    BIB_SCHEMA,
    KEEP_PARAM,
    MODE_PARAM,
    PAPER_ID,
    PERSON_ID,
    PERSON_PAGING,
    SEARCH_PARAMS,
    VENUE_PATH,
)

Param = Mapping[str, Any]  # one parameter as the OpenAPI document declares it
_TYPES: dict[str, Any] = {"string": str, "integer": int}


class Arguments(ArgModelBase):
    """A tool's arguments: a name the API does not take is an error (a tool error to the agent), not ignored."""

    model_config = ConfigDict(extra="forbid")


def _field(param: Param) -> tuple[Any, Any]:
    schema = dict(param["schema"])
    if schema["type"] == "array":  # repeated in a query string: here one value or a list of them
        kind: Any = str | list[str]
        schema = {"anyOf": [schema["items"], schema]}
    else:
        kind = _TYPES[schema["type"]]
    if "description" in param:
        schema["description"] = param["description"]
    if param.get("required"):
        return Annotated[kind, WithJsonSchema(schema)], Field(...)
    return Annotated[kind | None, WithJsonSchema(schema)], Field(None)


def arguments_model(name: str, params: Iterable[Param]) -> type[Arguments]:
    """The model of a tool's arguments: one field per API parameter, its schema the API's."""
    return create_model(name, __base__=Arguments, **{p["name"]: _field(p) for p in params})


def query_values(arguments: BaseModel) -> dict[str, list[str]]:
    """The arguments given, as a query string carries them (each a list of strings): what the API's parsers read."""
    values: dict[str, list[str]] = {}
    for name, value in arguments.model_dump(exclude_none=True).items():
        values[name] = [str(v) for v in value] if isinstance(value, list) else [str(value)]
    return values


SearchArguments = arguments_model("SearchArguments", [*SEARCH_PARAMS, MODE_PARAM])
PaperArguments = arguments_model("PaperArguments", [PAPER_ID])
VenueArguments = arguments_model("VenueArguments", VENUE_PATH)
PersonArguments = arguments_model("PersonArguments", [PERSON_ID, *PERSON_PAGING])
NameArguments = arguments_model("NameArguments", [AUTHOR_NAME])
# The API takes the .bib as its body; a tool takes it as an argument, with the body's schema.
BIBTEX_TEXT = {"name": "bibtex", "required": True, "schema": BIB_SCHEMA}
UpgradeArguments = arguments_model("UpgradeArguments", [BIBTEX_TEXT, KEEP_PARAM])
