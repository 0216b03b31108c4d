"""Query-string parameters of the current request as a validated :class:`SearchRequest`."""

from __future__ import annotations

from flask import request

from services.search.request import SearchRequest, parse_request

KNOWN = {"q", "conference", "year", "topic", "status", "track", "author", "keyword", "affiliation",
         "has_code", "sort", "page", "page_size", "search_after", "format", "partial"}


def search_request(*, api: bool = False, **overrides: list[str]) -> SearchRequest:
    args = {key: request.args.getlist(key) for key in request.args}
    for key, values in overrides.items():
        args[key] = list(dict.fromkeys([*args.get(key, []), *values]))
    return parse_request(args, allow_search_after=api)
