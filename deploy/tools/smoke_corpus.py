"""The corpora of deploy/compose-smoke and what they should index, counted from the source files.

    python3 deploy/tools/smoke_corpus.py count FOLDER...     papers the folders should index
    python3 deploy/tools/smoke_corpus.py records FOLDER...   records in their files (what an ingest reads)
    python3 deploy/tools/smoke_corpus.py second SAMPLE OUT N  write the second corpus (>= N records)

Counted by rules of the smoke's own, from the files alone (standard library, no project code): a
record is a paper of its file's conference-year when it is an object with a title that has a
letter or digit; papers of one file with the same id (or, lacking an id, the same words of title)
are one paper. On data/sample this gives the papers the ingest indexes (10,947 of 10,964 records).

The second corpus is the sample's first files (in path order) up to N records, each record's id
prefixed with `smoke-` (a record without an id gets `smoke-<file>-<position>`): the same
conference-years as the sample, none of its papers, and the sample's duplicated ids still
duplicated, so an ingest of it adds exactly `count OUT` papers.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path

FILE_NAME = re.compile(r"\d{4}\.json(\.gz)?$")


def files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and FILE_NAME.search(p.name))


def load(path: Path) -> list:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def paper_key(record: object) -> str | None:
    if not isinstance(record, dict):
        return None
    title = record.get("title")
    if not isinstance(title, str) or not re.search(r"\w", title):
        return None
    source_id = record.get("id")
    if isinstance(source_id, (int, float, str)) and not isinstance(source_id, bool) and str(source_id).strip():
        return "id:" + str(source_id).strip()
    return "title:" + " ".join(re.findall(r"\w+", title.lower()))


def papers(folders: list[Path]) -> set[tuple[str, str]]:
    keys = set()
    for folder in folders:
        for path in files(folder):
            for record in load(path):
                key = paper_key(record)
                if key:
                    keys.add((path.name, key))
    return keys


def records(folders: list[Path]) -> int:
    return sum(len(load(path)) for folder in folders for path in files(folder))


def write_second(sample: Path, out: Path, at_least: int) -> int:
    written = 0
    for path in files(sample):
        if written >= at_least:
            break
        rows = load(path)
        for position, record in enumerate(rows):
            if isinstance(record, dict):
                source_id = record.get("id")
                has_id = isinstance(source_id, (int, float, str)) and str(source_id).strip()
                record["id"] = f"smoke-{str(source_id).strip()}" if has_id else f"smoke-{path.stem}-{position}"
        target = out / path.relative_to(sample)
        target.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(target.with_name(target.name if target.name.endswith(".gz") else target.name + ".gz"),
                       "wt", encoding="utf-8") as handle:
            json.dump(rows, handle)
        written += len(rows)
    return written


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "count":
        print(len(papers([Path(a) for a in argv[1:]])))
    elif len(argv) >= 2 and argv[0] == "records":
        print(records([Path(a) for a in argv[1:]]))
    elif len(argv) == 4 and argv[0] == "second":
        print(write_second(Path(argv[1]), Path(argv[2]), int(argv[3])))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
