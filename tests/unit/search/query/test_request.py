"""Query-string parameters -> SearchRequest: validation, canonical values, cursors, round trip."""

from __future__ import annotations

import base64
import json

import pytest

from services.search.errors import InvalidRequest
from services.search.limits import MAX_FILTER_VALUES, MAX_QUERY, MAX_VALUE_CHARS, MAX_WINDOW
from services.search.query.facets import FACETS, Span
from services.search.query.request import SearchRequest, decode_cursor, encode_cursor, parse_request


def parse(allow_search_after: bool = False, **params) -> SearchRequest:
    """parse_request with keyword params; a str value means one value, a list several."""
    args = {k: (v if isinstance(v, list) else [v]) for k, v in params.items()}
    return parse_request(args, allow_search_after=allow_search_after)


def invalid(parameter: str, allow_search_after: bool = False, **params) -> InvalidRequest:
    with pytest.raises(InvalidRequest) as info:
        parse(allow_search_after, **params)
    assert info.value.parameter == parameter, info.value
    assert str(info.value).startswith(f"{parameter}: ")
    assert info.value.message
    return info.value


def as_args(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    args: dict[str, list[str]] = {}
    for key, value in pairs:
        args.setdefault(key, []).append(value)
    return args


# --- defaults and q -----------------------------------------------------------------------------

def test_defaults():
    req = parse_request({})
    assert req == SearchRequest()
    assert (req.q, req.sort, req.page, req.page_size, req.search_after) == ("", "relevance", 1, 20, None)
    assert dict(req.filters) == {}
    assert req.offset == 0
    assert req.to_params() == []


def test_empty_values_are_defaults():
    assert parse(q="", sort="", conference=["", "  "], year=[""], status=[" "]) == SearchRequest()


def test_q_is_stripped_and_last_value_wins():
    assert parse(q=["first", "  graph neural networks  "]).q == "graph neural networks"


def test_q_length_limit():
    assert parse(q="x" * MAX_QUERY).q == "x" * MAX_QUERY
    assert parse(q="  " + "x" * MAX_QUERY + "  ").q == "x" * MAX_QUERY
    invalid("q", q="x" * (MAX_QUERY + 1))


# --- filters ------------------------------------------------------------------------------------

def test_repeated_filters_are_ored_values_deduplicated_in_order():
    req = parse(topic=["computer-vision", "robotics", "computer-vision"], track=["main", " Journal Track "])
    assert req.filters["topic"] == ("computer-vision", "robotics")
    assert req.filters["track"] == ("main", "Journal Track")
    assert req.selected("topic") == ("computer-vision", "robotics")
    assert req.selected("author") == ()


@pytest.mark.parametrize("raw, slug", [
    ("NIPS", "neurips"), ("nips", "neurips"), ("NeurIPS", "neurips"), (" ICLR ", "iclr"),
    ("SIGGRAPH-Asia", "siggraphasia"), ("someconf", "someconf"),
])
def test_conference_slugs_canonicalised(raw, slug):
    assert parse(conference=raw).filters["conference"] == (slug,)


def test_conference_aliases_deduplicate():
    assert parse(conference=["NIPS", "neurips", "iclr"]).filters["conference"] == ("neurips", "iclr")


def test_conference_value_without_slug_characters_is_ignored():
    # Any string is a valid conference parameter (the OpenAPI schema says so): one with no
    # slug character names no conference, so it selects nothing rather than failing.
    req = parse(conference="!!!")
    assert dict(req.filters) == {}
    assert req.to_params() == []
    assert parse(conference=["!!!", "iclr"]).filters["conference"] == ("iclr",)


def test_too_many_filter_values():
    parse(author=[f"a{i}" for i in range(MAX_FILTER_VALUES)])
    invalid("author", author=[f"a{i}" for i in range(MAX_FILTER_VALUES + 1)])
    invalid("year", year=[str(1990 + i) for i in range(MAX_FILTER_VALUES + 1)])


def test_filter_value_too_long():
    parse(keyword="k" * MAX_VALUE_CHARS)
    invalid("keyword", keyword="k" * (MAX_VALUE_CHARS + 1))


@pytest.mark.parametrize("raw, years", [
    (["2021"], ((2021, 2021),)),
    (["2018-2022"], ((2018, 2022),)),
    ([" 2018 - 2022 "], ((2018, 2022),)),
    (["2018–2022"], ((2018, 2022),)),  # en dash
    (["2022-2018"], ((2018, 2022),)),  # reversed
    (["2019", "2021", "2019"], ((2019, 2019), (2021, 2021))),
    (["1900", "2100"], ((1900, 1900), (2100, 2100))),
])
def test_year_values(raw, years):
    req = parse(year=raw)
    assert req.filters["year"] == years
    assert all(isinstance(span, Span) for span in req.filters["year"])


def test_year_selected_text():
    assert parse(year=["2018-2022", "2020"]).selected("year") == ("2018-2022", "2020")


@pytest.mark.parametrize("raw", ["1899", "2101", "1850-2020", "2020-2200", "0000"])
def test_year_out_of_bounds(raw):
    assert "outside" in invalid("year", year=raw).message


@pytest.mark.parametrize("raw", ["abc", "21", "2021-", "-2021", "2018..2022", "2021.5", "20201", "2018-2022-2024"])
def test_year_garbage(raw):
    assert "not a year" in invalid("year", year=raw).message


def test_parse_year_directly():
    year = FACETS["year"]
    assert year.parse_value("2022-2018") == Span(2018, 2022)
    assert year.text(Span(2018, 2022)) == "2018-2022" and year.text(Span(2020, 2020)) == "2020"
    with pytest.raises(InvalidRequest):
        year.parse_value("x")


@pytest.mark.parametrize("raw, status", [("oral", "oral"), ("Oral", "oral"), ("REJECT", "reject"),
                                         (" withdrawn ", "withdrawn"), ("unknown", "unknown")])
def test_status_lowercased(raw, status):
    assert parse(status=raw).filters["status"] == (status,)


def test_status_case_variants_deduplicate():
    assert parse(status=["Oral", "oral", "poster"]).filters["status"] == ("oral", "poster")


@pytest.mark.parametrize("raw", ["accepted", "rejected", "Poster Workshop", "orals"])
def test_status_validation(raw):
    assert raw[:10] in invalid("status", status=raw).message


@pytest.mark.parametrize("raw, value", [
    ("true", "true"), ("1", "true"), ("yes", "true"), ("on", "true"), ("TRUE", "true"),
    ("false", "false"), ("0", "false"), ("no", "false"), ("off", "false"), ("False", "false"),
])
def test_has_code_booleans(raw, value):
    req = parse(has_code=raw)
    assert req.filters["has_code"] == (value == "true",)
    assert req.selected("has_code") == (value,)


def test_has_code_both():
    req = parse(has_code=["yes", "1", "no"])
    assert req.filters["has_code"] == (True, False)
    assert req.selected("has_code") == ("true", "false")


@pytest.mark.parametrize("raw", ["maybe", "2", "y"])
def test_has_code_garbage(raw):
    invalid("has_code", has_code=raw)


# --- sort and paging ----------------------------------------------------------------------------

@pytest.mark.parametrize("raw, sort", [("relevance", "relevance"), ("newest", "newest"), ("OLDEST", "oldest"),
                                       ("citations", "citations"), ("", "relevance")])
def test_sort(raw, sort):
    assert parse(sort=raw).sort == sort


@pytest.mark.parametrize("raw", ["date", "random", "_score", "year"])
def test_sort_validation(raw):
    invalid("sort", sort=raw)


@pytest.mark.parametrize("page, size, offset", [("1", "20", 0), ("3", "50", 100), ("02", "100", 100)])
def test_page_and_offset(page, size, offset):
    req = parse(page=page, page_size=size)
    assert req.offset == offset
    assert req.page == int(page) and req.page_size == int(size)


@pytest.mark.parametrize("raw", ["0", "-1", "abc", "1.5", "", "10001", "9" * 5000])
def test_page_bounds(raw):
    invalid("page", page=raw)


@pytest.mark.parametrize("raw", ["0", "101", "-5", "twenty"])
def test_page_size_bounds(raw):
    invalid("page_size", page_size=raw)


# Python's int() takes all of these; the OpenAPI document (type integer) does not.
@pytest.mark.parametrize("raw", ["1_0", "+1", " 2 ", "2\n", "٢", "１０", "𝟏", "0x1", "1e1", "²"])
@pytest.mark.parametrize("parameter", ["page", "page_size"])
def test_integers_are_ascii_digits_only(parameter, raw):
    assert "digits 0-9" in invalid(parameter, **{parameter: raw}).message


@pytest.mark.parametrize("raw", ["٢٠٢١", "２０２１", "2021-٢٠٢٢", "2_021", "+2021"])
def test_years_are_ascii_digits_only(raw):
    assert "not a year" in invalid("year", year=raw).message


def test_max_page_size_is_configurable():
    assert parse_request({"page_size": ["200"]}, max_page_size=500).page_size == 200
    with pytest.raises(InvalidRequest):
        parse_request({"page_size": ["200"]})


def test_the_ten_thousand_window():
    assert parse(page=str(MAX_WINDOW // 20), page_size="20").page == 500
    assert parse(page="100", page_size="100").offset == MAX_WINDOW - 100
    exc = invalid("page", page=str(MAX_WINDOW // 20 + 1), page_size="20")
    assert "10,000" in exc.message
    assert "search_after" not in exc.message
    exc = invalid("page", allow_search_after=True, page="101", page_size="100")
    assert "search_after" in exc.message


def test_with_page_resets_cursor():
    req = parse(True, page="2", search_after=encode_cursor("relevance", [2020, 3, "a title", "id"]))
    moved = req.with_page(5)
    assert moved.page == 5 and moved.search_after is None and moved.q == req.q


# --- search_after cursors -----------------------------------------------------------------------

# (sort, query text?, sort values of a hit): relevance without text runs in the browse order.
CURSORS = [
    ("relevance", True, [12.5, 2020, "iclr-2020-abc"]),
    ("relevance", True, [3, 2020, "p"]),
    ("relevance", False, [2020, 2, "a title", "ünïcode ✓"]),
    ("newest", False, [2021, 0, None, "x"]),
    ("oldest", True, [1999, 10, "", "x"]),
    ("tier", False, [0, 2024, "learning to learn", "x"]),
    ("title", True, ["zebra", 2019, "x"]),
    ("citations", True, [42, 3, 12.5, 2020, "x"]),
    ("citations", False, [None, None, 0.0, 2020, "x"]),
    ("rating", True, [6.333333492279053, 3.2, 2020, "x"]),
    ("rating", False, [0, 1.0, 2020, "x"]),
]


@pytest.mark.parametrize("sort, text, values", CURSORS)
def test_cursor_round_trip(sort, text, values):
    token = encode_cursor(sort, values)
    assert "=" not in token
    assert all(c.isalnum() or c in "-_" for c in token)
    assert decode_cursor(token, sort, text) == tuple(values)
    q = "graph" if text else ""
    assert parse(True, q=q, sort=sort, search_after=token).search_after == tuple(values)


def test_search_after_only_when_allowed():
    token = encode_cursor("relevance", [2020, 1, "a title", "p1"])
    invalid("search_after", search_after=token)
    assert parse(True, search_after=token).search_after == (2020, 1, "a title", "p1")
    assert parse(True).search_after is None


def _token(value) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode()


@pytest.mark.parametrize("token", [
    "garbage!!", "é", "W10",  # []
    base64.urlsafe_b64encode(b"[1,2,3,4,5]").decode(),
    base64.urlsafe_b64encode(b'{"a": 1}').decode(),
    base64.urlsafe_b64encode(b"[[1]]").decode(),
    base64.urlsafe_b64encode(b'[{"a": 1}]').decode(),
    base64.urlsafe_b64encode(b"null").decode(),
    base64.urlsafe_b64encode(b"\xff\xfe\x00").decode(),
    base64.urlsafe_b64encode(b"not json").decode(),
    base64.urlsafe_b64encode(b"[" * 100_000).decode(),
    "a",
    _token([2020, 1, "p1"]),                         # the old, unnamed form
    _token(["newest", 2020, 1, "t", "p1"]),          # another sort's cursor
    _token(["relevance", 2020, 1, "t"]),             # too few keys
    _token(["relevance", 2020, 1, "t", "p", "q"]),   # too many
    _token(["relevance", "2020", 1, "t", "p"]),      # a string for a year
    _token(["relevance", 2020.5, 1, "t", "p"]),      # a float for a year
    _token(["relevance", True, 1, "t", "p"]),        # a boolean
    _token(["relevance", 2**70, 1, "t", "p"]),       # beyond a long
    _token(["relevance", 2020, 1.5, "t", "p"]),      # a float for a tier
    _token(["relevance", 2020, 1, 7, "p"]),          # a number for the title
    _token(["relevance", 2020, 1, "t", 7]),          # a number for the id
    _token(["relevance", 2020, 1, "t", ""]),
    _token(["relevance", 2020, 1, "t", {"script": "x"}]),
    _token(["relevance", None, 1, "t", "p"]),
])
def test_forged_cursors_rejected_before_any_search(token):
    with pytest.raises(InvalidRequest) as info:
        decode_cursor(token, "relevance", False)
    assert info.value.parameter == "search_after"
    invalid("search_after", allow_search_after=True, search_after=token)


def test_a_cursor_of_the_text_order_does_not_fit_the_browse_order():
    token = encode_cursor("relevance", [12.5, 2020, "p"])
    assert parse(True, q="graph", search_after=token).search_after == (12.5, 2020, "p")
    invalid("search_after", allow_search_after=True, search_after=token)


# --- to_params round trip -----------------------------------------------------------------------

ROUND_TRIP = [
    {},
    {"q": "graph neural networks"},
    {"q": 'title:"deep learning" -gan year:2020'},
    {"conference": ["NIPS", "iclr"], "year": ["2022-2018", "2020"], "status": ["Oral", "reject"]},
    {"topic": ["robotics"], "track": ["Journal Track"], "keyword": ["GNN", "Chemistry"],
     "author": ["Ada Lovelace"], "affiliation": ["MIT"], "has_code": ["yes"]},
    {"sort": "citations", "page": "7", "page_size": "50"},
    {"q": "x", "sort": "oldest", "page": "2", "has_code": ["false", "true"], "year": ["1987"]},
    {"q": "ünïcode & <b>", "author": ["José Müller"]},
]


@pytest.mark.parametrize("params", ROUND_TRIP)
def test_to_params_round_trip(params):
    req = parse(**params)
    pairs = req.to_params()
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in pairs)
    assert parse_request(as_args(pairs)) == req


def test_to_params_omits_defaults_and_cursor():
    req = parse(True, q="x", search_after=encode_cursor("relevance", [1.0, 2020, "p"]))
    assert req.to_params() == [("q", "x")]


def test_to_params_order_follows_facets():
    req = parse(has_code="1", conference="iclr", year="2020", q="x", page="2")
    names = [k for k, _ in req.to_params()]
    facet_names = [f.name for f in FACETS]
    facet_part = [n for n in names if n in facet_names]
    assert facet_part == sorted(facet_part, key=facet_names.index)
    assert names[0] == "q" and names[-1] == "page"


def test_filters_only_hold_known_facets():
    req = parse(unknown="x", conference="iclr", page="1")
    assert set(req.filters) == {"conference"}
    assert json.dumps(req.to_params())
