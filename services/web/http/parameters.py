"""A request's parameters must be UTF-8: one that is not is a 400 naming it, not a search for mangled text.

Werkzeug decodes a query string leniently (bytes that are not UTF-8 come through as their
``%XX`` text), so ``?q=%C3%28`` searched for ``%C3(``. Every parameter of every route is checked
here, before the view, as it was sent: ``+`` is a space, ``%XX`` a byte, and the bytes of each
name and value must be UTF-8 (an escape that is not one, ``%G1``, is text, as Werkzeug reads it).
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from services.search.errors import InvalidRequest


def check_utf8(query_string: bytes) -> None:
    """Raise :class:`InvalidRequest` for the first parameter whose name or value is not UTF-8."""
    if b"%" not in query_string and query_string.isascii():
        return  # the common case: nothing to decode
    for piece in query_string.split(b"&"):
        name, _, value = piece.partition(b"=")
        for part in (name, value):
            try:
                unquote_to_bytes(part.replace(b"+", b" ")).decode("utf-8")
            except UnicodeDecodeError:
                shown = unquote_to_bytes(name.replace(b"+", b" ")).decode("utf-8", "replace")[:40]
                raise InvalidRequest(shown, "not valid UTF-8; percent-encode the text's UTF-8 bytes "
                                            "(as encodeURIComponent does)") from None
