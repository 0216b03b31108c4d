"""Corpus: what cleaning, topics and ingest make of the whole corpus (reports and checks, not speed).

Names and affiliations before and after cleaning, topic agreement with curated labels, what the
sources hold against what an index shows, and a full ingest's exact invariants.
"""
