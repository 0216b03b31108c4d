"""Raw paperlists records -> Paper: identity, file-name origin, cleaning, authors, links, status.

Pure: no Elasticsearch, no Redis. The last tests run the normaliser over every record of
the bundled sample corpus (data/sample).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from services.indexer.paper.normalise import (
    MAX_TITLE,
    Origin,
    Rejected,
    identity,
    map_status,
    normalise,
    origin_from_path,
)
from services.search.catalogue import STATUSES
from services.search.catalogue.taxonomy import TOPICS

SAMPLE = Path(__file__).resolve().parents[4] / "data" / "sample"
TOPIC_SLUGS = {t.slug for t in TOPICS}

ORIGIN = Origin("data/sample/iclr/iclr2024.json.gz", 7, "iclr", 2024, format="paperlists")


def paper(**fields):
    """Normalise one record made of ``fields`` (a title is supplied unless given)."""
    record = {"title": "Learning Sparse Representations", **fields}
    return normalise(record, ORIGIN)


def pid(record: dict, origin: Origin = ORIGIN) -> str:
    return identity(record, origin)[0]


# --- identity / paper_id --------------------------------------------------------------------

class TestIdentity:
    def test_same_input_gives_same_id(self):
        record = {"id": "B12QlQWRW", "title": "Think Visually"}
        assert pid(record) == pid(dict(record))
        assert pid(record) == normalise(record, ORIGIN).paper_id

    def test_id_format_names_conference_and_year(self):
        paper_id, conference, year = identity({"id": "abc", "title": "T"}, ORIGIN)
        assert (conference, year) == ("iclr", 2024)
        assert paper_id.startswith("iclr-2024-")
        assert len(paper_id.rsplit("-", 1)[1]) == 12

    def test_id_depends_on_source_id_not_title(self):
        a = pid({"id": "abc", "title": "First title"})
        b = pid({"id": "abc", "title": "A completely different title"})
        c = pid({"id": "abd", "title": "First title"})
        assert a == b
        assert a != c

    def test_id_depends_on_conference(self):
        other = Origin("icml/icml2024.json", 7, "icml", 2024, format="paperlists")
        assert pid({"id": "abc", "title": "T"}) != pid({"id": "abc", "title": "T"}, other)

    def test_id_depends_on_year(self):
        other = Origin("iclr/iclr2023.json", 7, "iclr", 2023, format="paperlists")
        assert pid({"id": "abc", "title": "T"}) != pid({"id": "abc", "title": "T"}, other)

    def test_id_does_not_depend_on_position_or_source_path(self):
        moved = Origin("/elsewhere/copy/iclr2024.json", 999, "iclr", 2024, format="paperlists")
        assert pid({"id": "abc", "title": "T"}) == pid({"id": "abc", "title": "T"}, moved)

    def test_numeric_id_equals_its_text(self):
        assert pid({"id": 10160529, "title": "T"}) == pid({"id": "10160529", "title": "T"})

    def test_id_whitespace_is_ignored(self):
        assert pid({"id": " abc ", "title": "T"}) == pid({"id": "abc", "title": "T"})

    @pytest.mark.parametrize("missing", [{}, {"id": ""}, {"id": "   "}, {"id": None}])
    def test_without_id_the_normalised_title_is_the_key(self, missing):
        a = pid({**missing, "title": "Deep  Learning: A Survey!"})
        b = pid({"title": "deep learning a survey"})
        c = pid({"title": "Deep Learning: Another Survey"})
        assert a == b
        assert a != c

    def test_without_id_accents_and_entities_fold(self):
        assert pid({"title": "Caf&eacute; Networks"}) == pid({"title": "cafe networks"})

    def test_nips_and_neurips_map_to_the_same_slug_and_id(self):
        nips = origin_from_path("paperlists/nips/nips2018.json.gz", 0)
        neurips = origin_from_path("paperlists/neurips/neurips2018.json.gz", 0)
        assert nips.conference == neurips.conference == "neurips"
        record = {"id": "7253", "title": "Some NeurIPS paper"}
        assert pid(record, nips) == pid(record, neurips)
        assert pid({**record, "conference": "NIPS", "year": 2018}, ORIGIN) == pid(record, nips)

    @pytest.mark.parametrize("record, reason", [
        ({"id": "x"}, "title is missing"),
        ({"id": "x", "title": 42}, "title is a int"),
        ({"id": "x", "title": ["a"]}, "title is a list"),
        ({"title": "  "}, "title is empty"),
        ({"title": "!!!"}, "title is empty"),
    ])
    def test_bad_titles_are_rejected_with_a_reason(self, record, reason):
        with pytest.raises(Rejected, match=reason):
            identity(record, ORIGIN)

    @pytest.mark.parametrize("record", [["a", "list"], "a string", 42, None])
    def test_non_object_record_is_rejected(self, record):
        with pytest.raises(Rejected, match="not an object"):
            identity(record, ORIGIN)


# --- origin_from_path -----------------------------------------------------------------------

@pytest.mark.parametrize("source, conference, year", [
    ("/data/paperlists/nips/nips2018.json.gz", "neurips", 2018),
    ("paperlists/neurips/neurips2023.json", "neurips", 2023),
    ("deep/nested/folders/iclr/iclr2013.json.gz", "iclr", 2013),
    ("siggraphasia2023.json.gz", "siggraphasia", 2023),
    ("3dv2025.json", "3dv", 2025),
    ("ai4x2025.json", "ai4x", 2025),
    ("aistats1995.json.gz", "aistats", 1995),
    ("NIPS2018.JSON.GZ", "neurips", 2018),
    ("cvpr-2019.json", "cvpr", 2019),
    ("iclr_2020.json.gz", "iclr", 2020),
    ("iclr.json", "iclr", None),
    ("paperlists/colt/colt.json.gz", "colt", None),
    ("paperlists/icml/2019.json", "icml", 2019),
    ("https://example.org/lists/icml/icml2019.json.gz", "icml", 2019),
])
def test_origin_from_path(source, conference, year):
    origin = origin_from_path(source, 5)
    assert (origin.conference, origin.year) == (conference, year)
    assert (origin.source, origin.position) == (source, 5)


def test_origin_without_conference_or_year_in_the_name():
    origin = origin_from_path("2020.json", 0)
    assert origin.conference == ""
    assert origin.year == 2020
    with pytest.raises(Rejected, match="conference unknown"):
        identity({"title": "T"}, origin)


def test_missing_year_everywhere_is_rejected():
    with pytest.raises(Rejected, match="year unknown"):
        identity({"title": "T"}, origin_from_path("iclr/iclr.json", 0))


# --- conference and year from the record -----------------------------------------------------

class TestConferenceYearFromRecord:
    def test_record_year_overrides_file_name(self):
        assert identity({"title": "T", "year": 2019}, ORIGIN)[2] == 2019
        assert normalise({"title": "T", "year": "2019"}, ORIGIN).year == 2019

    @pytest.mark.parametrize("key", ["conference", "conf", "venue"])
    def test_record_conference_overrides_file_name(self, key):
        p = normalise({"title": "T", key: "ICML"}, ORIGIN)
        assert p.conference == "icml"
        assert p.conference_name == "ICML"

    def test_conference_with_year_suffix(self):
        assert normalise({"title": "T", "conference": "NeurIPS 2021"}, ORIGIN).conference == "neurips"

    def test_empty_or_non_text_conference_falls_back_to_file(self):
        assert normalise({"title": "T", "conference": ""}, ORIGIN).conference == "iclr"
        assert normalise({"title": "T", "conference": 5}, ORIGIN).conference == "iclr"

    @pytest.mark.parametrize("value", [None, ""])
    def test_blank_year_falls_back_to_file(self, value):
        assert normalise({"title": "T", "year": value}, ORIGIN).year == 2024

    @pytest.mark.parametrize("value", [2020, "2020", " 2020 ", 1950, 2100])
    def test_valid_years(self, value):
        assert identity({"title": "T", "year": value}, ORIGIN)[2] == int(str(value))

    @pytest.mark.parametrize("value, reason", [
        (2020.0, "year is a float"),
        (True, "year is a bool"),
        ([2020], "year is a list"),
        ({"y": 2020}, "year is a dict"),
        ("1949", "is not a year"),
        (2101, "is not a year"),
        ("twenty", "is not a year"),
        ("2020-2021", "is not a year"),
        (-2020, "is not a year"),
    ])
    def test_bad_years_are_rejected_with_a_readable_reason(self, value, reason):
        with pytest.raises(Rejected, match=reason) as info:
            normalise({"title": "T", "year": value}, ORIGIN)
        assert "year" in str(info.value)

    def test_long_garbage_year_is_cut_in_the_reason(self):
        with pytest.raises(Rejected) as info:
            identity({"title": "T", "year": "x" * 5000}, ORIGIN)
        assert len(str(info.value)) < 100

    @pytest.mark.parametrize("value", ["²⁰²⁰", "2⁰²⁰"])
    def test_unicode_digit_year_is_rejected_not_crashing(self, value):
        with pytest.raises(Rejected):
            identity({"title": "T", "year": value}, ORIGIN)


# --- titles and text --------------------------------------------------------------------------

class TestTitles:
    @pytest.mark.parametrize("raw, expected", [
        ("Attention &amp; Memory", "Attention & Memory"),
        ("Caf&eacute; Networks", "Café Networks"),
        ("  Deep   Nets \r\n for\tVision  ", "Deep Nets for Vision"),
        ("<i>Deep</i> <b>Nets</b>", "Deep Nets"),
        ("<span class=\"x\">Sparse</span> Coding", "Sparse Coding"),
        ("$\\ell_1$-regression with $O(n^{1/2})$ samples", "$\\ell_1$-regression with $O(n^{1/2})$ samples"),
        ("When a < b and c > d", "When a < b and c > d"),
        ("Parsing <Subject, Verb, Object> Triples", "Parsing <Subject, Verb, Object> Triples"),
        ("Line one\r\nline two", "Line one line two"),
        ("Zero\u200bwidth", "Zerowidth"),
        ("<script>alert(1)</script>Real Title", "Real Title"),
        ("&lt;script&gt; is text", "<script> is text"),
    ])
    def test_title_cleaning(self, raw, expected):
        assert paper(title=raw).title == expected

    @pytest.mark.parametrize("raw", ["<b></b>", "<i> </i>", "   ", "\r\n"])
    def test_title_empty_after_cleaning_is_rejected(self, raw):
        with pytest.raises(Rejected, match="title is empty"):
            normalise({"id": "x", "title": raw}, ORIGIN)

    def test_title_is_capped(self):
        assert len(paper(title="word " * 1000).title) == MAX_TITLE

    def test_abstract_keeps_non_html_angle_brackets(self):
        abstract = "We predict <Subject, Verb, Object> triples and the </s> token; a < b."
        assert paper(abstract=abstract).abstract == abstract

    def test_abstract_loses_real_html(self):
        assert paper(abstract="<p>First.</p><p>Second &amp; third.</p>").abstract == "First. Second & third."

    @pytest.mark.parametrize("field", ["abstract", "tldr", "primary_area", "bibtex", "status", "track"])
    def test_non_text_optional_fields_are_ignored(self, field):
        p = paper(**{field: {"not": "text"}})
        assert p.title == "Learning Sparse Representations"

    def test_primary_area_underscores_become_spaces(self):
        assert paper(primary_area="reinforcement_learning").primary_area == "reinforcement learning"


# --- authors ----------------------------------------------------------------------------------

def authors(**fields):
    return [(a.name, a.affiliation) for a in paper(**fields).authors]


class TestAuthors:
    def test_semicolon_split_and_trim(self):
        assert [a.name for a in paper(author=" Ada Lovelace ;Alan Turing; ").authors] == \
            ["Ada Lovelace", "Alan Turing"]

    def test_json_list_of_names(self):
        assert [a.name for a in paper(author=["Ada Lovelace", 3, "Alan Turing"]).authors] == \
            ["Ada Lovelace", "Alan Turing"]

    def test_control_characters_leave_names_written_either_way(self):
        # Three papers of the full corpus wrote one ("\x06 Daniel Crawford", "\bCHENG-YING LI"): names written as one
        # string are cleaned as those of a JSON list are.
        for written in ("\x06 Daniel Crawford;Y\x7fang Liu", ["\x06 Daniel Crawford", "Y\x7fang Liu"]):
            assert [a.name for a in paper(author=written).authors] == ["Daniel Crawford", "Yang Liu"]

    def test_aligned_affiliations(self):
        assert authors(author="A One;B Two;C Three", aff="MIT; CMU; ETH") == [
            ("A One", "Massachusetts Institute of Technology"), ("B Two", "Carnegie Mellon University"),
            ("C Three", "ETH Zurich")]

    def test_icra_doubled_authors_are_undoubled_and_aligned(self):
        p = paper(author="Jun Yang;Wenjie Xue;Sahar Ghavidel;Jun Yang;Wenjie Xue;Sahar Ghavidel",
                  authorids="/37088838125;/37089337132;/37089893141;/37088838125;/37089337132;/37089893141",
                  aff="University of Toronto; Epson Canada; Epson Canada")
        assert [(a.name, a.affiliation, a.author_id) for a in p.authors] == [
            ("Jun Yang", "University of Toronto", "/37088838125"),
            ("Wenjie Xue", "Epson Canada", "/37089337132"),
            ("Sahar Ghavidel", "Epson Canada", "/37089893141"),
        ]

    def test_doubled_with_one_affiliation_for_all(self):
        assert authors(author="A;B;A;B", aff="Zhejiang University") == \
            [("A", "Zhejiang University"), ("B", "Zhejiang University")]

    def test_siggraph_comma_separated_authors(self):
        assert authors(author="Keyang Ye, Qiming Hou, Kun Zhou", aff="Zhejiang University") == [
            ("Keyang Ye", "Zhejiang University"),
            ("Qiming Hou", "Zhejiang University"),
            ("Kun Zhou", "Zhejiang University"),
        ]

    def test_commas_are_kept_when_semicolons_split(self):
        assert [a.name for a in paper(author="Smith, J.; Doe, J.").authors] == ["Smith, J.", "Doe, J."]

    def test_duplicate_names_are_dropped_case_insensitively_keeping_alignment(self):
        assert authors(author="Ada Lovelace;ada lovelace;Alan Turing", aff="X;Y;Z") == \
            [("Ada Lovelace", "X"), ("Alan Turing", "Z")]

    def test_empty_author_slots_are_skipped_keeping_alignment(self):
        assert authors(author="A;;B", aff="X;Y;Z") == [("A", "X"), ("B", "Z")]

    def test_misaligned_affiliations_are_the_papers_not_an_authors(self):
        p = paper(author="A;B;C;D", aff="X + Y;Y; Z")
        assert [(a.name, a.affiliation) for a in p.authors] == [("A", ""), ("B", ""), ("C", ""), ("D", "")]
        assert p.affiliations == ["X", "Y", "Z"] and not p.affiliations_aligned

    def test_unaligned_unique_affiliations_are_the_papers(self):
        p = paper(author="A;B;C", aff_unique_norm="EPFL;Tsinghua University;;EPFL")
        assert [a.affiliation for a in p.authors] == ["", "", ""]
        assert p.affiliations == ["EPFL", "Tsinghua University"]

    def test_unique_affiliations_aligned_by_their_index(self):
        p = paper(author="A;B;C", aff="Oxford + Google;Oxford", aff_unique_norm="University of Oxford;Google",
                  aff_unique_index="0+1;0;1")
        assert authors(author="A;B;C", aff_unique_norm="U Oxford;Google", aff_unique_index="0+1;0;1") == [
            ("A", "U Oxford; Google"), ("B", "U Oxford"), ("C", "Google")]
        assert p.affiliations_aligned and p.affiliations == ["University of Oxford", "Google"]

    @pytest.mark.parametrize("index", ["0;1", "0;1;2;0", "0;5;1", "0;x;1"])
    def test_an_index_that_does_not_align_gives_the_papers_list(self, index):
        p = paper(author="A;B;C", aff_unique_norm="U Oxford;Google", aff_unique_index=index)
        assert [a.affiliation for a in p.authors] == ["", "", ""] and p.affiliations == ["U Oxford", "Google"]

    def test_aligned_aff_wins_over_the_unique_list(self):
        assert authors(author="A;B", aff="Lab X;Lab Y", aff_unique_norm="Lab Z", aff_unique_index="0;0") == [
            ("A", "Lab X"), ("B", "Lab Y")]

    @pytest.mark.parametrize("placeholder", ["Under double-blind review", "Paper under double-blind review", "N/A",
                                             "NA", "none", "Not provided in the text", "-"])
    def test_placeholder_affiliations_are_dropped(self, placeholder):
        assert authors(author="A;B", aff=f"{placeholder};Lab Y") == [("A", ""), ("B", "Lab Y")]
        assert paper(aff=placeholder).affiliations == [] and paper(aff_unique_norm=placeholder).affiliations == []

    def test_independent_researchers_keep_their_affiliation(self):
        assert authors(author="A", aff="Independent Researcher") == [("A", "Independent Researcher")]

    def test_affiliations_without_author_names_are_the_papers(self):
        p = paper(author="", aff="Lab X;Lab Y")
        assert p.authors == [] and p.affiliations == ["Lab X", "Lab Y"]

    def test_affiliations_without_authors_are_the_papers(self):
        p = paper(aff_unique_norm="Lab X;Lab Y")
        assert p.authors == [] and p.affiliations == ["Lab X", "Lab Y"]

    def test_plus_separates_affiliations_of_one_author(self):
        p = paper(author="Rajeev Yasarla;Renliang Weng", aff="Johns Hopkins University + AIBEE; AIBEE")
        assert [a.affiliation for a in p.authors] == ["Johns Hopkins University; AIBEE", "AIBEE"]
        assert p.affiliations == ["Johns Hopkins University", "AIBEE"]

    def test_plus_in_the_single_paper_wide_affiliation(self):
        assert authors(author="A;B", aff="X + Y") == [("A", "X; Y"), ("B", "X; Y")]

    def test_single_author_single_affiliation(self):
        assert authors(author="A", aff="X") == [("A", "X")]

    def test_orcid_aligned(self):
        p = paper(author="A;B", orcid="0000-0001-2345-6789;")
        assert [a.orcid for a in p.authors] == ["0000-0001-2345-6789", ""]

    @pytest.mark.parametrize("ids, expected", [
        ("jane@mit.edu;~John_Doe1;/37274017700", ["", "~John_Doe1", "/37274017700"]),
        ("~Jane_Roe1;john@example.org", ["~Jane_Roe1", ""]),
        ("mailto:jane@mit.edu", [""]),
    ])
    def test_email_author_ids_are_never_kept(self, ids, expected):
        p = paper(author="Jane Roe;John Doe;Max Mustermann", authorids=ids)
        assert [a.author_id for a in p.authors] == expected + [""] * (3 - len(expected))
        assert all("@" not in a.author_id for a in p.authors)
        assert "@" not in json.dumps(p.model_dump())

    def test_missing_author_gives_no_authors(self):
        assert paper().authors == []
        assert paper(author="").authors == []

    @pytest.mark.parametrize("value", [42, {"name": "A"}, 1.5])
    def test_author_of_wrong_type_is_rejected(self, value):
        with pytest.raises(Rejected, match="author is a"):
            paper(author=value)

    def test_author_count_is_capped(self):
        letters = "ABCDEFGHIJ"  # not "Author 12": a trailing number is a footnote mark and goes
        names = ";".join(f"Author {letters[i // 100]}{letters[i // 10 % 10]}{letters[i % 10]}" for i in range(600))
        assert len(paper(author=names).authors) == 500


# --- name and vocabulary cleaning (issue 11) ---------------------------------------------------

class TestNameCleaning:
    """The normaliser applies services/indexer/cleaning/authors.py and keywords.py: what the index stores is already clean."""

    def test_footnote_marks_leave_author_names(self):
        p = paper(author="Keyulu Xu*;Weihua Hu†;Jure Leskovec‡;Stefanie Jegelka1", aff="MIT")
        assert p.author_names == ["Keyulu Xu", "Weihua Hu", "Jure Leskovec", "Stefanie Jegelka"]

    def test_split_diacritics_are_repaired_in_names_and_affiliations(self):
        p = paper(author="Rainer Ku¨mmerle;Franc¸ois Pomerleau;Narc´is Palomeras",
                  aff="Universit ´e de Montr ´eal; ETH Z ¨urich; Laboratoire Fictif, Universit ´e de Nulle-Part")
        assert p.author_names == ["Rainer Kümmerle", "François Pomerleau", "Narcís Palomeras"]
        assert p.affiliations == [paper(author="A", aff="Université de Montréal").affiliations[0],
                                  "ETH Zurich", "Laboratoire Fictif, Université de Nulle-Part"]

    def test_one_display_form_per_institution(self):
        p = paper(author="A One;B Two;C Three", aff="MIT; Massachusetts Institute of Technology, Cambridge, MA, USA; "
                                                   "massachusetts institute of technology")
        assert {a.affiliation for a in p.authors} == {"Massachusetts Institute of Technology"}
        assert p.affiliations == ["Massachusetts Institute of Technology"]

    def test_several_affiliations_of_one_author_each_get_their_display_form(self):
        p = paper(author="A One", aff="CMU + UC Berkeley + Carnegie Mellon University")
        assert p.authors[0].affiliation == "Carnegie Mellon University; University of California, Berkeley"

    def test_entity_in_an_author_list_neither_splits_nor_shifts_alignment(self):
        p = paper(author="Dorian Chan;Matthew O&#x27;Toole;Keyulu Xu*", aff="X; Y; Z")
        assert [(a.name, a.affiliation) for a in p.authors] == [
            ("Dorian Chan", "X"), ("Matthew O'Toole", "Y"), ("Keyulu Xu", "Z")]

    def test_a_marks_only_slot_is_dropped_keeping_alignment(self):
        assert authors(author="A One;*;B Two", aff="X;Y;Z") == [("A One", "X"), ("B Two", "Z")]

    def test_plural_and_singular_keywords_merge(self):
        p = paper(keywords="diffusion models; Diffusion Model; graph neural networks; analysis")
        assert p.keywords == ["diffusion model", "graph neural network", "analysis"]

    def test_spellings_of_one_name_count_once_per_paper(self):
        assert paper(author="Yoshua Bengio;YOSHUA BENGIO;Yoshua Bengió").author_names == ["Yoshua Bengio"]


# --- keywords, status, track, award, citations -------------------------------------------------

def test_keywords_split_and_deduped_case_insensitively():
    assert paper(keywords="Deep Learning; deep learning;GANs; ;gans;  Vision ").keywords == \
        ["Deep Learning", "GAN", "Vision"]


def test_keywords_capped_at_fifty():
    assert len(paper(keywords=";".join(f"k{i}" for i in range(80))).keywords) == 50


@pytest.mark.parametrize("raw, status", [
    ("Poster", "poster"),
    ("Oral", "oral"),
    ("Spotlight", "spotlight"),
    ("Highlight", "spotlight"),
    ("Long", "accept"),
    ("Short", "short"),
    ("Findings", "findings"),
    ("Technical", "accept"),
    ("Technical Paper", "accept"),
    ("TOG Paper", "accept"),
    ("Main", "accept"),
    ("Industry", "accept"),
    ("Reject", "reject"),
    ("Desk Reject", "reject"),
    ("Withdraw", "withdrawn"),
    ("Withdrawn Submission", "withdrawn"),
    ("Active", "unknown"),
    ("Poster Workshop", "workshop"),
    ("Oral Workshop", "workshop"),
    ("Workshop", "workshop"),
    ("System Demonstrations", "demo"),
    ("Accept (Oral)", "oral"),
    ("POSTER", "poster"),
    ("", "unknown"),
])
def test_status_mapping(raw, status):
    assert map_status(raw) == status
    p = paper(status=raw)
    assert p.status == status
    assert p.status_raw == raw
    assert p.status in STATUSES


@pytest.mark.parametrize("conference, raw, status", [
    ("iclr", "Top-5%", "oral"), ("iclr", "Top-25%", "spotlight"), ("iclr", "Talk", "oral"),
    ("neurips", "Highlighted", "spotlight"), ("iclr", "Desk Reject", "reject"), ("acl", "Industry", "accept"),
    ("no-such-venue", "Top-5%", "accept"),
])
def test_a_venues_own_status_words_give_the_facet_status(conference, raw, status):
    assert map_status(raw, conference) == status
    assert normalise({"title": "T", "status": raw}, Origin(f"x/{conference}2023.json", 0, conference, 2023, format="paperlists")).status == status


def test_missing_status_key_is_unknown():
    p = paper()
    assert (p.status, p.status_raw) == ("unknown", "")


def test_status_raw_is_cleaned():
    assert paper(status="  Poster \n").status_raw == "Poster"


@pytest.mark.parametrize("raw, track", [
    ("Journal track", "Journal Track"),
    ("Journal Track", "Journal Track"),
    ("Survey track", "Survey Track"),
    ("Special track on AI for good", "Special Track on AI for Good"),
    ("AI for Good - Projects", "AI for Good - Projects"),
    ("  Demo   Track ", "Demo Track"),
    ("main", "main"),
    ("Main", "main"),
    ("MAIN", "main"),
    ("", "main"),
])
def test_track_label_casing(raw, track):
    assert paper(track=raw).track == track


def test_missing_track_key_is_main():
    assert paper().track == "main"


def test_inconsistent_track_casing_gives_one_value():
    assert paper(track="Journal track").track == paper(track="Journal Track").track


@pytest.mark.parametrize("value, award", [
    (True, True), (False, False), ("Best Paper", True), ("Outstanding Paper Award", True),
    ("", False), ("false", False), ("No", False), ("0", False), ("none", False), (None, False), (1, False),
])
def test_award(value, award):
    assert paper(award=value).award is award


@pytest.mark.parametrize("value, citations", [
    (-1, None), ("-1", None), (0, 0), (12, 12), ("12", 12), (" 7 ", 7), (12.9, 12),
    (True, None), ("many", None), ("", None), (None, None), (float("nan"), None),
])
def test_citations(value, citations):
    assert paper(gs_citation=value).citations == citations


@pytest.mark.parametrize("value", ["²", float("inf")])
def test_odd_citations_are_dropped_not_fatal(value):
    assert paper(gs_citation=value).citations is None


# --- links ------------------------------------------------------------------------------------

class TestLinks:
    def test_all_link_kinds(self):
        links = paper(
            pdf="/pdf?id=B12QlQWRW",
            site="https://openreview.net/forum?id=B12QlQWRW",
            github="[![github](/images/github_icon.svg) rajeevyasarla/3SD](https://github.com/rajeevyasarla/3SD)",
            project="sites.google.com/view/proj",
            arxiv="1712.06087v1",
            doi="10.1609/aaai.v36i5.20463",
            supplementary_material="/attachment/abc123.zip",
        ).links
        assert links.pdf == "https://openreview.net/pdf?id=B12QlQWRW"
        assert links.site == "https://openreview.net/forum?id=B12QlQWRW"
        assert links.openreview == "https://openreview.net/forum?id=B12QlQWRW"
        assert links.code == "https://github.com/rajeevyasarla/3SD"
        assert links.project == "https://sites.google.com/view/proj"
        assert links.arxiv == "https://arxiv.org/abs/1712.06087v1"
        assert links.doi == "https://doi.org/10.1609/aaai.v36i5.20463"
        assert links.supplementary == "https://openreview.net/attachment/abc123.zip"

    @pytest.mark.parametrize("github, code", [
        ("github.com/a/b", "https://github.com/a/b"),
        ("https://github.com/a/b", "https://github.com/a/b"),
        ("[![github](/images/x.svg) a/b](https://github.com/a/b)", "https://github.com/a/b"),
        ("", ""),
        ("SEEME", ""),
    ])
    def test_code_link(self, github, code):
        assert paper(github=github).links.code == code

    def test_code_falls_back_to_code_field(self):
        assert paper(github="", code="https://gitlab.com/x/y").links.code == "https://gitlab.com/x/y"

    @pytest.mark.parametrize("arxiv, url", [
        ("1712.06087v1", "https://arxiv.org/abs/1712.06087v1"),
        ("arXiv:2402.17720", "https://arxiv.org/abs/2402.17720"),
        ("https://arxiv.org/abs/2402.17720", "https://arxiv.org/abs/2402.17720"),
        ("hep-th/9901001", "https://arxiv.org/abs/hep-th/9901001"),
        ("not an id", ""),
    ])
    def test_arxiv(self, arxiv, url):
        assert paper(arxiv=arxiv).links.arxiv == url

    @pytest.mark.parametrize("doi, url", [
        ("10.1609/aaai.v36i5.20463", "https://doi.org/10.1609/aaai.v36i5.20463"),
        ("https://doi.org/10.1145/3641519.3657456", "https://doi.org/10.1145/3641519.3657456"),
        ("doi:10.1000/xyz.", "https://doi.org/10.1000/xyz"),
        ("nothing", ""),
    ])
    def test_doi(self, doi, url):
        assert paper(doi=doi).links.doi == url

    def test_site_falls_back_to_url_paper_then_oa(self):
        assert paper(url_paper="https://s2024.conference-program.org/p?id=1").links.site == \
            "https://s2024.conference-program.org/p?id=1"
        assert paper(oa="https://oa.example.org/x").links.site == "https://oa.example.org/x"

    def test_supp_field_and_relative_attachment(self):
        assert paper(supp="/attachment/x.pdf").links.supplementary == "https://openreview.net/attachment/x.pdf"
        assert paper(supp="https://cvf.org/s.pdf").links.supplementary == "https://cvf.org/s.pdf"

    def test_relative_path_with_space_is_dropped(self):
        assert paper(supplementary_material="/attachment/a b.zip").links.supplementary == ""

    @pytest.mark.parametrize("field", ["pdf", "site", "github", "project", "supp", "arxiv", "doi"])
    @pytest.mark.parametrize("value", [
        "javascript:alert(1)", "JavaScript:alert(document.cookie)", "data:text/html,<b>x</b>",
        "vbscript:msgbox", "file:///etc/passwd", "ftp://example.org/x", "mailto:a@b.org",
    ])
    def test_unsafe_schemes_are_dropped(self, field, value):
        assert paper(**{field: value}).links.present() == {}

    @pytest.mark.parametrize("value", [None, 5, ["https://x.org"], {"url": "https://x.org"}])
    def test_non_text_link_fields_are_ignored(self, value):
        assert paper(pdf=value, site=value, github=value).links.present() == {}


# --- content hash and topics -------------------------------------------------------------------

RICH = {
    "id": "abc", "title": "Graph Neural Networks for Molecules", "author": "A B;C D", "aff": "X;Y",
    "abstract": "We study graph neural networks.", "keywords": "GNN;chemistry", "status": "Poster",
    "track": "main", "github": "github.com/a/b", "gs_citation": 3,
}


class TestContentHash:
    def test_stable(self):
        assert normalise(dict(RICH), ORIGIN).content_hash == normalise(dict(RICH), ORIGIN).content_hash
        assert len(normalise(RICH, ORIGIN).content_hash) == 32

    @pytest.mark.parametrize("change", [
        {"abstract": "Another abstract."}, {"author": "A B"}, {"status": "Oral"},
        {"gs_citation": 4}, {"github": ""}, {"keywords": "GNN"}, {"title": "Graph Networks"},
        {"track": "Journal Track"}, {"aff": "X;Z"},
    ])
    def test_changes_with_content(self, change):
        assert normalise({**RICH, **change}, ORIGIN).content_hash != normalise(RICH, ORIGIN).content_hash

    def test_does_not_change_with_source_or_position(self):
        moved = Origin("/somewhere/else/iclr2024.json", 12345, "iclr", 2024, format="paperlists")
        a, b = normalise(RICH, ORIGIN), normalise(RICH, moved)
        assert (b.source, b.position) == ("/somewhere/else/iclr2024.json", 12345)
        assert a.content_hash == b.content_hash

    def test_does_not_change_with_ignored_fields(self):
        assert normalise({**RICH, "gs_cited_by_link": "https://scholar/x"}, ORIGIN).content_hash == \
            normalise(RICH, ORIGIN).content_hash


@pytest.mark.parametrize("record", [
    {"title": "Towards a Better Approach"},
    {"title": "Zzz", "abstract": ""},
    RICH,
])
@pytest.mark.parametrize("origin", [ORIGIN, Origin("x/unknownconf2020.json", 0, "unknownconf", 2020, format="paperlists")])
def test_topics_never_empty_and_known(record, origin):
    topics = normalise(record, origin).topics
    assert topics
    assert set(topics) <= TOPIC_SLUGS


# --- every record of the sample corpus --------------------------------------------------------

def _sample_files() -> list[Path]:
    return sorted(p for p in SAMPLE.rglob("*") if p.name.endswith((".json", ".json.gz")))


def _records(path: Path) -> list:
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw)


def test_sample_corpus_is_present():
    assert len(_sample_files()) >= 80


@pytest.mark.parametrize("path", _sample_files(), ids=lambda p: p.name)
def test_every_sample_record_normalises_or_is_rejected(path):
    records = _records(path)
    assert isinstance(records, list) and records
    papers = []
    for position, record in enumerate(records):
        origin = origin_from_path(str(path), position)
        try:
            p = normalise(record, origin)  # anything but Rejected fails the test
        except Rejected as exc:
            assert str(exc)
            continue
        papers.append(p)
        assert p.title.strip() == p.title and p.title
        assert p.conference and p.conference == p.conference.lower()
        assert 1950 <= p.year <= 2100
        assert p.topics and set(p.topics) <= TOPIC_SLUGS
        assert p.status in STATUSES
        assert p.track
        for name, url in p.links.present().items():
            parts = urlsplit(url)
            assert parts.scheme in ("http", "https") and parts.netloc, (name, url)
        assert all(a.name for a in p.authors)
        assert all("@" not in a.author_id for a in p.authors)
        assert p.paper_id.startswith(f"{p.conference}-{p.year}-")
        assert (p.source, p.position) == (str(path), position)
    # most records of every file are usable
    assert len(papers) >= len(records) * 0.9


@pytest.mark.parametrize("raw, title", [
    ("Precise Cropping:A Reinforcement Learning Framework", "Precise Cropping: A Reinforcement Learning Framework"),
    ("BERT: Pre-training of Deep Bidirectional Transformers", "BERT: Pre-training of Deep Bidirectional Transformers"),
    ("Ratios 1:2 at 10:30", "Ratios 1:2 at 10:30"),
])
def test_a_colon_without_its_space_gets_one_so_the_words_around_it_can_be_found(raw, title):
    # The standard tokenizer keeps "cropping:a" as one token: no query word matched that title.
    paper = normalise({"title": raw, "id": "x"}, Origin("cvpr2026.json", 0, "cvpr", 2026, format="paperlists"))
    assert paper.title == title
