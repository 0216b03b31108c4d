"""The incremental names pass over a real index (services/indexer/corpus/names/index_pass.py) writes what a whole
pass would: after papers that name, define and mention names arrive, an incremental pass reads only them, and
a whole pass afterwards finds nothing to change."""

from __future__ import annotations

import json

from services import redis_keys
from services.indexer.corpus.names import index_pass
from services.indexer.follow.poll import poll
from services.indexer.ingest import passes
from services.search.records.followed import FollowedSource
from services.settings import PROJECT_ROOT

SAMPLE = PROJECT_ROOT / "data" / "sample"
NEW = [
    {"id": "zqn1", "title": "Zyxquorble Networks: Fast Lattice Quibbling", "author": "Ada Lovelace",
     "abstract": "We propose zyxquorble networks (ZQN), a lattice method. ZQN outperforms prior work."},
    {"id": "zqn2", "title": "Beyond ZQN: Deeper Lattices", "author": "Bo Peep",
     "abstract": "We scale zyxquorble networks (ZQN) and compare with generative adversarial networks (GANs)."},
    {"id": "zqn3", "title": "Quibbling with ZQN at Scale", "author": "Cy Young",
     "abstract": "Building on zyxquorble networks (ZQN), we quibble at scale."},
]


def _names(es, alias) -> dict[str, tuple]:
    es.indices.refresh(index=alias)
    hits = es.search(index=alias, size=10_000, _source=["given_names", "introduced", "mentions"],
                     query={"match_all": {}})["hits"]["hits"]
    return {h["_id"]: (h["_source"].get("given_names"), h["_source"].get("introduced"), h["_source"].get("mentions"))
            for h in hits}


def test_an_incremental_pass_writes_what_a_whole_pass_would(ingest, es, redis_client, alias, tmp_path):
    ingest([SAMPLE / "iclr", SAMPLE / "nips"], alias)  # the worker's passes ran (the tests wait for them)
    index_pass._KEPT.pop(alias, None)
    first = index_pass.run_pass(es, redis_client, alias, None)
    assert first.mode == "whole" and first.updated == 0, "the worker's pass left nothing to do"
    passes.take(redis_client, alias)  # what the sample's batches noted: done by that pass

    for year in (2027, 2028):  # a name introduced, then mentioned
        path = tmp_path / f"iclr{year}.json"
        path.write_text(json.dumps([{**r, "id": f"{r['id']}-{year}"} for r in NEW]))
        poll(es, redis_client, alias, FollowedSource(url=str(path)), batch_size=100)
    written, whole = passes.take(redis_client, alias)
    assert len(written) == 6 and not whole

    step = index_pass.run_pass(es, redis_client, alias, written)
    assert step.mode == "incremental" and step.reread == 6, step
    after_incremental = _names(es, alias)

    index_pass._KEPT.pop(alias, None)  # a pass with no memory, reading every paper
    check = index_pass.run_pass(es, redis_client, alias, None)
    print(f"\nnames pass over {check.papers:,} papers: incremental {step.seconds:.1f} s, whole {check.seconds:.1f} s")
    assert check.mode == "whole" and check.updated == 0, "the whole pass found something the incremental one missed"
    assert _names(es, alias) == after_incremental

    # A pass in another worker process took papers this process's copy never read: the next pass here reads all.
    redis_client.incr(redis_keys.pass_runs(alias, "names"))
    assert index_pass.run_pass(es, redis_client, alias, set()).mode == "whole"
