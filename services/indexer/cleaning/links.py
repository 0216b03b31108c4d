"""Outbound links made absolute and safe, whatever field of whatever source held them.

Code and project pages are recognised by their host, wherever a record mentions them (an
abstract's "code at https://github.com/..." too); the hosts are data, in
``vocab/link_hosts.toml``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
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


HOSTS_FILE = Path(__file__).with_name("vocab") / "link_hosts.toml"
KINDS = ("code", "project")
# A host name broken across a PDF line ("https://github. com/owner/repo"), joined before matching.
_BROKEN_HOST = re.compile(r"\.\s+(?=(?:com|io|co|org|net|app|dev|site|space|science)/)")
_PATH_END = ".,;:!?'\"*"


@dataclass(frozen=True)
class Host:
    """A host of code or project pages, and which of its URLs count (see link_hosts.toml)."""

    name: str
    kind: str  # one of KINDS
    segments: int = 0
    not_under: frozenset[str] = frozenset()
    subdomain: bool = False

    def accepts(self, host: str, path: str) -> bool:
        parts = [p for p in path.split("/") if p]
        if self.subdomain and host == self.name:
            return False
        return len(parts) >= self.segments and not (parts and parts[0].lower() in self.not_under)


@dataclass(frozen=True)
class LinkHosts:
    hosts: dict[str, Host]
    pattern: re.Pattern[str]
    not_code: frozenset[str] = frozenset()

    def may_hold(self, text: str) -> bool:
        """Cheap test before the pattern: an ASCII text can only match if it names a listed host.

        (A text with other characters always goes to the pattern, whose case-insensitive
        matching also folds letters such as the Kelvin sign.) Most abstracts name none.
        """
        if not text.isascii():
            return True
        lowered = text.lower()
        return any(name in lowered for name in self.hosts)

    def host(self, name: str) -> Host | None:
        """The listed host ``name`` is, or is a subdomain of."""
        return next((self.hosts[h] for h in _suffixes(name) if h in self.hosts), None)

    def declared_code(self, url: str) -> bool:
        """Whether a URL a source gives as the paper's code can be it: not a project page nor a listing,
        and on a code host at least an owner (github.com/org, not github.com itself)."""
        parts = urlsplit(url)
        name = (parts.hostname or "").lower()
        host = self.host(name)
        if not name or any(h in self.not_code for h in _suffixes(name)) or (host and host.kind == "project"):
            return False
        return host is None or replace(host, segments=min(host.segments, 1)).accepts(name, parts.path)


def _suffixes(name: str) -> list[str]:
    """``a.b.c`` -> ``a.b.c``, ``b.c``, ``c``: the host and every domain it is under."""
    labels = name.split(".")
    return [".".join(labels[i:]) for i in range(len(labels))]


@lru_cache(maxsize=1)
def link_hosts() -> LinkHosts:
    with HOSTS_FILE.open("rb") as f:
        data = tomllib.load(f)
    hosts = {name.lower(): Host(name.lower(), kind, int(spec.get("segments", 0)),
                                frozenset(s.lower() for s in spec.get("not_under", ())), bool(spec.get("subdomain")))
             for kind in KINDS for name, spec in data.get(kind, {}).items()}
    names = "|".join(re.escape(h) for h in sorted(hosts, key=len, reverse=True))
    pattern = re.compile(rf"(https?://)?(?<![\w.-])((?:[\w-]+\.)*(?:{names}))(?![\w-])(/[^\s<>\"'(){{}}\[\]\\|^`]*)?",
                         re.IGNORECASE)
    return LinkHosts(hosts, pattern,
                     frozenset(h.lower() for h in data.get("not_code", {}).get("hosts", ())))


def hosted_links(texts: Iterable[object]) -> dict[str, str]:
    """The first code URL and the first project-page URL in ``texts`` (in order), by kind.

    Only URLs on a listed host count; a URL without a scheme gets ``https://``, trailing
    punctuation of the sentence around it is dropped.
    """
    table = link_hosts()
    found: dict[str, str] = {}
    for text in texts:
        if not isinstance(text, str) or "." not in text:
            continue
        if ". " in text:
            text = _BROKEN_HOST.sub(".", text)
        if not table.may_hold(text):
            continue
        for match in table.pattern.finditer(text):
            scheme, name, path = match.group(1) or "https://", match.group(2).lower(), match.group(3) or ""
            path = path.rstrip(_PATH_END)
            host = table.host(name)
            if host and host.kind not in found and host.accepts(name, path):
                found[host.kind] = f"{scheme.lower()}{name}{path}"
        if len(found) == len(KINDS):
            break
    return found
