"""Index settings, analysis and mappings — the physical contract of the ``papers`` index.

Only core Elasticsearch features are used (the local integ-test distribution has no
analysis-common or mapper-extras), so stemming is the core ``hunspell`` filter over the
en_US dictionary shipped in ``deploy/elasticsearch/hunspell`` plus a domain supplement.

Bump :data:`SCHEMA_VERSION` whenever mappings or analysis (the dictionary files too) change: the next
``paperlist reindex`` builds ``<alias>-v<SCHEMA_VERSION>-<time>`` and swaps the alias.
"""

from __future__ import annotations

from typing import Any

from .embedding import DIMS

# 3: author suggestions by any word of the name; 4: author_keys (case- and accent-insensitive
# author lookup); 5: paper embeddings (dense_vector, int8_hnsw) for semantic search; 6: offsets
# in the title and abstract postings, for highlighting; 7: the venue's kind (a facet) and
# has_abstract (derived: a plain reindex fills them); 8: review scores (rating_avg, reviews), the
# paper's own affiliations, pages/volume/publisher (new source fields: reindex --from-sources) and
# tier_rank (sorts); 9: name_key and prominence, for known-item ranking, and author names without
# length norms; 10: the names a paper is known by (names, given_names, name_keys,
# intro_keys, introduced, mentions; issue 29) in place of name_key, and author names folded for
# matching (authors_folded); 11: the title's networks as people shorten them (title_contractions:
# "protonet" of "Prototypical Networks"); 12: who each author is (author_ids: a person id by author
# place, written by the people pass; issue 45)
SCHEMA_VERSION = 12

# Lucene's "_english_" stop set, spelled out so query building can tell a stopword too.
ENGLISH_STOPWORDS = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no",
    "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this",
    "to", "was", "will", "with"))

ANALYSIS: dict[str, Any] = {
    "filter": {
        "en_hunspell": {"type": "hunspell", "locale": "en_US", "dedup": True, "ignore_case": True},
        "en_stop": {"type": "stop", "stopwords": sorted(ENGLISH_STOPWORDS)},
        "title_shingles": {"type": "shingle", "min_shingle_size": 2, "max_shingle_size": 3},
    },
    "analyzer": {
        # Stemmed English for recall: "learning networks" matches "learned network".
        "english_text": {"type": "custom", "tokenizer": "standard",
                         "filter": ["lowercase", "en_stop", "en_hunspell"]},
        # Unstemmed, stopwords kept, for precision and phrase matches.
        "exact_text": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase"]},
        # Word n-grams for the phrase suggester ("did you mean").
        "shingle_text": {"type": "custom", "tokenizer": "standard",
                         "filter": ["lowercase", "title_shingles"]},
    },
    "normalizer": {
        "lowercase": {"type": "custom", "filter": ["lowercase"]},
    },
}


def _english(**extra: Any) -> dict[str, Any]:
    """A stemmed text field with an unstemmed ``.exact`` subfield."""
    field = {"type": "text", "analyzer": "english_text",
             "fields": {"exact": {"type": "text", "analyzer": "exact_text"}}}
    field.update(extra)
    return field


def _facet(**extra: Any) -> dict[str, Any]:
    """A keyword field used for facets: global ordinals built at refresh, not at query time."""
    return {"type": "keyword", "eager_global_ordinals": True, **extra}


MAPPINGS: dict[str, Any] = {
    "dynamic": "strict",
    "_meta": {"schema_version": SCHEMA_VERSION},
    "properties": {
        "paper_id": {"type": "keyword"},
        "conference": _facet(),
        "kind": _facet(),  # the venue's kind in the catalogue (conference, journal, workshop)
        "conference_name": {"type": "keyword"},
        "year": {"type": "short"},
        # Offsets in the postings of the highlighted fields: the highlighter reads them instead
        # of re-analysing each hit's text (bench: highlighting 11 -> 8 ms p50 for +6% index).
        "title": {
            "type": "text", "analyzer": "english_text", "index_options": "offsets",
            "fields": {
                "exact": {"type": "text", "analyzer": "exact_text",
                          "index_prefixes": {"min_chars": 2, "max_chars": 8}},
                "shingles": {"type": "text", "analyzer": "shingle_text"},
            },
        },
        "title_key": {"type": "keyword"},
        # The title's networks as the field shortens them ("convnets" of "Convolutional Networks",
        # paper_names.contractions): a typed word matches the title there too.
        "title_contractions": {"type": "keyword"},
        # The names a paper is known by (services.search.records.paper_names): its own and those the corpus
        # gives it (stored), matched as whole folded keys ("vq-vae", "VQVAE" -> "vqvae"; a name's
        # words are the title's and abstract's, already matched there); the keys of the names it introduced.
        "names": {"type": "keyword", "index": False},
        "given_names": {"type": "keyword", "index": False},
        "name_keys": {"type": "keyword"},
        "intro_keys": {"type": "keyword"},
        "introduced": {"type": "keyword", "index": False},
        "mentions": {"type": "integer"},  # later papers here mentioning a name it introduced
        "prominence": {"type": "half_float"},  # the ranking prior (services.search.records.prominence)
        "abstract": _english(index_options="offsets"),
        "has_abstract": {"type": "boolean"},  # "exists" matches an empty abstract too
        "tldr": _english(),
        "keywords": {"type": "text", "analyzer": "english_text",
                     "fields": {"exact": {"type": "text", "analyzer": "exact_text",
                                          "index_prefixes": {"min_chars": 2, "max_chars": 8}},
                                "raw": _facet(normalizer="lowercase")}},
        "primary_area": _facet(),
        "topics": _facet(),
        "topic_labels": _english(),
        # No length norms: a paper with eight authors is no less by each of them than one with two.
        "author_names": {"type": "text", "analyzer": "exact_text", "norms": False,
                         "fields": {"raw": _facet()}},
        # The same names with accents folded (the core node has no asciifolding): what words match,
        # so "scholkopf" and "schölkopf" (folded by the query) find the same papers.
        "authors_folded": {"type": "text", "analyzer": "exact_text", "norms": False},
        "author_keys": {"type": "keyword"},  # name_keys.author_key of each name: /authors/<any case>
        "author_ids": {"type": "keyword"},  # the person of each author place (null: undecided): person:<id>, the facet
        "affiliations": {"type": "text", "analyzer": "english_text",
                         "fields": {"raw": _facet()}},
        "authors": {"type": "object", "enabled": False},
        "track": _facet(),
        "status": _facet(),
        "status_raw": {"type": "keyword"},
        "award": {"type": "boolean"},
        "has_code": {"type": "boolean"},
        "citations": {"type": "integer"},
        "tier_rank": {"type": "byte"},  # model.TIER_ORDER position of the status: "orals first" sorts
        "rating_avg": {"type": "float"},  # mean review rating: sort, filter, histograms, ranking prior
        "reviews": {"type": "object", "enabled": False},  # every criterion's scores, for the paper page
        "links": {"type": "object", "enabled": False},
        "publication": {"type": "object", "enabled": False},  # pages, volume, publisher: for BibTeX
        "bibtex": {"type": "text", "index": False},
        "title_suggest": {"type": "completion", "analyzer": "simple", "max_input_length": 100},
        "author_suggest": {"type": "completion", "analyzer": "simple", "max_input_length": 60},
        "source": {"type": "keyword"},
        "position": {"type": "integer"},
        "content_hash": {"type": "keyword"},
        "ingest_run": {"type": "keyword", "index": False},
        "indexed_at": {"type": "date"},
        # Title+abstract embedding (records/embedding.py); quantized HNSW keeps it small.
        # Chosen by bench/pipeline/vector_index.py on the full corpus (242,144 vectors of 256 d, one run,
        # load 8.5-9.8 on 2 cores, 2026-12-02; `python -m bench.pipeline.vector_index --source <full index>`),
        # kNN k=10 with the service's num_candidates, recall@10 against exact numpy cosine:
        #   int8_hnsw  bulk 381 s  p50  43 ms  recall 0.924   <- kept
        #   int8_flat  bulk 121 s  p50 270 ms  recall 0.940
        #   bbq_hnsw   bulk 495 s  p50  92 ms  recall 0.998
        #   bbq_flat   bulk 510 s  p50 135 ms  recall 0.999
        #   flat       bulk 387 s  p50 150 ms  recall 1.000   (float, exact)
        # The flat types are not "a few ms" here: a brute-force pass over 242k vectors costs
        # 135-270 ms a query, 3-6x HNSW, which would break the latency target (embedding + kNN
        # <= 2x a lexical search). int8_flat builds 3x faster, but the build is not what a
        # query pays for; bbq_hnsw buys recall (rescored) at 2x the latency and no cheaper build.
        # (Bulk times ran one after another on a shared machine: indicative, not interleaved.)
        "embedding": {"type": "dense_vector", "dims": DIMS, "index": True, "similarity": "cosine",
                      "index_options": {"type": "int8_hnsw"}},
        "embedding_version": {"type": "keyword"},
    },
}


# How soon a write becomes searchable. Serving: a second. Loading (while an ingest runs,
# services.search.engine.indices.loading): every refresh makes new small segments, merged again and
# again (and each merge rebuilds the vector graph of what it merges). At 1 s the full-corpus
# ingest refreshed 179 times and merged for 227 s, twice what a raw parallel_bulk of the same
# documents did, because it lasted twice as long. Elasticsearch also flushes (a Lucene commit,
# which writes segments too) after a minute of writes (translog.flush_threshold_age 1m).
# bench/pipeline/ingest.py, full corpus, pipeline time over parallel_bulk loaded the same way:
#   refresh 30 s, flush 1 min   1.97x   pipeline: 28 refreshes, 3 merges (159 s)
#   refresh 60 s, flush 1 min   2.20x             26 refreshes, 3 merges (195 s)
#   refresh 60 s, flush 5 min   1.50x, 1.85x      13-15 refreshes, 0-2 merges (0-176 s)
# Papers written show within the refresh interval meanwhile, and all of them once the ingest
# ends; a node that dies mid-load replays up to 5 minutes of translog.
SERVING_REFRESH = "1s"
LOADING_REFRESH_S = 60
LOADING_REFRESH = f"{LOADING_REFRESH_S}s"
LOADING_FLUSH_AGE = "5m"


def loading_settings() -> dict[str, Any]:
    """What a bulk load over a serving index sets for its duration (services.search.engine.indices.loading)."""
    return {"index": {"refresh_interval": LOADING_REFRESH, "translog.flush_threshold_age": LOADING_FLUSH_AGE}}


def loaded_settings() -> dict[str, Any]:
    """The serving shape again after a load (``None`` resets a setting to Elasticsearch's default)."""
    return {"index": {"refresh_interval": SERVING_REFRESH, "translog.flush_threshold_age": None}}


def index_body(shards: int, replicas: int, *, building: bool = False) -> dict[str, Any]:
    """Settings and mappings for a new physical index.

    ``building`` is the bulk-load shape used during a rebuild: no replicas and no
    refresh, restored by :func:`serving_settings` before the alias swap.
    """
    settings: dict[str, Any] = {
        "number_of_shards": shards,
        "number_of_replicas": 0 if building else replicas,
        "refresh_interval": "-1" if building else SERVING_REFRESH,
        "max_result_window": 10000,
        "analysis": ANALYSIS,
    }
    return {"settings": {"index": settings}, "mappings": MAPPINGS}


def serving_settings(replicas: int) -> dict[str, Any]:
    return {"index": {"number_of_replicas": replicas, "refresh_interval": SERVING_REFRESH}}
