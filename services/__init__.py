"""paperlist: a search engine for AI conference papers.

Three services share this package: ``search`` (the Elasticsearch contract),
``indexer`` (Celery tasks, ingest, reindex, the ops CLI) and ``web`` (Flask).
Dependencies point one way: web -> search and indexer -> search.
"""
