#!/usr/bin/env python3
"""Build the small sample corpus shipped with the repository (``data/sample``).

The sample lets a fresh clone index and search something without the big corpus. It is
cut from the Paper Copilot "paperlists" corpus (``<conf>/<conf><year>.json.gz``, one JSON
array of records per conference-year) and from the product's seed front page (twenty
NeurIPS 2026 papers), and written with the same folder layout and file names.

Everything here is deterministic: the only randomness is a ``random.Random`` seeded
from ``--seed`` and the file name, no timestamps, sorted directory listings, gzip members
written with ``mtime=0`` and no embedded file name. Running the script twice gives
byte-identical files (for a given zlib build).

Records are copied exactly as published (no cleaning): the indexer must cope with the
mess. Only the choice of records is ours:

* per venue folder, the ``--recent`` most recent years plus the ``--older`` oldest years of
  the files as Paper Copilot publishes them, plus every year of the rebuilt layer (files
  whose records carry a ``src`` provenance tag: the recent years of the big conferences,
  the newest editions); a venue whose every file is tagged (added whole) gets its
  ``--recent`` newest and ``--older`` oldest years (see ``LAYERS``);
* per file, a stratified sample of ``--per-file`` records: each ``status`` value (a
  missing key is a value of its own) gets its share by largest remainder, drawn at random
  within the status, so a slice keeps its source's status mix; plus a few "probe" records
  so that each file's oddities are represented: every status and track value, missing
  status/track keys, missing abstracts, empty titles/authors, GitHub links, keywords,
  primary areas, awards, LaTeX/newlines in titles, and whole groups of duplicated ids.

Usage::

    python deploy/tools/build_sample.py            # defaults below, relative to the repo
    python deploy/tools/build_sample.py --check    # rebuild in memory, compare with disk
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import random
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[2]

DEFAULT_CORPUS = "../shared/data/paperlists"
DEFAULT_OUT = "data/sample"
DEFAULT_SEED_PAGE = "../shared/seed/paperlist-ai-front-page.txt"

SEED_CONF = "neurips"
SEED_YEAR = 2026
SEED_MARKER = "NeurIPS 2026"
SEED_EXPECTED = 20

FILE_RE = re.compile(r"^(?P<conf>.+?)(?P<year>\d{4})\.json\.gz$")

Record = dict[str, Any]


# --------------------------------------------------------------------------- helpers


def resolve(path: str) -> Path:
    """Relative paths are relative to the repository root, not the working directory."""
    p = Path(path).expanduser()
    return p if p.is_absolute() else (REPO / p).resolve()


def dump_json(records: list[Record]) -> bytes:
    """Serialise like the published files: 4-space indent, ASCII escapes, no final newline."""
    return json.dumps(records, indent=4, ensure_ascii=True).encode("ascii")


def gzip_bytes(data: bytes) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as gz:
        gz.write(data)
    return buf.getvalue()


def load_records(path: Path) -> list[Record]:
    with gzip.open(path, "rb") as fh:
        data = json.load(fh)
    if not isinstance(data, list):
        raise SystemExit(f"{path}: expected a JSON array, got {type(data).__name__}")
    return data


def blank(value: Any) -> bool:
    return not (isinstance(value, str) and value.strip())


# --------------------------------------------------------------------------- selection


@dataclass
class Probe:
    """Make sure at least ``want`` records matching ``match`` are in the slice."""

    name: str
    match: Callable[[Record], bool]
    want: int = 2


PROBES: tuple[Probe, ...] = (
    Probe("status key missing", lambda r: "status" not in r),
    Probe("track key missing", lambda r: "track" not in r),
    Probe("abstract missing/blank", lambda r: blank(r.get("abstract"))),
    Probe("title blank", lambda r: blank(r.get("title")), 1),
    Probe("author blank", lambda r: blank(r.get("author")), 1),
    Probe("github", lambda r: not blank(r.get("github"))),
    Probe("github with space", lambda r: " " in str(r.get("github", "")).strip(), 1),
    Probe("keywords", lambda r: not blank(r.get("keywords"))),
    Probe("primary_area", lambda r: not blank(r.get("primary_area"))),
    Probe("award", lambda r: r.get("award") is True),
    Probe("title newline", lambda r: "\n" in str(r.get("title", "")), 1),
    Probe("title latex", lambda r: bool(re.search(r"[$\\]", str(r.get("title", "")))), 1),
    Probe("title padded", lambda r: str(r.get("title", "")) != str(r.get("title", "")).strip(), 1),
    Probe("author empty slot", lambda r: ";;" in str(r.get("author", "")), 1),
    Probe("abstract html", lambda r: bool(re.search(r"</?[a-zA-Z]", str(r.get("abstract", "")))), 1),
)

DUP_GROUPS = 2  # whole groups of records sharing an id, per file
MISSING = "(no status)"  # how a record without a ``status`` key is counted


def status_of(rec: Record) -> str:
    return str(rec["status"]) if "status" in rec else MISSING


def stratified(records: list[Record], k: int, rng: random.Random) -> list[int]:
    """``k`` indices, each status getting its largest-remainder share, random within it."""
    if len(records) <= k:
        return list(range(len(records)))
    strata: dict[str, list[int]] = defaultdict(list)
    for i, rec in enumerate(records):
        strata[status_of(rec)].append(i)
    exact = {s: k * len(idx) / len(records) for s, idx in strata.items()}
    quota = {s: int(q) for s, q in exact.items()}
    by_remainder = sorted(strata, key=lambda s: (-(exact[s] - quota[s]), -len(strata[s]), s))
    for s in by_remainder[: k - sum(quota.values())]:
        quota[s] += 1
    chosen: list[int] = []
    for s in sorted(strata):
        chosen += rng.sample(strata[s], quota[s])
    return sorted(chosen)


def select(records: list[Record], per_file: int, rng: random.Random) -> tuple[list[int], Counter]:
    """Indices (in file order) of the records to keep, and why extra ones were added."""
    chosen = set(stratified(records, per_file, rng))
    reasons: Counter = Counter()

    def ensure(name: str, match: Callable[[Record], bool], want: int) -> None:
        have = sum(1 for i in chosen if match(records[i]))
        if have >= want:
            return
        for i, rec in enumerate(records):
            if have >= want:
                break
            if i not in chosen and match(rec):
                chosen.add(i)
                have += 1
                reasons[name] += 1

    # Every status and track value (including "key absent") appears at least twice.
    for key in ("status", "track"):
        values = sorted({str(r[key]) for r in records if key in r})
        for value in values:
            ensure(f"{key}={value}", lambda r, k=key, v=value: k in r and str(r[k]) == v, 2)
    for probe in PROBES:
        ensure(probe.name, probe.match, probe.want)

    # Whole groups of duplicated ids (e.g. a SIGGRAPH poster listed in five sessions).
    by_id: dict[str, list[int]] = defaultdict(list)
    for i, rec in enumerate(records):
        rid = rec.get("id")
        if isinstance(rid, str) and rid:
            by_id[rid].append(i)
    groups = [idx for idx in by_id.values() if len(idx) > 1]
    groups.sort(key=lambda idx: idx[0])
    complete = [g for g in groups if all(i in chosen for i in g)]
    for g in groups:
        if len(complete) >= DUP_GROUPS:
            break
        if g in complete:
            continue
        added = [i for i in g if i not in chosen]
        chosen.update(added)
        reasons["duplicate id group"] += len(added)
        complete.append(g)

    return sorted(chosen), reasons


def pick_years(years: list[int], recent: int, older: int) -> list[int]:
    years = sorted(set(years))
    keep = set(years[-recent:]) if recent > 0 else set()
    rest = [y for y in years if y not in keep]
    keep.update(rest[:older])
    return sorted(keep)


# --------------------------------------------------------------------------- seed page


def parse_seed_page(text: str) -> list[Record]:
    """Parse the front page: blocks of marker / title / authors / abstract."""
    paragraphs = [p.strip() for p in re.split(r"\n[ \t]*\n", text.replace("\r\n", "\n"))]
    paragraphs = [p for p in paragraphs if p]
    starts = [i for i, p in enumerate(paragraphs) if p == SEED_MARKER]
    papers: list[Record] = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(paragraphs)
        block = paragraphs[start + 1 : end]
        if len(block) < 3:
            raise SystemExit(f"seed page: paper {n + 1} has {len(block)} paragraphs, expected 3")
        if n + 1 < len(starts) and len(block) != 3:
            raise SystemExit(f"seed page: paper {n + 1} has {len(block)} paragraphs, expected 3")
        title, authors, abstract = block[:3]
        for label, value in (("title", title), ("authors", authors)):
            if "\n" in value:
                raise SystemExit(f"seed page: paper {n + 1}: {label} spans lines: {value!r}")
        names = [a.strip() for a in authors.split(",")]
        if not all(names) or any(len(a) > 80 for a in names):
            raise SystemExit(f"seed page: paper {n + 1}: odd author line {authors!r}")
        if len(abstract) < 200:
            raise SystemExit(f"seed page: paper {n + 1}: abstract too short: {abstract!r}")
        papers.append(seed_record(title, names, abstract))
    if len(papers) != SEED_EXPECTED:
        raise SystemExit(f"seed page: found {len(papers)} papers, expected {SEED_EXPECTED}")
    return papers


def seed_record(title: str, names: list[str], abstract: str) -> Record:
    """A record shaped like the published NeurIPS files; unknown string fields are ""."""
    return {
        "title": title,
        "status": "Poster",
        "track": "main",
        "site": "",
        "id": "",
        "author_site": ", ".join(names),
        "author": "; ".join(names),
        "abstract": abstract,
        "keywords": "",
        "primary_area": "",
        "tldr": "",
        "bibtex": "",
        "pdf": "",
        "supp": "",
        "aff": "",
        "aff_domain": "",
        "email": "",
        "github": "",
        "project": "",
        "oa": "",
        "arxiv": "",
        "gs_cited_by_link": "",
    }


# --------------------------------------------------------------------------- build


@dataclass
class FileOut:
    conf: str
    year: int
    rel: str  # path relative to the output directory
    data: bytes  # bytes written to disk
    records: int
    source_records: int
    extras: Counter = field(default_factory=Counter)
    statuses: Counter = field(default_factory=Counter)  # in the slice
    source_statuses: Counter = field(default_factory=Counter)
    abstracts: int = 0  # records of the slice with a non-blank abstract
    layer: str = "published"  # one of LAYERS


# Where a file's records come from, as the file shows it:
#   published  as Paper Copilot publishes them
#   tagged     every record carries a ``src`` provenance tag: rebuilt from earlier versions and
#              other lists (the recent years of the big conferences) or added later (the newest
#              editions, venues added whole)
#   seed       the seed front page
LAYERS = ("published", "tagged", "seed")


def is_tagged(records: list[Record]) -> bool:
    """Rebuilt and added files tag every record with its provenance, ``src``."""
    return any("src" in r for r in records)


def pick_files(loaded: dict[int, list[Record]], recent: int, older: int) -> dict[int, str]:
    """The years of one folder to sample, each with its layer (see LAYERS).

    A venue with published files: their ``recent`` newest and ``older`` oldest years, plus every
    tagged year (the years Paper Copilot's own files lack or hold too large). A venue whose every
    file is tagged (added to the corpus whole): its ``recent`` newest and ``older`` oldest years.
    """
    tagged = {year for year, records in loaded.items() if is_tagged(records)}
    published = [year for year in loaded if year not in tagged]
    if not published:
        return {year: "tagged" for year in pick_years(list(loaded), recent, older)}
    chosen = set(pick_years(published, recent, older)) | tagged
    return {year: "tagged" if year in tagged else "published" for year in sorted(chosen)}


def build(corpus: Path, seed_page: Path, recent: int, older: int, per_file: int,
          seed: int) -> list[FileOut]:
    if not corpus.is_dir():
        raise SystemExit(f"corpus not found: {corpus}")
    outs: list[FileOut] = []
    conf_dirs = sorted(p for p in corpus.iterdir() if p.is_dir())
    if not conf_dirs:
        raise SystemExit(f"no conference folders in {corpus}")
    for conf_dir in conf_dirs:
        files: dict[int, Path] = {}
        for path in sorted(conf_dir.glob("*.json.gz")):
            m = FILE_RE.match(path.name)
            if m:
                files[int(m["year"])] = path
        if not files:
            print(f"warning: {conf_dir.name}: no <conf><year>.json.gz files", file=sys.stderr)
            continue
        loaded = {year: load_records(path) for year, path in files.items()}
        for year, layer in pick_files(loaded, recent, older).items():
            path, records = files[year], loaded[year]
            rng = random.Random(f"{seed}:{path.name}")
            idx, extras = select(records, per_file, rng)
            sliced = [records[i] for i in idx]
            outs.append(
                FileOut(
                    conf=conf_dir.name,
                    year=year,
                    rel=f"{conf_dir.name}/{path.name}",
                    data=gzip_bytes(dump_json(sliced)),
                    records=len(sliced),
                    source_records=len(records),
                    extras=extras,
                    statuses=Counter(status_of(r) for r in sliced),
                    source_statuses=Counter(status_of(r) for r in records),
                    abstracts=sum(1 for r in sliced if not blank(r.get("abstract"))),
                    layer=layer,
                )
            )

    papers = parse_seed_page(seed_page.read_text(encoding="utf-8"))
    outs.append(
        FileOut(
            conf=SEED_CONF,
            year=SEED_YEAR,
            rel=f"{SEED_CONF}/{SEED_CONF}{SEED_YEAR}.json",
            data=dump_json(papers),
            records=len(papers),
            source_records=len(papers),
            statuses=Counter(status_of(r) for r in papers),
            source_statuses=Counter(status_of(r) for r in papers),
            abstracts=sum(1 for r in papers if not blank(r.get("abstract"))),
            layer="seed",
        )
    )
    return outs


def summarise(outs: list[FileOut]) -> list[tuple[str, str, int, int]]:
    per_conf: dict[str, list[FileOut]] = defaultdict(list)
    for o in outs:
        per_conf[o.conf].append(o)
    rows = []
    for conf in sorted(per_conf):
        group = per_conf[conf]
        years = ", ".join(str(o.year) for o in sorted(group, key=lambda o: o.year))
        rows.append((conf, years, sum(o.records for o in group), sum(len(o.data) for o in group)))
    return rows


def fmt_table(rows: list[tuple[str, str, int, int]], markdown: bool) -> str:
    total = ("TOTAL", f"{len(rows)} folders", sum(r[2] for r in rows), sum(r[3] for r in rows))
    if markdown:
        lines = ["| conference | years | records | bytes |", "|---|---|---:|---:|"]
        lines += [f"| {c} | {y} | {n} | {b} |" for c, y, n, b in rows]
        lines.append(f"| **{total[0]}** | {total[1]} | **{total[2]}** | **{total[3]}** |")
        return "\n".join(lines)
    w = max(len(r[1]) for r in rows + [total])
    lines = [f"{'conference':<13} {'years':<{w}} {'records':>8} {'bytes':>10}"]
    lines.append("-" * len(lines[0]))
    lines += [f"{c:<13} {y:<{w}} {n:>8} {b:>10}" for c, y, n, b in rows]
    lines.append("-" * len(lines[0]))
    lines.append(f"{total[0]:<13} {total[1]:<{w}} {total[2]:>8} {total[3]:>10}")
    return "\n".join(lines)


def fmt_statuses(o: FileOut) -> str:
    """``Poster 16/3113, Reject 25/4959``: slice/source count per status, commonest first."""
    order = sorted(o.source_statuses, key=lambda st: (-o.source_statuses[st], st))
    return ", ".join(f"{st.replace('|', '/')} {o.statuses[st]}/{o.source_statuses[st]}" for st in order)


def fmt_files(outs: list[FileOut]) -> str:
    lines = ["| file | layer | records | of source | with abstract | status: slice/source |",
             "|---|---|---:|---:|---:|---|"]
    for o in sorted(outs, key=lambda o: o.rel):
        lines.append(f"| {o.rel} | {o.layer} | {o.records} | {o.source_records} | {o.abstracts} "
                     f"| {fmt_statuses(o)} |")
    return "\n".join(lines)


README = """\
# Sample corpus

A small slice of real conference paper lists, shipped so that a fresh clone can index and
search something without the full corpus. **Generated — do not edit by hand**; rebuild with

    python deploy/tools/build_sample.py

(the script is deterministic: re-running it gives identical files).

## Provenance

* `<conf>/<conf><year>.json.gz` — records copied verbatim from the
  [Paper Copilot paperlists](https://github.com/papercopilot/paperlists) corpus
  ("paperlists" format: one JSON array of records per conference-year; list-valued fields
  are `;`-joined strings; many empty strings). Same folder layout and file names as the
  source (the folder `nips` is NeurIPS, 1987–2025 in the corpus). The year comes from the
  file name only; records carry no year field. Records are **not cleaned**: odd statuses,
  missing abstracts, comma-separated or doubled author lists, duplicated ids and the like
  are kept on purpose, since the indexer has to cope with them.
* `neurips/neurips2026.json` — the twenty NeurIPS 2026 papers of the product's seed front
  page (`shared/seed/paperlist-ai-front-page.txt`, next to the corpus: blocks of
  "NeurIPS 2026" / title / comma-separated authors / abstract), converted to the same record format: `author` is `"; "`-joined,
  `author_site` comma-joined, `status` "Poster", `track` "main", and the usual string
  fields (`id`, `site`, `pdf`, `aff`, `keywords`, ...) empty; numeric fields
  (`gs_citation`, `pdf_size`, `author_num`) are left out. Plain JSON, not gzipped.
  Titles and abstracts are kept exactly as on the page, including LaTeX (`25\\%`,
  `$\\mathcal{{M}}$`, `\\href{{...}}{{...}}`) and the last paper's abstract, which already
  starts mid-sentence ("conditioned on desired ...") on the page.

## How it was sliced

* Every venue folder of the corpus ({n_confs} folders: conferences and journals) is represented.
* Per venue: of the files as Paper Copilot publishes them (layer `published`), the {recent}
  most recent years plus the oldest {older} other year(s) (all years when a venue has fewer
  files); plus every year whose records are tagged with `src` (layer `tagged`: rebuilt or
  added later): ICLR 2019–2026, NeurIPS 2019–2025 in `nips/`, ICML/CVPR 2020–2026, ICCV,
  ECCV 2024, AAAI, ACL 2023–2026, NAACL 2025, COLING 2024, ICRA/IROS 2024 and the other 2026
  editions, with or without abstracts as the source has them. A venue whose every file is
  tagged (EMNLP here, and the venues added whole: EACL, TMLR, JMLR, TACL, ...) gets, like a
  published one, its {recent} newest years plus its oldest {older} other one(s).
* Per file: a stratified sample of {per_file} records (all records when the file is
  smaller): each `status` value (a missing key counts as `{missing}`) gets its share of
  the {per_file} by largest remainder, drawn with `random.Random("{seed}:<file name>")`
  within the status, so a slice keeps its source's status mix (accepted, rejected,
  withdrawn, oral/spotlight/poster...). Then a few "probe"
  records, picked first-in-file-order, so each file's oddities are present: at least two
  records of every `status` and `track` value (and of records missing those keys), missing
  abstracts, blank titles/authors, GitHub links, `keywords`, `primary_area`, awards,
  LaTeX/newlines in titles, empty author slots, and {dup_groups} whole groups of records
  sharing an `id` (e.g. SIGGRAPH 2025 posters listed once per session).
* Records keep their original order and content; files are written like the source
  (4-space indented JSON with ASCII escapes), gzip with a zero timestamp.

## Contents

{table}

Total: {total_records} records in {n_files} files, {total_bytes} bytes.

## Per conference-year

Records in each file, the records of its source file, how many of the slice have an
abstract, and per `status` the count in the slice / in the source (commonest first; a
`|` in a status is shown as `/`). Probes may add a rare status beyond its share.

{files}
"""


def render_readme(outs: list[FileOut], args: argparse.Namespace) -> bytes:
    rows = summarise(outs)
    text = README.format(
        n_confs=len({o.conf for o in outs if o.rel.endswith(".json.gz")}),
        recent=args.recent,
        older=args.older,
        per_file=args.per_file,
        seed=args.seed,
        missing=MISSING,
        dup_groups=DUP_GROUPS,
        table=fmt_table(rows, markdown=True),
        files=fmt_files(outs),
        total_records=sum(o.records for o in outs),
        n_files=len(outs),
        total_bytes=sum(len(o.data) for o in outs),
    )
    return text.encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS,
                    help=f"paperlists corpus folder (default: {DEFAULT_CORPUS}, relative to the repo)")
    ap.add_argument("--out", default=DEFAULT_OUT,
                    help=f"output folder (default: {DEFAULT_OUT}, relative to the repo)")
    ap.add_argument("--seed-page", default=DEFAULT_SEED_PAGE,
                    help=f"seed front page text (default: {DEFAULT_SEED_PAGE}, relative to the repo)")
    ap.add_argument("--recent", type=int, default=3, help="most recent years per conference (default 3)")
    ap.add_argument("--older", type=int, default=1, help="oldest other years per conference (default 1)")
    ap.add_argument("--per-file", type=int, default=60,
                    help="stratified records per file, before probes (default 60)")
    ap.add_argument("--seed", type=int, default=11, help="random seed of the sampling (default 11)")
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if the files on disk differ from a fresh build")
    ap.add_argument("-v", "--verbose", action="store_true", help="list files and probe additions")
    args = ap.parse_args(argv)

    corpus, out, seed_page = resolve(args.corpus), resolve(args.out), resolve(args.seed_page)
    outs = build(corpus, seed_page, args.recent, args.older, args.per_file, args.seed)
    readme = render_readme(outs, args)
    planned = {o.rel: o.data for o in outs}
    planned["README.md"] = readme

    if args.check:
        bad = [rel for rel, data in planned.items()
               if not (out / rel).is_file() or (out / rel).read_bytes() != data]
        stale = [p.relative_to(out).as_posix() for p in sorted(out.glob("*/*.json*"))
                 if p.relative_to(out).as_posix() not in planned]
        for rel in bad:
            print(f"differs: {rel}")
        for rel in stale:
            print(f"stale:   {rel}")
        print("sample is up to date" if not (bad or stale) else "sample is out of date")
        return 1 if bad or stale else 0

    out.mkdir(parents=True, exist_ok=True)
    # Remove sample files from an earlier run that are no longer planned (only our own
    # kind of files: <conf>/<name>.json[.gz]).
    for p in sorted(out.glob("*/*.json*")):
        if p.relative_to(out).as_posix() not in planned and p.name.endswith((".json", ".json.gz")):
            p.unlink()
    for d in sorted(out.iterdir()):
        if d.is_dir() and not any(d.iterdir()):
            d.rmdir()
    for rel, data in planned.items():
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_bytes() != data:
            target.write_bytes(data)

    if args.verbose:
        for o in outs:
            extra = ", ".join(f"{k} +{v}" for k, v in sorted(o.extras.items()))
            print(f"{o.rel:36} {o.records:4}/{o.source_records:<5} {len(o.data):8} B  {extra}")
        print()
    print(fmt_table(summarise(outs), markdown=False))
    total_disk = sum(len(d) for d in planned.values())
    print(f"\nwrote {len(planned)} files ({total_disk} bytes incl. README) to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
