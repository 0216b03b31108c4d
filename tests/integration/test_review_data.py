"""Issue 18 against real Elasticsearch: acceptance rates, what sources lack, rating histograms,
rating and tier sorts, the rating filter, affiliations, code links from abstracts, autocomplete.

The expected numbers are counted from the source files with rules of their own
(tests/source_counts.py), not with the code under test. The sample runs here; ICLR 2018-2025
and NeurIPS 2021-2024 acceptance rates of the full corpus are checked against a running site
(tests/live/test_live_site.py).
"""

from __future__ import annotations

import math
import re

import pytest
from source_counts import decision, expected_rate

from conftest import SAMPLE, source_records
from services.search.answers.stats import MAX_CREDIBLE_RATE, TIERS
from services.search.catalogue import catalogue
from services.search.query.request import parse_request
from services.search.service import PaperSearch

pytestmark = pytest.mark.integration

SCORE_FIELDS = ("rating", "confidence", "correctness", "soundness", "technical_novelty", "empirical_novelty",
                "contribution", "presentation", "excitement", "reproducibility", "suitability")


# What sources write for an unknown affiliation (the indexer's vocab lists them too): not an affiliation.
PLACEHOLDER = re.compile(r"^(?:(?:paper )?under double-blind review|n/?a|none|null|unknown|anonymous(?: institution)?"
                         r"|not provided(?: in the text)?|-+)$", re.IGNORECASE)


def has_affiliation(record: dict) -> bool:
    return any(part.strip() and not PLACEHOLDER.match(part.strip()) for k in ("aff", "aff_unique_norm")
               if isinstance(record.get(k), str) for part in re.split(r"[;+]", record[k]))


def _positive(value: object) -> bool:
    items = value[:1] if isinstance(value, list) else str(value).split(";") if value not in (None, "") else []
    try:
        return any(math.isfinite(float(v)) and 0 < float(v) <= 100 for v in items)
    except (TypeError, ValueError):
        return False


def has_rating(record: dict) -> bool:
    return _positive(record.get("rating")) or _positive(record.get("rating_avg"))


def has_citations(record: dict) -> bool:
    value = record.get("gs_citation")
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@pytest.fixture(scope="module")
def sample_sources() -> dict[tuple[str, int], list[dict]]:
    return source_records([SAMPLE])


@pytest.fixture(scope="module")
def service(es, sample_alias) -> PaperSearch:
    return PaperSearch(es, sample_alias)


def search(service: PaperSearch, **params):
    return service.search(parse_request({k: v if isinstance(v, list) else [str(v)] for k, v in params.items()}))


# --- acceptance rates -------------------------------------------------------------------------

def _rates_match(service: PaperSearch, sources: dict[tuple[str, int], list[dict]], venues: dict[str, range]) -> int:
    checked = 0
    for (conference, year), records in sorted(sources.items()):
        if conference not in venues or year not in venues[conference]:
            continue
        [got] = service.venue_years(conference, year)
        want = expected_rate(records)
        if want is None:
            assert got.acceptance_rate is None and got.submissions is None, (conference, year)
            continue
        assert got.acceptance_rate is not None and abs(got.acceptance_rate - want) <= 0.01, (conference, year)
        assert got.acceptance_rate == round(got.accepted / got.submissions, 4)
        checked += 1
    return checked


def test_acceptance_rates_count_withdrawn_and_desk_rejected_papers(service, sample_sources):
    assert _rates_match(service, sample_sources, {"iclr": range(2013, 2027), "neurips": range(2021, 2025)}) >= 5


# --- what the source lacks, ratings, affiliations ---------------------------------------------

def test_every_venue_year_says_what_its_source_lacks(service, sample_sources):
    cat = catalogue()
    for (conference, year), records in sorted(sample_sources.items()):
        [got] = service.venue_years(conference, year)
        journal = cat.venue(conference) is not None and cat.venue(conference).is_journal
        outcomes = [cat.outcome(conference, r.get("status") or "") for r in records]
        accepted = [o for o in outcomes if o.main and o.accepted]
        want = []
        if not journal and accepted and not any(o.tier in TIERS for o in accepted):
            want.append("tiers")
        if not journal and not any(decision(r.get("status") or "") == "rejected" for r in records):
            want.append("rejections")
        elif not journal and expected_rate(records) > MAX_CREDIBLE_RATE:
            want.append("all_rejections")  # only some rejections listed (NeurIPS: the public ones)
        for name, has in (("affiliations", has_affiliation), ("abstracts", lambda r: bool((r.get("abstract") or "").strip())),
                          ("citations", has_citations), ("reviews", has_rating)):
            if not any(has(r) for r in records):
                want.append(name)
        assert got.lacks == tuple(want), (conference, year)


def test_rating_histograms_sum_to_the_papers_whose_source_has_ratings(service, sample_sources):
    with_ratings = 0
    for (conference, year), records in sorted(sample_sources.items()):
        [got] = service.venue_years(conference, year)
        rated = sum(has_rating(r) for r in records)
        if not rated:
            assert got.scores is None, (conference, year)
            continue
        with_ratings += 1
        assert got.scores.total == rated == got.coverage.reviews, (conference, year)
        assert sum(got.scores.by_decision().values()) == rated
        assert [b.low for b in got.scores.bins] == sorted(b.low for b in got.scores.bins)
    assert with_ratings >= 10


def test_affiliations_show_for_95_percent_of_papers_whose_source_has_any(service, sample_sources):
    for (conference, year), records in sorted(sample_sources.items()):
        listed = sum(has_affiliation(r) for r in records)
        if listed:
            [got] = service.venue_years(conference, year)
            assert got.coverage.affiliations >= 0.95 * listed, (conference, year, got.coverage.affiliations, listed)


def test_an_affiliation_list_the_source_does_not_align_is_searchable(service, sample_sources):
    unaligned = next(r for (c, y), rs in sorted(sample_sources.items()) for r in rs
                     if r.get("aff_unique_norm") and not r.get("aff") and not r.get("aff_unique_index"))
    first = unaligned["aff_unique_norm"].split(";")[0].strip()
    found = search(service, q=unaligned["title"], page_size=5)
    paper = next(h.paper for h in found.hits if h.paper.title.split()[:3] == unaligned["title"].split()[:3])
    assert paper.affiliations and not paper.affiliations_aligned
    assert any(first.split()[0] in a for a in paper.affiliations)


def test_a_github_link_in_an_abstract_gives_code(service, sample_sources):
    record = next(r for rs in sample_sources.values() for r in rs
                  if not r.get("github") and re.search(r"https://github\.com/[\w.-]+/[\w.-]+", r.get("abstract") or ""))
    hits = search(service, q=record["title"], page_size=5).hits
    paper = next(h.paper for h in hits if h.paper.title.split()[:3] == record["title"].split()[:3])
    assert paper.links.code.startswith("https://github.com/")
    assert search(service, has_code="true", q=record["title"], page_size=5).total >= 1


# --- sorts and the rating filter ----------------------------------------------------------------

def test_rating_sort_puts_the_highest_first_and_unrated_papers_last(service):
    hits = search(service, conference="iclr", year="2017-2023", sort="rating", page_size=100,
                  status=["accept", "poster", "oral", "spotlight", "reject", "withdrawn", "unknown"]).hits
    ratings = [h.paper.rating_avg for h in hits]
    rated = [r for r in ratings if r is not None]
    assert rated and rated == sorted(rated, reverse=True)
    assert ratings == rated + [None] * (len(ratings) - len(rated))


def test_rating_filter_selects_a_point_or_a_range(service):
    point = search(service, rating="6", page_size=100, sort="rating")
    assert point.total and all(6 <= h.paper.rating_avg < 7 for h in point.hits)
    span = search(service, rating="5.5-7", page_size=100)
    assert span.total >= point.total and all(5.5 <= h.paper.rating_avg <= 7 for h in span.hits)
    counted = {v.value: v.count for v in search(service, page_size=1).facets["rating"]}
    assert counted["6"] == point.total


def test_citations_sort_puts_papers_without_a_count_last(service):
    hits = search(service, q="learning", sort="citations", page_size=100).hits
    counts = [h.paper.citations for h in hits]
    known = [c for c in counts if c is not None]
    assert known == sorted(known, reverse=True) and counts == known + [None] * (len(counts) - len(known))


def test_browse_order_is_tier_then_title_and_a_z_is_offered(service):
    hits = search(service, conference="iclr", year="2023", page_size=100).hits  # no text: the browse order
    ranks = [h.paper.tier_rank for h in hits]
    assert ranks == sorted(ranks) and len(set(ranks)) > 1
    for rank in set(ranks):
        keys = [h.sort[2] for h in hits if h.paper.tier_rank == rank]
        assert keys == sorted(keys)
    a_z = [h.sort[0] for h in search(service, conference="iclr", sort="title", page_size=100).hits]
    assert a_z == sorted(a_z)


# --- autocomplete -------------------------------------------------------------------------------

def test_autocomplete_finds_words_in_the_middle_of_a_title_and_ranks_the_phrase_first(service, sample_sources):
    title = next(r["title"] for rs in sample_sources.values() for r in rs
                 if len(r["title"].split()) >= 7 and r["title"].isascii() and r["title"].replace(" ", "").isalpha())
    words = title.split()
    typed = " ".join(words[2:4]) + " " + words[4][:3]  # the middle of the title, the last word unfinished
    titles = [s.text for s in service.suggest(typed) if s.kind == "title"]
    assert title in titles, (typed, titles)
    phrase = " ".join(words[2:4]).lower()
    flags = [phrase in t.lower() for t in titles if not t.lower().startswith(typed.lower())]
    assert flags == sorted(flags, reverse=True), titles  # the words as a phrase rank above the words apart


def test_every_venue_year_page_says_what_its_source_lacks(client, service, sample_sources):
    said = 0
    for conference, year in sorted(sample_sources):
        [venue] = service.venue_years(conference, year)
        page = client.get(f"/conferences/{conference}/{year}")
        assert page.status_code == 200, (conference, year)
        line = re.search(r'<p class="note source-lacks">(.*?)</p>', page.get_data(as_text=True), re.S)
        assert bool(line) == bool(venue.lacks), (conference, year)
        if line:
            said += 1
            assert all(label in line.group(1) for label in venue.lacks_labels()), (conference, year, line.group(1))
    assert said >= 10
