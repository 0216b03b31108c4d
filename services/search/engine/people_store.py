"""The people index, ``<alias>-people``: where the people pass writes each person and the site reads them.

One document per person id: a :class:`~services.search.records.people.Person` (``kind: person``), or a
:class:`~services.search.records.people.Successor` (``kind: successor``) for an id that a merge or a
split retired. Like the maps index it lives beside the alias, so a rebuild's swap leaves it alone: the
ids are stable across rebuilds (the pass keeps them), so the same documents serve the new index.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from elasticsearch import Elasticsearch, NotFoundError, helpers

from services.search.engine.indices import ensure_side_index
from services.search.records.name_keys import strip_accents
from services.search.records.people import MAPPINGS, Person, Successor

PERSON, SUCCESSOR = "person", "successor"
MAX_NAMED = 500  # people of one name block a page lists (the largest block, "Wei Wang", has about 100)


def digest(entry: Person | Successor) -> str:
    """What a stored document says, in 16 hex digits: a pass rewrites only the documents whose digest changed."""
    return hashlib.blake2b(entry.model_dump_json().encode(), digest_size=8).hexdigest()


def document(entry: Person | Successor) -> dict:
    if isinstance(entry, Successor):
        return {**entry.model_dump(), "kind": SUCCESSOR, "digest": digest(entry)}
    names = list(dict.fromkeys(n for name in entry.names[:5] for n in (name[:60], strip_accents(name)[:60])))
    return {**entry.model_dump(), "kind": PERSON, "digest": digest(entry),
            "suggest": {"input": [rotation for name in names for rotation in _rotations(name)],
                        "weight": min(entry.papers + entry.hidden, 100_000)}}


def _rotations(name: str) -> list[str]:
    """A name typed from any of its words: "Yoshua Bengio", "Bengio Yoshua"."""
    words = name.split()
    return [" ".join(words[i:] + words[:i]) for i in range(len(words))] or [name]


def parse(source: dict) -> Person | Successor:
    source = {k: v for k, v in source.items() if k not in ("kind", "digest", "suggest")}
    if "successors" in source:
        return Successor.model_validate(source)
    return Person.model_validate(source)


def write(es: Elasticsearch, index: str, entries: Iterable[Person | Successor], gone: Iterable[str] = ()) -> int:
    """Index ``entries`` (people and successors, by id) and delete the ids in ``gone``; how many actions."""
    ensure_side_index(es, index, MAPPINGS)
    actions = [{"_index": index, "_id": e.person_id, "_source": document(e)} for e in entries]
    actions += [{"_op_type": "delete", "_index": index, "_id": i} for i in gone]
    if not actions:
        return 0
    # One refresh after the last chunk, not a wait for one after each: waiting (refresh="wait_for") held
    # every 2,000-document chunk for the next scheduled refresh, 14 of the 18 s a sample's first pass spent here.
    ok, errors = helpers.bulk(es, actions, chunk_size=2000, raise_on_error=False)
    es.indices.refresh(index=index)
    failed = [e for e in errors if next(iter(e.values())).get("status") != 404]  # deleting a missing id is fine
    if failed:
        raise RuntimeError(f"people index: {len(failed)} writes failed, e.g. {failed[0]}")
    return len(actions)


def load(es: Elasticsearch, index: str, person_id: str) -> Person | Successor | None:
    try:
        return parse(es.get(index=index, id=person_id)["_source"])
    except NotFoundError:
        return None


def many(es: Elasticsearch, index: str, person_ids: Sequence[str]) -> dict[str, Person]:
    """The people among ``person_ids`` (successors and unknown ids left out)."""
    if not person_ids:
        return {}
    try:
        docs = es.mget(index=index, ids=list(dict.fromkeys(person_ids)))["docs"]
    except NotFoundError:
        return {}
    return {d["_id"]: p for d in docs if d.get("found") and isinstance(p := parse(d["_source"]), Person)}


def named_body(name_key: str) -> dict:
    """The search for the people of one name block, the most papers first (answered by :func:`shape_named`).
    A missing people index (no people pass has run yet) answers none."""
    return {"size": MAX_NAMED, "ignore_unavailable": True, "sort": [{"papers": "desc"}, {"person_id": "asc"}],
            "query": {"bool": {"filter": [{"term": {"name_key": name_key}}, {"term": {"kind": PERSON}}]}},
            "_source": {"excludes": ["suggest"]}}


def shape_named(answer: dict) -> list[Person]:
    return [p for h in answer["hits"]["hits"] if isinstance(p := parse(h["_source"]), Person)]


def named(es: Elasticsearch, index: str, name_key: str) -> list[Person]:
    """The people of one name block, the most papers first."""
    return shape_named(es.search(index=index, **named_body(name_key)).body)


def completion_body(prefix: str, size: int) -> dict:
    """The search for the people whose name (any spelling, from any of its words) starts with ``prefix``, the most
    papers first (answered by :func:`shape_completions`)."""
    return {"size": 0, "ignore_unavailable": True, "_source": {"excludes": ["suggest"]},
            "suggest": {"people": {"prefix": prefix, "completion": {"field": "suggest", "size": size}}}}


def shape_completions(answer: dict) -> list[Person]:
    options = (answer.get("suggest") or {}).get("people", [{}])[0].get("options", [])
    people = [p for o in options if o.get("_source") and isinstance(p := parse(o["_source"]), Person)]
    return list({p.person_id: p for p in people}.values())


def stored(es: Elasticsearch, index: str) -> dict[str, tuple[str, str]]:
    """Every id the index holds, with its kind and digest."""
    try:
        return {h["_id"]: (h["_source"].get("kind", PERSON), h["_source"].get("digest", ""))
                for h in helpers.scan(es, index=index, size=5000,
                                      query={"query": {"match_all": {}}, "_source": ["kind", "digest"]})}
    except NotFoundError:
        return {}
