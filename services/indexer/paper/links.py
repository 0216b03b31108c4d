"""A record's link candidates -> the paper's :class:`Links`: each made absolute and safe, the code and
project pages told apart by their hosts.

The reader lists where each link may be, best first; the rules are the same for every format: the
first safe candidate wins; the source's own code field counts only when its URL can be code
(:meth:`~services.indexer.cleaning.links.LinkHosts.declared_code`), else the first code host the
record's texts mention; a project page is never the code's own URL.
"""

from __future__ import annotations

from services.indexer.cleaning.links import arxiv_url, doi_url, hosted_links, link_hosts, safe_url
from services.indexer.sources.base import SourceLinks
from services.search.records.model import Links


def links_of(given: SourceLinks) -> Links:
    site = next((url for url in map(safe_url, given.site) if url), "")
    openreview = safe_url(given.openreview)
    if not openreview and "openreview.net" in site:
        openreview = site
    hosted = hosted_links(given.texts)
    declared = next((url for url in map(safe_url, given.code) if url and link_hosts().declared_code(url)), "")
    code = declared or hosted.get("code", "")  # the source's own code field first
    project = hosted.get("project") or safe_url(given.project)  # a lab's own page is the project's too
    return Links(
        pdf=safe_url(given.pdf, base=given.base),
        site=site,
        openreview=openreview,
        code=code,
        project="" if project == code else project,
        arxiv=arxiv_url(given.arxiv),
        doi=next((url for url in map(doi_url, given.doi) if url), ""),
        supplementary=safe_url(given.supplementary, base=given.base),
    )
