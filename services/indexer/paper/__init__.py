"""One record -> one :class:`~services.search.records.model.Paper`: its identity, its cleaned fields, the
status word mapped, its topics and the names it gives itself.

Everything here is decided from the record alone (what needs the other papers lives in ``corpus``).
"""
