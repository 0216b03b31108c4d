"""The venue and topic catalogue: data files in this package, typed and validated on first use.

- ``venues.toml``: the one registry of venues (names, kind, aliases, home topic, how they are
  cited, status vocabulary);
- ``topics.toml``: the taxonomy and the cue phrases of the topic matcher;
- ``statuses.toml``: raw status -> ``status`` facet value, and what each outcome means.

Read through ``catalogue()`` (cached); ``venues`` and ``taxonomy`` are the views most
code uses. Nothing is read at import time.
"""

from .load import FILES, Catalogue, CatalogueError, catalogue, load_catalogue
from .model import HIDDEN_STATUSES, STATUSES, VENUE_KINDS, Outcome, Statuses, Topic, Venue

__all__ = ["FILES", "HIDDEN_STATUSES", "STATUSES", "VENUE_KINDS", "Catalogue", "CatalogueError", "Outcome",
           "Statuses", "Topic", "Venue", "catalogue", "load_catalogue"]
