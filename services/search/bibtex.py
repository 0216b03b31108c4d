"""BibTeX for a paper, written from escaped fields only.

A source's own ``bibtex`` text is never passed through, and no field value can leave its
field or run TeX: braces become ``\\textbraceleft{}``/``\\textbraceright{}`` (BibTeX counts
``\\{`` as a brace), every other TeX special is escaped too, math included, and the
verbatim fields (``url``, ``doi``) are percent-encoded instead.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from . import conferences
from .model import Paper

_KEY_WORD = re.compile(r"[a-z0-9]+")
_SPACE = re.compile(r"\s+")
_SPECIAL = str.maketrans({
    "{": r"\textbraceleft{}", "}": r"\textbraceright{}", "\\": r"\textbackslash{}",
    "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "$": r"\$",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
})
# What a URL may keep as it is (RFC 3986 reserved and unreserved, and existing %XX escapes).
_URL_SAFE = "/:?#[]@!$&'()*+,;=-._~%"


def entry(paper: Paper) -> str:
    """The paper's entry (the source's own ``bibtex`` is ignored: it is unescaped data)."""
    return generate(paper)


def generate(paper: Paper) -> str:
    conf = conferences.lookup(paper.conference)
    fields = [
        ("title", "{" + escape(paper.title) + "}"),  # braced to keep its case
        ("author", " and ".join(_author(a.name) for a in paper.authors) or "Anonymous"),
        ("booktitle", escape(conf.full_name or conf.name)),
        ("year", str(int(paper.year))),
    ]
    url = best_url(paper)
    if url:
        fields.append(("url", verbatim(url)))
    if paper.links.doi:
        fields.append(("doi", verbatim(paper.links.doi.removeprefix("https://doi.org/"))))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@inproceedings{{{cite_key(paper)},\n{body}\n}}"


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


def escape(text: str) -> str:
    """Text safe inside a braced BibTeX field and when TeX typesets it (whitespace collapsed)."""
    return _SPACE.sub(" ", text).strip().translate(_SPECIAL)


def verbatim(url: str) -> str:
    """A URL or DOI for a verbatim field: anything outside URL syntax percent-encoded (braces, backslash, blanks)."""
    return quote(_SPACE.sub(" ", url).strip(), safe=_URL_SAFE)


def _author(name: str) -> str:
    """One author; a name holding `` and `` is braced so it stays one person."""
    escaped = escape(name)
    return "{" + escaped + "}" if re.search(r"\sand\s", escaped, re.IGNORECASE) else escaped


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
