"""The fixed topic taxonomy every paper is tagged with: slugs, labels and what each covers.

A view of ``catalogue/topics.toml``: the indexer (``services.indexer.paper.topics``) assigns
these slugs and the web UI shows their labels. A slug, once published, is part of the
index and of URLs, so it is never renamed; retire one by re-indexing. ``TOPICS`` is in
display order: areas first, the general fallback (``FALLBACK``) last. See docs/topics.md
for the derivation method.
"""

from __future__ import annotations

from .load import catalogue
from .model import Topic

TOPICS: tuple[Topic, ...]  # declared for readers and type checkers; bound by __getattr__
FALLBACK: str


def __getattr__(name: str) -> object:
    """``TOPICS`` and ``FALLBACK``, read from the catalogue on first access (not at import)."""
    if name == "TOPICS":
        return catalogue().topics
    if name == "FALLBACK":
        return catalogue().fallback
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def lookup(slug: str) -> Topic | None:
    return catalogue().topic(slug)


def label(slug: str) -> str:
    """The display label; an unknown slug (e.g. from an older index) is shown title-cased."""
    topic = catalogue().topic(slug)
    return topic.label if topic else slug.replace("-", " ").title()
