"""The paperlists reader maps a record onto the neutral record and cleans nothing: values stay as written."""

from __future__ import annotations

from services.indexer.sources import paperlists_mapping
from services.indexer.sources.base import Alignment, SourceReview

RECORD = {
    "id": "x1", "title": "  <b>Deep</b>  Nets ", "conf": "ICLR 2025", "year": "2025",
    "author": "Keyulu Xu*; Matthew O&#x27;Toole;Keyulu Xu*", "authorids": "~Keyulu_Xu1;;~Keyulu_Xu1",
    "aff": "MIT + Google;  Stanford ;MIT + Google", "keywords": "Diffusion Models; GANs",
    "primary_area": "generative_models", "rating": "6;8", "rating_avg": "7", "gs_citation": "12",
    "github": "github.com/a/b", "homepage": "https://lab.github.io/", "bibtex": "@inproceedings{x, pages={1-9}}",
}


def test_every_value_stays_as_the_source_wrote_it():
    record = paperlists_mapping.fields(RECORD)
    assert (record.key.id, record.key.title, record.key.year) == ("x1", "  <b>Deep</b>  Nets ", "2025")
    assert record.key.conferences == (None, "ICLR 2025", None)
    # Decoded from the format's HTML escapes and split where it joins places; marks and spaces kept.
    assert record.authors.names == ("Keyulu Xu*", " Matthew O'Toole", "Keyulu Xu*")
    assert record.authors.profiles == ("~Keyulu_Xu1", "", "~Keyulu_Xu1")
    assert record.authors.alignments[0] == Alignment((("MIT ", " Google"), ("  Stanford ",), ("MIT ", " Google")))
    assert record.keywords == ("Diffusion Models", " GANs")
    assert record.primary_area == "generative models"  # the format's underscores are its own spelling of spaces
    assert record.pages == "1-9"  # from the BibTeX entry, not yet BibTeX's "1--9"
    assert record.citations == "12"
    assert record.reviews[0] == SourceReview("rating", "6;8", "7")


def test_a_single_affiliation_stands_for_the_whole_paper_and_an_index_aligns_the_unique_list():
    authors = paperlists_mapping.fields({"title": "T", "author": "A;B", "aff": "Lab"}).authors
    assert authors.alignments[0] == Alignment((("Lab",),), whole_paper=True)
    indexed = paperlists_mapping.fields({"title": "T", "author": "A;B", "aff_unique_norm": "U;V",
                                         "aff_unique_index": "0+1;1"}).authors
    assert indexed.alignments[1] == Alignment((("U", "V"), ("V",)))
    assert indexed.paper_affiliations == ("U", "V")
    nowhere = paperlists_mapping.fields({"title": "T", "author": "A", "aff_unique_norm": "U",
                                         "aff_unique_index": "3"}).authors
    assert len(nowhere.alignments) == 1  # an index that points nowhere aligns nothing


def test_link_candidates_in_order_and_never_an_authors_own_field():
    links = paperlists_mapping.fields(RECORD).links
    assert links.code == ("github.com/a/b", None)
    assert "https://lab.github.io/" not in links.texts
    assert links.texts[0] == "github.com/a/b"
