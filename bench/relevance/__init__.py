"""Relevance: whether the paper a person means comes first, and whether the neighbours found are alike.

Known-item classes generated from the corpus, the nicknames later abstracts cite papers by, a
fixed set of famous papers, topical precision against curated keywords, and the "papers like
this" fusions; each run through the real app, lexical, hybrid or semantic.
"""
