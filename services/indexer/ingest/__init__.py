"""An ingest run: the operator's side (read sources, batch, send to Celery, wait), its progress in Redis,
the record of ingested sources, and reading sources in-process for rebuilds and benchmarks."""
