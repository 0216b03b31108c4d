"""Followed sources (issue 47): paperlists files polled on a schedule and ingested when they change.

Rooms: :mod:`.fetch` (one conditional request, bounded), :mod:`.poll` (what a poll decides and writes),
:mod:`.schedule` (which sources are due; the one scheduler's tick), :mod:`.runner` (a poll as the worker
runs it: one at a time, counted, followed by the corpus passes and maps) and :mod:`.seed` (the registry's
first sources, from the repository's list of the corpus's upstream files).
"""
