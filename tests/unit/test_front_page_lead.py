"""The conference-year the front page leads with (browse.newest_conference_year): a rule over data."""

from __future__ import annotations

from services.search.browse import ConferenceSummary, newest_conference_year
from services.search.limits import NEWEST_MIN_ABSTRACTS, NEWEST_MIN_PAPERS


def conf(slug: str, years: dict[int, tuple[int, int]], kind: str = "conference") -> ConferenceSummary:
    """``years``: year -> (listed papers, papers with an abstract)."""
    return ConferenceSummary(slug, slug.upper(), sum(n for n, _ in years.values()),
                             [(y, n) for y, (n, _) in sorted(years.items(), reverse=True)], kind=kind,
                             abstracts={y: a for y, (_, a) in years.items()})


def test_the_newest_year_then_the_month_the_venue_is_held():
    confs = [conf("iclr", {2025: (3000, 3000), 2024: (2000, 2000)}),
             conf("neurips", {2024: (4000, 4000)}),  # December, but of an older year
             conf("icml", {2025: (3300, 3300)})]      # July, after ICLR's April
    assert newest_conference_year(confs) == ("icml", 2025)


def test_a_stray_early_record_of_a_later_year_does_not_lead():
    confs = [conf("icml", {2025: (3300, 3300)}), conf("neurips", {2026: (NEWEST_MIN_PAPERS - 1,) * 2})]
    assert newest_conference_year(confs) == ("icml", 2025)
    assert newest_conference_year([conf("neurips", {2026: (3, 3)})]) == ("neurips", 2026)  # nothing better


def test_a_title_only_list_does_not_lead_when_an_edition_of_the_same_year_has_abstracts():
    # The 2026 editions: ACL (July) and CVPR (June) list titles and authors only; RSS (July) and
    # AISTATS (May) have abstracts. ACL is the biggest of the July editions, but RSS leads.
    confs = [conf("acl", {2026: (4699, 0), 2025: (3267, 1500)}), conf("cvpr", {2026: (4068, 0)}),
             conf("rss", {2026: (210, 210)}), conf("aistats", {2026: (587, 587)})]
    assert newest_conference_year(confs) == ("rss", 2026)
    # Half of the papers with abstracts is enough coverage; less is not.
    half = int(NEWEST_MIN_ABSTRACTS * 4699)
    assert newest_conference_year([conf("acl", {2026: (4699, half + 1)}), *confs[1:]]) == ("acl", 2026)
    assert newest_conference_year([conf("acl", {2026: (4699, half - 1)}), *confs[1:]]) == ("rss", 2026)


def test_the_newest_year_leads_with_titles_only_when_no_edition_of_it_has_abstracts():
    confs = [conf("acl", {2026: (4699, 0), 2025: (3267, 3267)}), conf("cvpr", {2026: (4068, 0)})]
    assert newest_conference_year(confs) == ("acl", 2026)


def test_journals_never_lead():
    confs = [conf("tmlr", {2026: (254, 254)}, kind="journal"), conf("iclr", {2025: (3000, 3000)})]
    assert newest_conference_year(confs) == ("iclr", 2025)
    assert newest_conference_year([conf("tmlr", {2026: (254, 254)}, kind="journal")]) is None
    assert newest_conference_year([]) is None


def test_an_unknown_venue_counts_as_held_mid_year():
    confs = [conf("some-new-conf", {2025: (100, 100)}), conf("icra", {2025: (2800, 2800)}),
             conf("icml", {2025: (3300, 3300)})]
    assert newest_conference_year(confs) == ("icml", 2025)  # July after "June"
    assert newest_conference_year(confs[:2]) == ("some-new-conf", 2025)  # "June" after ICRA's May
