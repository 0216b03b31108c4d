"""Outbound links made absolute and safe, whatever field of whatever source held them."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

_ARXIV_ID = re.compile(r"(\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)")
_DOI = re.compile(r"10\.\d{4,9}/\S+")
_URL_IN_TEXT = re.compile(r"https?://[^\s<>\"'()\[\]]+")
_BARE_DOMAIN = re.compile(r"^(?:www\.)?[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?:/\S*)?$", re.IGNORECASE)


def safe_url(value: object, base: str = "") -> str:
    """The first http(s) URL in ``value`` (also inside Markdown), made absolute.

    Bare domains get ``https://``; paths starting with ``/`` resolve against ``base``.
    Anything else (``javascript:``, ``SEEME``) is dropped: these links end up in HTML.
    """
    if not isinstance(value, str):
        return ""
    text = value.strip()
    match = _URL_IN_TEXT.search(text)
    if match:
        candidate = match.group(0).rstrip(".,;")
    elif text.startswith("/") and base and " " not in text:
        candidate = base.rstrip("/") + text
    elif _BARE_DOMAIN.match(text):
        candidate = "https://" + text
    else:
        return ""
    parts = urlsplit(candidate)
    return candidate if parts.scheme in ("http", "https") and parts.netloc else ""


def arxiv_url(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        return ""
    url = safe_url(value)
    if url and "arxiv.org" in url:
        return url
    match = _ARXIV_ID.search(value)
    return f"https://arxiv.org/abs/{match.group(1)}" if match else url


def doi_url(value: object) -> str:
    if not isinstance(value, str):
        return ""
    match = _DOI.search(value)
    return f"https://doi.org/{match.group(0).rstrip('.')}" if match else safe_url(value)
