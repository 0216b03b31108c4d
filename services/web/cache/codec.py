"""How a cached search-layer answer is stored: JSON validated back into its typed objects.

Each cached read names the type it answers (:mod:`.results`); the codec of that type is
built once. JSON, not pickle: whoever can write to Redis must not be able to run code in
the web. A result that carries its :class:`SearchRequest` stores everything else; the
request comes back from the call that asked (it is part of the cache key anyway).
pydantic-core does both directions in Rust, which keeps a cache hit cheap.
"""

from __future__ import annotations

import dataclasses
import typing
from functools import lru_cache
from typing import Any

from pydantic import TypeAdapter
from typing_extensions import TypedDict

from services.search.query.request import SearchRequest


class Codec:
    def __init__(self, kind: Any):
        self.kind = kind
        self.request_field: str | None = None
        target = kind
        if dataclasses.is_dataclass(kind):
            hints = typing.get_type_hints(kind)
            carried = [name for name, hint in hints.items() if hint is SearchRequest]
            if carried:
                self.request_field = carried[0]
                fields = {name: hint for name, hint in hints.items() if name != self.request_field}
                target = TypedDict(f"Stored{kind.__name__}", fields)  # type: ignore[misc]
        self.adapter: TypeAdapter = TypeAdapter(target)

    def dumps(self, value: Any) -> bytes:
        if self.request_field and value is not None:
            value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)
                     if f.name != self.request_field}
        return self.adapter.dump_json(value)

    def loads(self, raw: bytes, request: SearchRequest | None = None) -> Any:
        value = self.adapter.validate_json(raw)
        if self.request_field and value is not None:
            value = self.kind(**{self.request_field: request}, **value)
        return value


@lru_cache(maxsize=None)
def codec_for(kind: Any) -> Codec:
    """The codec of answers of type ``kind`` (``SearchResults``, ``list[Paper]``, ``Paper | None`` ...)."""
    return Codec(kind)
