"""Outbound links from the many source fields that hold them, made absolute and safe."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from services.search.model import Links

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


def extract_links(record: dict) -> Links:
    site = safe_url(record.get("site")) or safe_url(record.get("url_paper")) or safe_url(record.get("oa"))
    openreview = safe_url(record.get("openreview"))
    if not openreview and "openreview.net" in site:
        openreview = site
    supp_field = record.get("supp") or record.get("supplementary_material")
    return Links(
        pdf=safe_url(record.get("pdf"), base="https://openreview.net"),
        site=site,
        openreview=openreview,
        code=safe_url(record.get("github")) or safe_url(record.get("code")),
        project=safe_url(record.get("project")),
        arxiv=arxiv_url(record.get("arxiv")),
        doi=doi_url(record.get("doi")),
        supplementary=safe_url(supp_field, base="https://openreview.net"),
    )
