"""Code and project links found by host in any field of a record (vocab/link_hosts.toml)."""

from __future__ import annotations

import pytest

from services.indexer.cleaning.links import hosted_links, link_hosts
from services.indexer.paper.normalise import Origin, normalise
from services.indexer.sources import paperlists_mapping

ORIGIN = Origin("iclr/iclr2025.json.gz", 0, "iclr", 2025, format="paperlists")


def links(**record):
    return normalise({"title": "T", **record}, ORIGIN).links


@pytest.mark.parametrize("text, code", [
    ("Code is available at https://github.com/getalp/Arasaac-WN.", "https://github.com/getalp/Arasaac-WN"),
    ("(see https://github.com/a/b).", "https://github.com/a/b"),
    ("available at https://github. com/xuemingxxx/ChiFraud.", "https://github.com/xuemingxxx/ChiFraud"),
    (r"at \url{https://github.com/lfz/Guided-Denoise}.", "https://github.com/lfz/Guided-Denoise"),
    ("[github.com/a/b](https://github.com/a/b)", "https://github.com/a/b"),
    ("**https://github.com/a/b**", "https://github.com/a/b"),
    ("code: github.com/a/b/tree/main/x", "https://github.com/a/b/tree/main/x"),
    ("WWW.GitHub.com/Org/Repo", "https://www.github.com/Org/Repo"),
    ("http://gitlab.com/group/project", "http://gitlab.com/group/project"),
    ("https://huggingface.co/datasets/sxu/CANLI", "https://huggingface.co/datasets/sxu/CANLI"),
    ("https://anonymous.4open.science/r/CAMS1/.", "https://anonymous.4open.science/r/CAMS1/"),
    ("git.io/RePaint", "https://git.io/RePaint"),
    ("https://gitee.com/mindspore/models", "https://gitee.com/mindspore/models"),
])
def test_code_in_text(text, code):
    assert hosted_links([text]) == {"code": code}


@pytest.mark.parametrize("text", [
    "We release it on GitHub. Company/y", "mygithub.com/a/b", "https://github.com/owner",
    "https://github.com/topics/nlp", "https://huggingface.co/papers/2401.00001", "https://github.community/t/x",
    "https://paperswithcode.com/paper/x", "https://drive.google.com/file/d/1/view", "github.com",
    "Not provided", "",
])
def test_not_code(text):
    assert "code" not in hosted_links([text])


@pytest.mark.parametrize("text, page", [
    ("Project page: https://lab.github.io/proj/.", "https://lab.github.io/proj/"),
    ("https://yz-cnsdqz.github. io/eigenmotion/GAMMA/", "https://yz-cnsdqz.github.io/eigenmotion/GAMMA/"),
    ("https://sites.google.com/view/evsnn", "https://sites.google.com/view/evsnn"),
    ("https://eclipse-t2i.vercel.app/", "https://eclipse-t2i.vercel.app/"),
])
def test_project_pages(text, page):
    assert hosted_links([text]) == {"project": page}


@pytest.mark.parametrize("text", ["https://github.io/x", "https://sites.google.com/", "https://vercel.app"])
def test_not_a_project_page(text):
    assert hosted_links([text]) == {}


def test_first_of_each_kind_in_order():
    found = hosted_links(["https://a.github.io/p", "x https://github.com/a/first and https://github.com/a/second",
                          "https://github.com/a/third"])
    assert found == {"project": "https://a.github.io/p", "code": "https://github.com/a/first"}


def test_abstract_link_fills_code_and_has_code():
    record = {"abstract": "We propose X. Code: https://github.com/mandt-lab/uqdm."}
    assert links(**record).code == "https://github.com/mandt-lab/uqdm"
    assert normalise({"title": "T", **record}, ORIGIN).links.code


def test_github_field_first_then_abstract():
    assert links(github="https://github.com/a/field", abstract="https://github.com/a/text").code == \
        "https://github.com/a/field"


def test_a_project_page_in_the_github_field_is_the_project_not_code():
    found = links(github="https://idea23d.github.io/")
    assert (found.code, found.project) == ("", "https://idea23d.github.io/")


@pytest.mark.parametrize("value", ["Not provided", "https://github.com/", "https://github.com/topics/x", "[![Papers with Code](/i.svg) 15 implementations]"
                                                   "(https://paperswithcode.com/paper/x)"])
def test_github_field_that_is_no_repository(value):
    assert links(github=value).code == ""


@pytest.mark.parametrize("value", ["https://github.com/dynca", "https://4dqv.mpi-inf.mpg.de/EventNeRF",
                                   "https://libauc.org/"])
def test_whatever_the_github_field_declares_is_the_code(value):
    assert links(github=value).code == value  # an organisation's page, a lab's page: the source says code


def test_a_declared_code_field_wins_over_a_repository_in_the_abstract():
    assert links(code="https://gitlab.com/g/p", abstract="see https://github.com/other/repo").code == \
        "https://gitlab.com/g/p"


def test_markdown_badge_in_github_field():
    assert links(github="[![github](/images/g.svg) Cyanogenoid/vqa-counting](https://github.com/Cyanogenoid/vqa-counting)"
                 ).code == "https://github.com/Cyanogenoid/vqa-counting"


def test_any_other_field_counts_but_authors_fields_never():
    assert links(video="https://github.com/a/b").code == "https://github.com/a/b"
    assert links(homepage=";https://someone.github.io/;https://github.com/someone/x").present() == {}
    assert links(aff_unique_url="https://github.com/org/x").present() == {}


def test_project_field_of_any_host_is_kept_and_code_is_not_repeated():
    assert links(project="https://vision.cs.utexas.edu/projects/zsel/").project == \
        "https://vision.cs.utexas.edu/projects/zsel/"
    found = links(project="https://github.com/a/b")
    assert (found.code, found.project) == ("https://github.com/a/b", "")


def test_non_text_values_are_ignored():
    assert links(github=["https://github.com/a/b"], code=5, abstract=None).present() == {}


def test_the_authors_own_fields_are_never_searched_for_the_papers_links():
    assert {"homepage", "aff_unique_url", "email", "author"} <= paperlists_mapping._own_fields()
    assert links(homepage="https://lab.github.io/", author_site="https://github.com/someone/site").present() == {}


@pytest.mark.parametrize("text, code", [
    ("CODE AT GITHUB.COM/ORG/REPO", "https://github.com/ORG/REPO"),  # the ASCII pre-check lowercases
    ("Le code est sur https://github.com/équipe/dépôt — merci", "https://github.com/équipe/dépôt"),
    ("Code: https://github.com/a/b. Über alles.", "https://github.com/a/b"),  # non-ASCII: always the pattern
])
def test_the_cheap_pre_check_never_hides_a_link(text, code):
    assert hosted_links([text]) == {"code": code}


def test_a_text_naming_no_host_skips_the_pattern_and_finds_nothing():
    table = link_hosts()
    text = "We propose a method for graph learning, evaluated on five benchmarks."
    assert not table.may_hold(text)
    assert hosted_links([text]) == {}
    assert table.may_hold("voilà")  # anything non-ASCII goes to the pattern
