"""The bundled sample (data/sample) agrees with its README's per-file table and keeps its sources' status mix."""

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
ROW = re.compile(r"^\| (?P<rel>[\w/]+\.json(?:\.gz)?) \| (?P<layer>\w+) \| (?P<n>\d+) \| (?P<src>\d+) "
                 r"\| (?P<abs>\d+) \| (?P<statuses>.*) \|$")
STATUS = re.compile(r"^(?P<name>.+) (?P<n>\d+)/(?P<src>\d+)$")
MISSING = "(no status)"


def _rows() -> dict[str, dict]:
    rows = {}
    for line in (SAMPLE / "README.md").read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            statuses = {}
            for part in m["statuses"].split(", "):
                s = STATUS.match(part)
                statuses[s["name"]] = (int(s["n"]), int(s["src"]))
            rows[m["rel"]] = {"n": int(m["n"]), "src": int(m["src"]), "abstracts": int(m["abs"]),
                              "layer": m["layer"], "statuses": statuses}
    return rows


ROWS = _rows()


def _load(rel: str) -> list[dict]:
    raw = (SAMPLE / rel).read_bytes()
    return json.loads(gzip.decompress(raw) if rel.endswith(".gz") else raw)


def test_readme_lists_every_sample_file():
    files = {p.relative_to(SAMPLE).as_posix() for p in SAMPLE.glob("*/*.json*")}
    assert files == set(ROWS) and len(files) > 100


def test_recent_years_of_the_big_conferences_are_in():
    for rel in ("iclr/iclr2025.json.gz", "iclr/iclr2026.json.gz", "nips/nips2025.json.gz",
                "icml/icml2025.json.gz", "cvpr/cvpr2025.json.gz", "emnlp/emnlp2024.json.gz"):
        assert ROWS[rel]["layer"] == "tagged" and ROWS[rel]["n"] >= 60
    assert ROWS["aaai/aaai2025.json.gz"]["abstracts"] == 0  # the source has none
    assert ROWS["neurips/neurips2026.json"] == {"n": 20, "src": 20, "abstracts": 20, "layer": "seed",
                                                "statuses": {"Poster": (20, 20)}}


@pytest.mark.parametrize("rel", sorted(ROWS))
def test_file_matches_its_readme_row(rel):
    records, row = _load(rel), ROWS[rel]
    assert len(records) == row["n"]
    assert sum(1 for r in records if str(r.get("abstract") or "").strip()) == row["abstracts"]
    got = Counter(str(r["status"]) if "status" in r else MISSING for r in records)
    assert {k.replace("|", "/"): v for k, v in got.items()} == {k: v[0] for k, v in row["statuses"].items() if v[0]}


def test_thirty_conferences_and_the_journals_each_with_its_newest_year():
    from services.search.catalogue import venues
    from services.settings import load_settings

    folders = sorted(p.name for p in SAMPLE.iterdir() if p.is_dir())
    kinds = Counter(venues.lookup(f).kind for f in {venues.canonical_slug(f) for f in folders})
    assert kinds["conference"] >= 30 and kinds["journal"] >= 3
    corpus = load_settings().corpus_dir
    if not corpus.is_dir():
        pytest.skip("the full corpus (PAPERLIST_CORPUS) is not next to this checkout")
    for venue in sorted(p for p in corpus.iterdir() if p.is_dir()):
        newest = max(venue.glob(f"{venue.name}[0-9][0-9][0-9][0-9].json*"))
        assert f"{venue.name}/{newest.name}" in ROWS, venue.name


PER_FILE = int(re.search(r"a stratified sample of (\d+) records", (SAMPLE / "README.md").read_text()).group(1))


@pytest.mark.parametrize("rel", sorted(r for r in ROWS if ROWS[r]["src"] > 2 * PER_FILE))
def test_slice_keeps_the_source_status_mix(rel):
    row = ROWS[rel]
    assert sum(src for _, src in row["statuses"].values()) == row["src"]
    probes = row["n"] - PER_FILE
    assert 0 <= probes <= PER_FILE // 3
    for name, (n, src) in row["statuses"].items():
        share = PER_FILE * src / row["src"]
        # Each status gets its largest-remainder share; probe records only add to it.
        assert int(share) <= n <= int(share) + 1 + probes, (name, n, src)
