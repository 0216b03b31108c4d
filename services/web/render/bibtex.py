"""BibTeX for a paper or an export, written from escaped fields only, as good as dblp's.

A source's own ``bibtex`` text is never passed through, and no field value can leave its
field or run TeX: braces become ``\\textbraceleft{}``/``\\textbraceright{}`` (BibTeX counts
``\\{`` as a brace), every other TeX special is escaped, a title's math is kept only when it
can do nothing but typeset (:mod:`.tex`), and the verbatim fields (``url``, ``doi``) are
percent-encoded instead.

The venue part comes from the catalogue: a conference's ``booktitle`` (its proceedings'
real title, e.g. "Advances in Neural Information Processing Systems"), a journal's
``journal`` and volume, the publisher; pages, a volume and a publisher the source gives
fill what the catalogue does not. Keys are ``surnameYEARword``; :func:`bibliography`
makes them unique across an export (``he2025systematic``, ``he2025systematicb``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from urllib.parse import quote

from services.search.catalogue import venues
from services.search.records.model import Paper

from . import tex
from .tex import escape

_KEY_WORD = re.compile(r"[a-z0-9]+")
_SPACE = re.compile(r"\s+")
# What a URL may keep as it is (RFC 3986 reserved and unreserved, and existing %XX escapes).
_URL_SAFE = "/:?#[]@!$&'()*+,;=-._~%"


def entry(paper: Paper) -> str:
    """The paper's entry (the source's own ``bibtex`` is ignored: it is unescaped data)."""
    return generate(paper)


def bibliography(papers: Iterable[Paper]) -> str:
    """Entries of several papers, in order, each key used once (a repeat gets ``b``, ``c``, ...)."""
    used: set[str] = set()
    entries = []
    for paper in papers:
        key = base = cite_key(paper)
        n = 1
        while key in used:
            n += 1
            key = base + _suffix(n)
        used.add(key)
        entries.append(generate(paper, key))
    return "\n\n".join(entries) + "\n"


def generate(paper: Paper, key: str | None = None) -> str:
    venue = venues.lookup(paper.conference)
    year = int(paper.year)
    publication = paper.publication
    fields = [
        ("title", tex.title(paper.title)),
        ("author", " and ".join(_author(a.name) for a in paper.authors) or "Anonymous"),
    ]
    if venue.is_journal:
        kind = "article"
        volume = publication.volume or str(venue.volume(year) or "")
        fields += [("journal", escape(venue.journal)), ("year", str(year)), ("volume", escape(volume))]
    else:
        kind = "inproceedings"
        fields += [("booktitle", escape(venue.proceedings(year))), ("year", str(year)),
                   ("volume", escape(publication.volume))]
    fields += [("pages", escape(publication.pages)), ("publisher", escape(venue.publisher or publication.publisher))]
    if paper.links.doi:
        fields.append(("doi", verbatim(paper.links.doi.removeprefix("https://doi.org/"))))
    url = best_url(paper)
    if url:
        fields.append(("url", verbatim(url)))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
    return f"@{kind}{{{key or cite_key(paper)},\n{body}\n}}"


def _suffix(n: int) -> str:
    """The suffix of a key's ``n``-th use (n >= 2): b ... z, then 27, 28, ..."""
    return chr(ord("a") + n - 1) if n <= 26 else str(n)


# A proceedings PDF whose paper page is known: NeurIPS ".../file/<hash>-Paper-<track>.pdf" has
# ".../hash/<hash>-Abstract-<track>.html".
_PROCEEDINGS_PDF = re.compile(r"^(https://(?:proceedings\.neurips\.cc|papers\.nips\.cc)/paper_files/paper/\d{4})"
                              r"/file/([0-9a-f]+)-Paper(-[\w]+)?\.pdf$")
_EVENT_PAGE = re.compile(r"//(?:[\w-]+\.)?(?:neurips|nips|icml|iclr)\.cc/virtual/")  # a poster's event page


def best_url(paper: Paper) -> str:
    """The link a citation should carry: the paper's page in the proceedings, then the venue's
    own page (unless it is a conference-week event page), OpenReview, the PDF, anything."""
    links = paper.links
    proceedings = _PROCEEDINGS_PDF.match(links.pdf)
    if proceedings:
        base, digest, track = proceedings.groups()
        return f"{base}/hash/{digest}-Abstract{track or ''}.html"
    site = links.site if not _EVENT_PAGE.search(links.site) else ""
    return site or links.openreview or links.doi or links.pdf or links.site


def cite_key(paper: Paper) -> str:
    """``surnameYEARword`` from ``[a-z0-9]`` only, so it is a valid key in any BibTeX tool."""
    surname = "".join(_KEY_WORD.findall(_ascii(paper.authors[0].name.split()[-1]))) if paper.authors else ""
    words = [w for w in _KEY_WORD.findall(_ascii(paper.title)) if len(w) > 3]
    return f"{surname or 'anon'}{int(paper.year)}{words[0] if words else ''}"


def verbatim(url: str) -> str:
    """A URL or DOI for a verbatim field: anything outside URL syntax percent-encoded (braces, backslash, blanks)."""
    return quote(_SPACE.sub(" ", url).strip(), safe=_URL_SAFE)


def _author(name: str) -> str:
    """One author; a name holding `` and `` is braced so it stays one person."""
    escaped = escape(name)
    return "{" + escaped + "}" if re.search(r"\sand\s", escaped, re.IGNORECASE) else escaped


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
