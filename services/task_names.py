"""Every Celery task name the services send or run, named in this one module.

Why one module: a task name is a contract between processes. The web's admin API and the CLI
send tasks that the indexer's workers run, and the web may not import the indexer (it knows the
indexer only by these names). Defined here, as the Redis keys are in :mod:`services.redis_keys`,
a rename is one edit and a misspelt name is an import error instead of a task nobody runs; a test
fails on a task name spelt anywhere else.
"""

from __future__ import annotations

INGEST_BATCH = "paperlist.ingest_batch"        # normalise and write one batch of an ingest
PRUNE = "paperlist.prune"                      # delete the papers a complete source no longer lists
NAMES = "paperlist.names"                      # the corpus names pass over an alias
PEOPLE = "paperlist.people"                    # the people pass over an alias: who each author is
REINDEX = "paperlist.reindex"                  # a zero-downtime rebuild
REINDEX_STATUS = "paperlist.reindex_status"    # the rebuild's state, for the admin API
REQUEST_REINDEX = "paperlist.request_reindex"  # start a rebuild unless one runs (the admin API)
BUILD_MAPS = "paperlist.build_maps"            # choose the venue-years whose maps to make
BUILD_MAP = "paperlist.build_map"              # lay out and store one venue-year's map
FOLLOW_TICK = "paperlist.follow_tick"          # the scheduler's tick: send a poll for each due followed source
POLL_SOURCE = "paperlist.poll_source"          # poll one followed source, ingest it when it changed
PASSES_STATE = "paperlist.passes_state"        # the corpus passes' state, for the admin API
FOLLOW_EDIT = "paperlist.follow_edit"          # follow or unfollow a source (the admin API)

ALL = (INGEST_BATCH, PRUNE, NAMES, PEOPLE, REINDEX, REINDEX_STATUS, REQUEST_REINDEX, BUILD_MAPS, BUILD_MAP,
       FOLLOW_TICK, POLL_SOURCE, PASSES_STATE, FOLLOW_EDIT)
