"""Cleaning: pure repair of one field's value, whatever source format held it.

Text (entities, HTML, ligatures), accents broken by PDF extraction, line-break hyphens, author names
and keywords, affiliations, links, review scores. Each function takes a value and returns the clean
value; none reads a record or knows a format, so every source reader's fields go through the same
rules. The rules' words are data, in ``vocab/``. Imports nothing else of the indexer.
"""
