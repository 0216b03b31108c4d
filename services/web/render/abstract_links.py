"""Where to read a paper whose source has no abstract: its own links first, else a title search."""

from __future__ import annotations

from urllib.parse import quote_plus

from services.search.records.model import Paper

# The paper's own links that usually show its abstract, best first.
_OWN = (("site", "the conference page"), ("openreview", "OpenReview"), ("arxiv", "arXiv"),
        ("doi", "the publisher (DOI)"), ("pdf", "the PDF"))


def abstract_links(paper: Paper) -> list[tuple[str, str]]:
    """(label, URL) pairs to offer instead of a missing abstract; never empty."""
    links = paper.links.model_dump()
    seen: set[str] = set()
    out = []
    for name, label in _OWN:
        url = links.get(name) or ""
        if url and url not in seen:
            seen.add(url)
            out.append((label, url))
    if not out:
        query = quote_plus(f'"{paper.title}" {paper.conference_name} {paper.year}')
        out.append(("a Google Scholar search for its title", f"https://scholar.google.com/scholar?q={query}"))
    return out
