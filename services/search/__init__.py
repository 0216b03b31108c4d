"""The search layer: everything about the papers index, in rooms by concern (docs/architecture.md).

``service.PaperSearch`` is the front door (the reads ``reads.SearchReads`` declares);
``records`` the paper as stored, ``catalogue`` the venue and topic registry, ``query`` request
to body, ``answers`` answer to typed results, ``engine`` reaching Elasticsearch. import-linter
keeps them in layers (pyproject.toml, ``search-rooms``).
"""
