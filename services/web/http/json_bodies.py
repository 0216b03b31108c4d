"""JSON read and written by orjson.

Why: the standard library's parser recurses per nesting level, so a body of 50,000 nested
arrays raised RecursionError, which is not a ValueError: a 500 instead of the contract's 400
(found by the 10,000-request fuzz). orjson parses it without recursion, and faster.

Answers are written by orjson too, in Flask's order (keys as given, compact): a 20-hit search
answer (35 kB) in 35 us against the standard library's 250 us, a tenth of an uncached API
search's own time (issue 34). Text is written as UTF-8, not ``\\u`` escapes. What orjson does
not write itself goes through Flask's own ``default`` (dates as HTTP dates, dataclasses); what
it cannot write at all (an integer past 64 bits) and indented output go through Flask's writer.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

# Dates and dataclasses are Flask's to write (its ``default``), as they were before orjson wrote answers.
_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


class JSONProvider(DefaultJSONProvider):
    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)  # orjson.JSONDecodeError is a ValueError: get_json(silent=True) -> None

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if set(kwargs) <= {"separators"}:  # compact, the only form answers take (indented: debug mode)
            try:
                return orjson.dumps(obj, default=self.default, option=_OPTIONS).decode()
            except orjson.JSONEncodeError:
                pass
        return super().dumps(obj, **kwargs)
