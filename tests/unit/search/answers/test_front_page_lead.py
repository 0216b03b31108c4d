"""The conference-year the front page leads with (browse.newest_conference_year), and which editions are
previews (ConferenceSummary.is_preview, browse.previews_after): rules over the counts, never over names."""

from __future__ import annotations

from services.search.answers.browse import ConferenceSummary, newest_conference_year, previews_after
from services.search.limits import COMPLETE_SHARE, LEAD_MIN_SHARE, NEWEST_MIN_ABSTRACTS, NEWEST_MIN_PAPERS


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
    confs = [conf("some-new-conf", {2025: (1000, 1000)}), conf("icra", {2025: (2800, 2800)}),
             conf("icml", {2025: (3300, 3300)})]
    assert newest_conference_year(confs) == ("icml", 2025)  # July after "June"
    assert newest_conference_year(confs[:2]) == ("some-new-conf", 2025)  # "June" after ICRA's May


def test_a_partial_newest_edition_is_a_preview_and_never_leads():
    neurips = conf("neurips", {2026: (20, 20), 2025: (5823, 5823), 2024: (4553, 4398)})
    assert neurips.is_preview(2026) and not neurips.is_preview(2025) and not neurips.is_preview(2024)
    icml = conf("icml", {2026: (6628, 5863), 2025: (3340, 3271)})
    assert not icml.is_preview(2026)
    assert newest_conference_year([neurips, icml]) == ("icml", 2026)
    # The share is of the previous edition: just below it a preview, at it an edition.
    half = COMPLETE_SHARE * 5823
    assert conf("neurips", {2026: (int(half) - 1,) * 2, 2025: (5823, 5823)}).is_preview(2026)
    assert not conf("neurips", {2026: (int(half) + 1,) * 2, 2025: (5823, 5823)}).is_preview(2026)
    # An older small year is the whole list of its year, never a preview (nothing more is coming).
    assert not conf("log", {2024: (47, 47), 2023: (20, 20), 2022: (56, 56)}).is_preview(2023)
    # A first edition is a preview only below the least a list has.
    assert conf("new", {2026: (NEWEST_MIN_PAPERS - 1,) * 2}).is_preview(2026)
    assert not conf("new", {2026: (NEWEST_MIN_PAPERS,) * 2}).is_preview(2026)


def test_previews_held_after_the_lead_are_named_newest_first():
    confs = [conf("neurips", {2026: (20, 20), 2025: (5823, 5823)}),
             conf("icml", {2026: (6628, 5863), 2025: (3340, 3271)}),
             conf("iclr", {2027: (12, 12), 2026: (5351, 4296)}),  # a later year's first records
             conf("wacv", {2026: (10, 10), 2025: (929, 929)}),    # a preview held before the lead: old news
             conf("tmlr", {2026: (254, 254), 2025: (1432, 1432)}, kind="journal")]  # a volume under way
    lead = newest_conference_year(confs)
    assert lead == ("icml", 2026)
    assert previews_after(confs, lead) == [("iclr", 2027, 12), ("neurips", 2026, 20)]
    assert previews_after(confs, None) == [("iclr", 2027, 12), ("neurips", 2026, 20), ("wacv", 2026, 10)]


def test_a_small_edition_held_later_does_not_lead_over_a_major_one():
    # The full corpus' 2026: IJCAI (August) is held after ICML (July) but is a seventh of its size.
    confs = [conf("ijcai", {2026: (953, 953), 2024: (1048, 1044)}), conf("icml", {2026: (6628, 5863)}),
             conf("iclr", {2026: (5351, 4296)}), conf("colt", {2026: (191, 143)}),
             conf("neurips", {2026: (20, 20), 2025: (5823, 5823)})]
    assert newest_conference_year(confs) == ("icml", 2026)
    # At the share it is in the running again, and its month decides.
    enough = int(LEAD_MIN_SHARE * 6628) + 1
    assert newest_conference_year([conf("ijcai", {2026: (enough, enough)}), *confs[1:]]) == ("ijcai", 2026)
    # Editions of one size (the sample: about 60 papers each): the most recently held leads.
    sample = [conf("ijcai", {2026: (62, 62)}), conf("icml", {2026: (63, 52), 2025: (64, 62)}),
              conf("neurips", {2026: (20, 20), 2025: (60, 60)})]
    assert newest_conference_year(sample) == ("ijcai", 2026)
