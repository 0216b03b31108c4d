"""A zero-downtime rebuild of an alias: the rebuild as a worker runs it (``runner``), its state and lock in
Redis (``state``), and what an operator does to one (``control``: request it, roll it back)."""
