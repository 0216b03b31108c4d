"""Query-string parameters of the current request as a validated :class:`SearchRequest`."""

from __future__ import annotations

from flask import request
from werkzeug.datastructures import MultiDict

from services.search.request import SearchRequest, parse_request


def search_request(*, api: bool = False, args: MultiDict | None = None, **overrides: list[str]) -> SearchRequest:
    """Browse pages pass ``overrides`` (their conference, year or topic) on top of the URL's filters."""
    source = request.args if args is None else args
    args = {key: source.getlist(key) for key in source}
    for key, values in overrides.items():
        args[key] = list(dict.fromkeys([*args.get(key, []), *values]))
    return parse_request(args, allow_search_after=api)
