"""Name and vocabulary cleaning, on spellings taken from the paperlists corpus."""

from __future__ import annotations

import pytest

from services.indexer.cleaning.affiliations import affiliation_key, aliases, canonical_affiliation, canonical_key
from services.indexer.cleaning.authors import clean_author_name
from services.indexer.cleaning.diacritics import repair_diacritics
from services.indexer.cleaning.keywords import canonical_keyword, keyword_key
from services.indexer.sources.paperlists_mapping import author_names
from services.search.records.name_keys import author_key, coauthor_key


def split_names(raw: str) -> list[str]:
    """An author list as the paperlists reader splits it and the builder cleans it."""
    return [name for name in map(clean_author_name, author_names(raw)) if name]


@pytest.mark.parametrize(("raw", "clean"), [
    ("Keyulu Xu*", "Keyulu Xu"),
    ("Wieland Brendel *", "Wieland Brendel"),
    ("*Azalia Mirhoseini", "Azalia Mirhoseini"),
    ("Yi Wu†", "Yi Wu"),
    ("Ze Liu(†)", "Ze Liu"),
    ("Bapu Li(*)", "Bapu Li"),
    ("Yingze Bao (* means equal contribution)", "Yingze Bao"),
    ("Ömer Morgül1", "Ömer Morgül"),
    ("Kha Pham 1", "Kha Pham"),
    ("Lihe Zhang¹", "Lihe Zhang"),
    ("Yutao Hu ¹", "Yutao Hu"),
    ("Sujith Ravi[2]", "Sujith Ravi"),
    ("Mingsheng Long()", "Mingsheng Long"),
    ("Yuan Wang(jingxuan.wy@alibaba-inc.com)", "Yuan Wang"),
    ("Peter J. Liu*", "Peter J. Liu"),
    ("Krishnamurthy (Dj) Dvijotham*", "Krishnamurthy (Dj) Dvijotham"),
    ("Amelia Hardy`", "Amelia Hardy"),
    ("A. B^1,2", "A. B"),
    ("Name ‡", "Name"),
    ("Name§", "Name"),
    ("Grégoire Mialon*,", "Grégoire Mialon"),
    ("\u202aAvishai Zagoury\u202c\u200f", "Avishai Zagoury"),
    ("Hal DaumÃ© III", "Hal Daumé III"),
    ("Rainer Ku¨mmerle", "Rainer Kümmerle"),
    ("Benedikt B\\\"{u}nz", "Benedikt Bünz"),
    ("Franc¸ois Pomerleau", "François Pomerleau"),
])
def test_marks_and_broken_accents_are_removed_from_author_names(raw, clean):
    assert clean_author_name(raw) == clean


@pytest.mark.parametrize("name", [
    "Hal Daumé III", "Martin Luther King Jr.", "J. Zico Kolter", "Po-Sen Huang", "Noel O'Connor",
    "Alex `Sandy' Pentland", "Yubo Chen (陈玉博)", "Jake Zhao (Junbo)", "Megan Flynn (née Renz)",
    "Ş. İlker Birbil", "Steven51516", "김은솔", "Oana-Maria Camburu",
])
def test_real_names_stay_intact(name):
    assert clean_author_name(name) == name


def test_a_name_without_letters_is_dropped():
    assert clean_author_name("11537") == ""
    assert clean_author_name(")*") == ""


def test_split_names_decodes_entities_before_splitting():
    # The corpus has "Matthew O&#x27;Toole": splitting first made "Matthew O&#x27" a name.
    assert split_names("Dorian Chan; Matthew O&#x27;Toole; Keyulu Xu*") == ["Dorian Chan", "Matthew O'Toole", "Keyulu Xu"]
    assert split_names("Dorian Chan, Matthew O&#x27;Toole") == ["Dorian Chan", "Matthew O'Toole"]
    assert split_names("Chi-Wing Fu*, Peng Song*, Niloy J. Mitra") == ["Chi-Wing Fu", "Peng Song", "Niloy J. Mitra"]


@pytest.mark.parametrize(("raw", "fixed"), [
    ("Universit ´e de Montr ´eal", "Université de Montréal"),
    ("Universit´ e Paris-Saclay, T´ el´ ecom ParisTech, LTCI", "Université Paris-Saclay, Télécom ParisTech, LTCI"),
    ("ETH Z ¨urich", "ETH Zürich"),
    ("Ume ˚a University, Sweden", "Umeå University, Sweden"),
    ("´Ecole Polytechnique F´ed´erale de Lausanne", "École Polytechnique Fédérale de Lausanne"),
    ("Laboratoire Hubert Curien, Saint- ´Etienne", "Laboratoire Hubert Curien, Saint-Étienne"),
    ("Mines de Saint- ´Etienne, Inria, ´Ecole", "Mines de Saint-Étienne, Inria, École"),
    ("Pontif ´ıcia Universidade Cat ´olica", "Pontifícia Universidade Católica"),
    ("Narc´is Palomeras", "Narcís Palomeras"),
    ("Alberto Jardo´n Huete", "Alberto Jardón Huete"),
    ("Herve´ Guillou", "Hervé Guillou"),
    ("Jordi Cornell`a", "Jordi Cornellà"),
    ("Martı́n López-Garcı́a", "Martín López-García"),
    ("Stéphane Gaı̈ffas", "Stéphane Gaïffas"),
    ("Universit\u0301e", "Universit\u0301e"),  # a combining mark on its letter is already right (NFC: "Universitée" no)
    ("Jo\\~{a}o P. Costeira", "João P. Costeira"),
    ("Yasin Yaz{\\i}c{\\i}", "Yasin Yazıcı"),
    ("Auvergne-RhÃ´ne-Alpes", "Auvergne-Rhône-Alpes"),
    ("Institute for Artiﬁcial Intelligence", "Institute for Artificial Intelligence"),  # a PDF's ligature
])
def test_split_diacritics_are_repaired(raw, fixed):
    assert repair_diacritics(raw) == fixed


def test_repair_leaves_accents_that_have_no_precomposed_letter():
    assert repair_diacritics("Universit¸e Laval") == "Universit¸e Laval"  # a misread acute, not a cedilla
    assert repair_diacritics("Alex `Sandy' Pentland") == "Alex `Sandy' Pentland"


@pytest.mark.parametrize(("spellings", "display"), [
    (["Université de Montréal", "University of Montreal", "Universit ´e de Montr ´eal", "Universite de Montreal"],
     None),
    (["Massachusetts Institute of Technology", "MIT", "Massachusetts Institute of Technology, Cambridge, MA, USA",
      "massachusetts institute of technology"], "Massachusetts Institute of Technology"),
    (["Carnegie Mellon University", "CMU", "Carnegie Mellon University, Pittsburgh, PA 15213, USA"],
     "Carnegie Mellon University"),
    (["University of California, Berkeley", "UC Berkeley", "University of California Berkeley",
      "University of California, Berkeley, CA, USA"], "University of California, Berkeley"),
    (["ETH Zurich", "ETH Zürich", "ETH Z ¨urich", "ETHZ - ETH Zurich"], "ETH Zurich"),
    (["Shanghai Jiao Tong University", "Shanghai Jiaotong University", "SHANGHAI JIAO TONG UNIVERSITY"],
     "Shanghai Jiao Tong University"),
    (["Korea Advanced Institute of Science and Technology", "Korea Advanced Institute of Science & Technology",
      "Korea Advanced Institute of Science and Technology (KAIST)", "KAIST"], None),
    (["University of Texas at Austin", "The University of Texas at Austin", "University of Texas, Austin"], None),
    (["Tsinghua University", "Tsinghua University, Tsinghua University", "Tsinghua University, Beijing, China"],
     "Tsinghua University"),
])
def test_spellings_of_one_institution_share_one_display_form(spellings, display):
    shown = {canonical_affiliation(s) for s in spellings}
    assert len(shown) == 1, shown
    if display:
        assert shown == {display}


@pytest.mark.parametrize(("a", "b"), [
    ("Google DeepMind", "Google Research"),
    ("DeepMind", "Google Research"),
    ("DeepMind", "Google Brain"),
    ("University of California, Berkeley", "University of California, Los Angeles"),
    ("Washington University in St. Louis", "University of Washington"),
    ("Harbin Institute of Technology, Shenzhen", "Harbin Institute of Technology"),
    ("The Chinese University of Hong Kong, Shenzhen", "The Chinese University of Hong Kong"),
    ("Department of Computer Science, University of Toronto", "University of Toronto"),
    ("HKUST (GZ)", "HKUST"),
])
def test_distinct_institutions_are_not_merged(a, b):
    assert canonical_key(a) != canonical_key(b)


def test_folding_ignores_case_accents_punctuation_and_the():
    assert affiliation_key("The University of Tokyo") == affiliation_key("University of Tokyo")
    assert affiliation_key("Xi'an Jiaotong University") == affiliation_key("Xi’an Jiaotong University")
    assert affiliation_key("Univ. of Toronto") == affiliation_key("University of Toronto")
    assert affiliation_key("Texas A&M University") == affiliation_key("Texas A and M University")
    assert affiliation_key("SUN YAT-SEN UNIVERSITY") == affiliation_key("Sun Yat-sen University")


def test_every_curated_alias_resolves_to_its_group():
    table = aliases()
    assert table[affiliation_key("MIT")] == affiliation_key("Massachusetts Institute of Technology")
    assert len(set(table.values())) > 50


def test_an_unknown_affiliation_is_shown_cleaned():
    assert canonical_affiliation("  Lab of Nowhere ,  Springfield, IL, USA ") == "Lab of Nowhere"
    assert canonical_affiliation("") == ""


def test_author_key_is_case_and_accent_insensitive():
    assert author_key("Yoshua Bengio") == author_key("yoshua bengio") == author_key("YOSHUA  BENGIO")
    assert author_key("Petar Veličković") == author_key("petar velickovic")
    assert author_key("Łukasz Kaiser") == "lukasz kaiser"
    assert author_key("Yoshua Bengio") != author_key("Samy Bengio")


def test_coauthor_key_drops_middle_initials_only():
    assert coauthor_key("Aaron C. Courville") == coauthor_key("Aaron Courville")
    assert coauthor_key("Peter J. Liu") == coauthor_key("Peter Liu")
    assert coauthor_key("J. Zico Kolter") == "j. zico kolter"
    assert coauthor_key("Remi Tachet des Combes") == "remi tachet des combes"
    assert coauthor_key("Aaron Courville") != coauthor_key("Aaron Hertzmann")


@pytest.mark.parametrize(("variants", "key"), [
    (["diffusion models", "diffusion model", "Diffusion Models"], "diffusion model"),
    (["Large Language Models", "large language model", "LLMs"], None),
    (["Graph Neural Networks", "graph neural network"], "graph neural network"),
    (["Gaussian processes", "Gaussian process", "gaussian process"], "gaussian process"),
    (["policies", "policy"], "policy"),
    (["meta-learning", "meta learning"], "meta learning"),
    (["approaches", "approach"], "approach"),
    (["matrices", "matrix"], "matrix"),
])
def test_plural_and_singular_keywords_share_a_key(variants, key):
    keys = {keyword_key(v) for v in variants[:2]}
    assert len(keys) == 1, keys
    if key:
        assert keys == {key}


@pytest.mark.parametrize("keyword", [
    "analysis", "bias", "gaussian process", "dynamics", "physics", "computer graphics", "robotics",
    "mathematics", "statistics", "economics", "time series", "species", "news", "fairness", "robustness",
    "principal component analysis", "causal analysis", "loss", "corpus", "mixture of experts",
])
def test_words_ending_in_s_that_are_not_plurals_stay(keyword):
    assert keyword_key(keyword) == keyword


def test_canonical_keyword_keeps_case_for_display():
    assert canonical_keyword("Diffusion Models") == "Diffusion Model"
    assert canonical_keyword("LLMs") == "LLM"
    assert canonical_keyword("  deep   learning ") == "deep learning"
