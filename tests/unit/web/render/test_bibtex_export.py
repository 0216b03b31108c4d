"""BibTeX exports as dblp writes them: unique keys, TeX titles, catalogue booktitles, pages and publishers.

Parsed with bibtexparser, and run through a real ``bibtex`` (Debian's texlive-binaries, which
``deploy/test`` installs) with a minimal style that splits names and changes case as real
styles do.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import bibtexparser
import pytest

from services.indexer.ingest.corpus_reader import CorpusReader
from services.search.catalogue import venues
from services.search.records.model import Author, Links, Paper, Publication
from services.web.render import bibtex

SAMPLE = Path(__file__).resolve().parents[4] / "data" / "sample"
STYLE = Path(__file__).resolve().parents[2] / "data" / "check.bst"


def make(**changes) -> Paper:
    fields = dict(paper_id="iclr-2025-000000000001", conference="iclr", conference_name="ICLR", year=2025,
                  title="A Systematic Study of Preference Optimization", authors=[Author(name="Wei He")],
                  links=Links(openreview="https://openreview.net/forum?id=abc"))
    fields.update(changes)
    return Paper(**fields)


def parsed(text: str):
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks, [b.error for b in library.failed_blocks][:3]
    return library


def sample_papers(limit: int) -> list[Paper]:
    papers = []
    for paper in CorpusReader([str(SAMPLE)]):
        papers.append(paper)
        if len(papers) == limit:
            break
    return papers


def test_repeated_keys_get_a_suffix_across_an_export():
    papers = [make(paper_id=f"iclr-2025-{i:012d}", title=f"A Systematic Study of Thing {i}") for i in range(3)]
    assert {bibtex.cite_key(p) for p in papers} == {"he2025systematic"}
    library = parsed(bibtex.bibliography(papers))
    assert [e.key for e in library.entries] == ["he2025systematic", "he2025systematicb", "he2025systematicc"]


def test_a_suffix_never_takes_another_papers_own_key():
    clash = make(title="A Systematicb Study")  # its own key is he2025systematicb
    papers = [make(), make(paper_id="iclr-2025-000000000002"), clash]
    keys = [e.key for e in parsed(bibtex.bibliography(papers)).entries]
    assert len(set(keys)) == 3 and keys[:2] == ["he2025systematic", "he2025systematicb"]


def test_neurips_booktitle_publisher_volume_pages_and_doi():
    paper = make(conference="neurips", year=2018, publication=Publication(pages="1--9", volume="31"),
                 links=Links(doi="https://doi.org/10.5555/x.y"))
    [entry] = parsed(bibtex.entry(paper)).entries
    assert entry.entry_type == "inproceedings"
    assert entry["booktitle"] == "Advances in Neural Information Processing Systems"
    assert entry["publisher"] == "Curran Associates, Inc."
    assert (entry["volume"], entry["pages"], entry["doi"]) == ("31", "1--9", "10.5555/x.y")


def test_source_publisher_where_the_catalogue_has_none_and_no_empty_fields():
    paper = make(conference="iclr", publication=Publication(publisher="OpenReview.net"))
    entry = bibtex.entry(paper)
    assert "publisher = {OpenReview.net}" in entry
    assert "pages =" not in entry and "volume =" not in entry and "= {}" not in entry


def test_a_journal_is_an_article_with_its_journal_and_volume():
    [entry] = parsed(bibtex.entry(make(conference="jmlr", year=2020, publication=Publication(pages="1--24")))).entries
    venue = venues.lookup("jmlr")
    assert entry.entry_type == "article" and "booktitle" not in entry.fields_dict
    assert entry["journal"] == venue.journal and entry["pages"] == "1--24"
    assert entry["volume"] == str(venue.volume(2020))


def test_tex_title_survives_a_parser():
    [entry] = parsed(bibtex.entry(make(title="$\\beta$-DPO: Direct Preference Optimization with Dynamic $\\beta$"))).entries
    assert entry["title"] == "{$\\beta$}{-DPO:} Direct Preference Optimization with Dynamic {$\\beta$}"


@pytest.fixture(scope="module")
def export() -> tuple[list[Paper], str]:
    papers = sample_papers(1000)
    assert len(papers) == 1000
    return papers, bibtex.bibliography(papers)


def test_an_export_of_1000_papers_parses_with_unique_keys_and_catalogue_booktitles(export):
    papers, text = export
    entries = parsed(text).entries
    assert len(entries) == len(papers) == len({e.key for e in entries})
    for paper, entry in zip(papers, entries, strict=True):
        venue = venues.lookup(paper.conference)
        if venue.is_journal:
            assert entry["journal"] == bibtex.escape(venue.journal)
        else:
            assert entry["booktitle"] == bibtex.escape(venue.proceedings(paper.year)), paper.paper_id


@pytest.mark.bibtex
@pytest.mark.skipif(shutil.which("bibtex") is None, reason="no bibtex (Debian's texlive-binaries) on this machine")
def test_a_real_bibtex_run_reads_every_entry_without_a_warning(export, tmp_path):
    papers, text = export
    (tmp_path / "export.bib").write_text(text, encoding="utf-8")
    shutil.copy(STYLE, tmp_path / "check.bst")
    (tmp_path / "job.aux").write_text("\\citation{*}\n\\bibdata{export}\n\\bibstyle{check}\n")
    # texlive-binaries alone has no texmf.cnf: search paths and a real size limit set here.
    env = {**os.environ, "BIBINPUTS": ".", "BSTINPUTS": ".", "max_strings": "200000", "hash_extra": "200000"}
    run = subprocess.run(["bibtex", "-terse", "job"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    log = (tmp_path / "job.blg").read_text(errors="replace")
    assert run.returncode == 0, log[-2000:]
    assert "Warning--" not in log and "error message" not in log, log[-2000:]
    written = [line.split(":")[0] for line in (tmp_path / "job.bbl").read_text(errors="replace").splitlines()
               if line and not line[0].isspace()]  # bibtex wraps long lines, indenting the rest
    assert written == [e.key for e in parsed(text).entries]
