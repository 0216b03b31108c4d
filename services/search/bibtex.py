"""BibTeX for a paper: the source's own entry when it has one, else one we write."""

from __future__ import annotations

import re
import unicodedata

from . import conferences
from .model import Paper

_KEY_WORD = re.compile(r"[a-z0-9]+")
_SPECIAL = str.maketrans({"{": r"\{", "}": r"\}", "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%",
                          "#": r"\#", "_": r"\_"})


def entry(paper: Paper) -> str:
    if paper.bibtex.lstrip().startswith("@"):
        return paper.bibtex.strip()
    return generate(paper)


def generate(paper: Paper) -> str:
    conf = conferences.lookup(paper.conference)
    fields = [
        ("title", _escape_title(paper.title)),
        ("author", " and ".join(_escape(a.name) for a in paper.authors) or "Anonymous"),
        ("booktitle", _escape(conf.full_name or conf.name)),
        ("year", str(paper.year)),
    ]
    url = best_url(paper)
    if url:
        fields.append(("url", url))
    if paper.links.doi:
        fields.append(("doi", paper.links.doi.removeprefix("https://doi.org/")))
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
    return f"{surname or 'anon'}{paper.year}{words[0] if words else ''}"


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def _escape(text: str) -> str:
    return text.translate(_SPECIAL)


def _escape_title(title: str) -> str:
    """Keep LaTeX math as written; escape the rest; brace the title to keep its case."""
    parts = re.split(r"(\$[^$]*\$)", title)
    return "{" + "".join(p if p.startswith("$") else _escape(p) for p in parts) + "}"
