"""The search-box query language, parsed into a small typed AST.

Syntax: plain words (all required), ``"quoted phrases"``, ``-exclusion``, ``a OR b``
(also ``a | b``), ``prefix*`` and field scopes ``title:``, ``author:``, ``abstract:``,
``aff:``, ``conference:``, ``year:`` (``2021``, ``2018-2022``, ``>=2020``, ``<2019``) and ``person:``
(a person id: ``person:p3c8606cb9f13`` is one researcher, where ``author:`` is every person of a name).

The parser never raises: it is fed whatever people type or paste, so anything it
cannot read degrades to plain words (or to nothing when no word is left). Decisions on
the ambiguous cases, so the UI and the tests agree:

* an unclosed quote turns the rest of the query into plain positive words; a ``-`` or a
  scope written just before that quote is dropped (excluding or scoping half a phrase
  would surprise more than ignoring the operator);
* ``OR`` joins two positive text terms; a leading, trailing or repeated ``OR`` is
  dropped (``a OR OR b`` is ``a OR b``), a negated term or a conference/year scope next
  to ``OR`` breaks the group (``-a OR b`` is ``-a b``); lowercase ``or`` is a word;
* a scope with nothing after it (``title:``) is ignored; an unknown one (``foo:bar``)
  is the words ``foo bar`` (or, as the index keeps a colon between two letters,
  the one word ``foo:bar``: "N:M sparsity"); field names are case-insensitive;
* ``conference:`` and ``year:`` are filter values, not text: several of them mean
  *any of* these; negated ones (``-conference:iclr``, ``-year:<2018``) are kept as
  exclusions, which :func:`services.search.query.text_query.compile_query` turns into
  ``must_not``; an invalid year (``year:abc``, ``year:21``) is the words ``year abc``;
  a reversed range (``year:2022-2018``) is swapped;
* ``person:`` is a filter value too (any of several, negated ones excluded); a value that is not
  a person id in form (``p`` and 12 hex digits, case aside) is the words ``person …``, and a
  well-formed id that names nobody simply matches nothing;
* ``x*`` needs two letters or digits before the star to be a prefix, else it is the
  plain word ``x`` (a lone ``*`` is nothing); backslashes escape nothing;
* at most :data:`MAX_CLAUSES` terms and filter values are kept, the rest dropped, and
  only the first :data:`MAX_QUERY` characters are read.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ftfy.fixes import fix_latin_ligatures

from services.search.catalogue.venues import canonical_slug
from services.search.limits import MAX_QUERY, MAX_YEAR, MIN_YEAR
from services.search.records.people import is_person_id

MAX_TERM_CHARS = 100
MAX_CLAUSES = 32

TEXT_FIELDS = ("title", "author", "abstract", "aff")
FILTER_FIELDS = ("conference", "year", "person")
_FIELD_ALIASES = {"authors": "author", "affiliation": "aff"}

_YEAR_RANGE = re.compile(r"(\d{4})\s*(?:-|\.\.|\u2013)\s*(\d{4})", re.ASCII)
_YEAR_CMP = re.compile(r"(>=|<=|>|<)\s*(\d{4})", re.ASCII)


@dataclass(frozen=True)
class Term:
    """One word (possibly several tokens once analysed), phrase or prefix, maybe scoped."""

    text: str
    field: str | None = None
    phrase: bool = False
    prefix: bool = False
    # The word as typed when a colon joins two letters in it ("N:M", "MoKA:Parameter"): the index keeps
    # such a word whole (Unicode's word breaks), so it is matched as typed as well as split (``text``).
    joined: str = ""


@dataclass(frozen=True)
class Clause:
    """Terms of which one must match (an OR group when more than one), or must not."""

    alternatives: tuple[Term, ...]
    negated: bool = False


@dataclass(frozen=True)
class ParsedQuery:
    """Text clauses (all required, negated ones excluded) plus filter values.

    ``conferences`` are canonical slugs, ``years`` inclusive ``(low, high)`` ranges, ``people`` person ids;
    several values mean *any of* them (``year:2019 year:2021`` is both years), so the
    caller ORs them, the way it ORs facet selections.
    """

    clauses: tuple[Clause, ...] = ()
    conferences: tuple[str, ...] = ()
    years: tuple[tuple[int, int], ...] = ()
    excluded_conferences: tuple[str, ...] = ()
    excluded_years: tuple[tuple[int, int], ...] = ()
    people: tuple[str, ...] = ()
    excluded_people: tuple[str, ...] = ()

    @property
    def is_empty(self) -> bool:
        return not (self.clauses or self.conferences or self.years or self.people
                    or self.excluded_conferences or self.excluded_years or self.excluded_people)

    def free_text(self) -> str:
        """The required plain text: positive unscoped words and phrases, no OR groups or prefixes.

        What an exact-title lookup and "did you mean" should look at; scopes, exclusions
        and alternatives are not part of a title someone pasted.
        """
        parts = []
        for clause in self.clauses:
            if clause.negated or len(clause.alternatives) != 1:
                continue
            term = clause.alternatives[0]
            if term.field is None and not term.prefix:
                parts.append(term.text)
        return " ".join(parts)


# --- lexing -----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Or:
    pass


@dataclass(frozen=True)
class _Text:
    term: Term
    negated: bool


@dataclass(frozen=True)
class _Filter:
    field: str  # "conference", "year" or "person"
    value: str | tuple[int, int]
    negated: bool


_Token = _Or | _Text | _Filter


def _clean(q: str) -> str:
    """Control characters and lone surrogates become spaces (they cannot reach ES as UTF-8); ligatures of a
    title pasted from a PDF are spelt out ("Classiﬁcation"), as the indexer stores them."""
    return fix_latin_ligatures("".join(" " if unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in q))


def _wordish(ch: str) -> bool:
    return ch.isalnum() or unicodedata.category(ch).startswith("M")


def _trim(text: str) -> str:
    """Drop punctuation at both ends (``(graph`` -> ``graph``) and collapse spaces."""
    text = " ".join(text.split())
    start, end = 0, len(text)
    while start < end and not _wordish(text[start]):
        start += 1
    while end > start and not _wordish(text[end - 1]):
        end -= 1
    return text[start:end][:MAX_TERM_CHARS].strip()


def _word(text: str, field: str | None) -> Term | None:
    """A bare word: ``:`` splits words (``foo:bar`` is ``foo bar``); where it joins two letters the word
    is also kept whole, as the standard tokenizer indexes it ("N:M sparsity": 35 papers write "N:M")."""
    joined = _trim(text) if _LETTER_COLON.search(text) else ""
    text = text.replace(":", " ")
    core = text.rstrip("*")
    starred = len(core) < len(text)
    core = _trim(core)
    if not any(ch.isalnum() for ch in core):
        return None
    if starred and sum(ch.isalnum() for ch in core) >= 2:
        return Term(core, field, prefix=True)
    return Term(core, field, joined=joined)


_LETTER_COLON = re.compile(r"[^\W\d_]:[^\W\d_]")  # "N:M" is one token in the index; "2:4" is two


def _phrase(text: str, field: str | None) -> Term | None:
    text = " ".join(text.split())[:MAX_TERM_CHARS].strip()
    if not any(ch.isalnum() for ch in text):
        return None
    return Term(text, field, phrase=True)


def _year_range(value: str) -> tuple[int, int] | None:
    value = value.strip()
    if value.isascii() and value.isdigit() and len(value) == 4:
        low = high = int(value)
    elif match := _YEAR_RANGE.fullmatch(value):
        low, high = sorted((int(match[1]), int(match[2])))
    elif match := _YEAR_CMP.fullmatch(value):
        op, year = match[1], int(match[2])
        low, high = {">=": (year, MAX_YEAR), ">": (year + 1, MAX_YEAR),
                     "<=": (MIN_YEAR, year), "<": (MIN_YEAR, year - 1)}[op]
    else:
        return None
    if MIN_YEAR <= low <= high <= MAX_YEAR:
        return low, high
    return None


def _person(value: str) -> str | None:
    """The person id ``value`` is (case aside), or None when it is not one in form."""
    value = value.strip().lower()
    return value if is_person_id(value) else None


def _scoped(field: str, value: str, phrase: bool, negated: bool) -> list[_Token]:
    """The tokens of ``field:value`` for a known field (empty when the value is empty)."""
    if field == "conference":
        slug = canonical_slug(value.rstrip("*"))
        return [_Filter(field, slug, negated)] if slug else []
    if field in ("year", "person"):
        if not value.strip():
            return []
        found = _year_range(value) if field == "year" else _person(value)
        if found is not None:
            return [_Filter(field, found, negated)]
        # An invalid year or person id is plain text: words, or a phrase when it was quoted.
        term = _phrase(f"{field} {value}", None) if phrase else _word(f"{field} {value}", None)
        return [_Text(term, negated)] if term else []
    term = _phrase(value, field) if phrase else _word(value, field)
    return [_Text(term, negated)] if term else []


def _lex(q: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(q)
    while i < n:
        if q[i].isspace():
            i += 1
            continue
        if q[i] == "|":
            tokens.append(_Or())
            i += 1
            continue
        negated = False
        if q[i] == "-":
            j = i
            while j < n and q[j] == "-":
                j += 1
            i = j
            if j >= n or q[j].isspace() or q[j] == "|":
                continue  # a lone "-" means nothing
            negated = True
        if q[i] == '"':
            end = q.find('"', i + 1)
            if end < 0:  # unclosed: the rest is plain words, the "-" is dropped
                q = q[:i] + " " + q[i + 1:]
                continue
            term = _phrase(q[i + 1:end], None)
            if term:
                tokens.append(_Text(term, negated))
            i = end + 1
            continue
        j = i
        while j < n and not q[j].isspace() and q[j] not in '"|':
            j += 1
        chunk, i = q[i:j], j
        if chunk == "OR" and not negated:
            tokens.append(_Or())
            continue
        name, colon, value = chunk.partition(":")
        field = _FIELD_ALIASES.get(name.lower(), name.lower())
        if colon and field in TEXT_FIELDS + FILTER_FIELDS:
            if not value and i < n and q[i] == '"':
                end = q.find('"', i + 1)
                if end < 0:  # unclosed: the rest is plain words, scope and "-" dropped
                    q = q[:i] + " " + q[i + 1:]
                    continue
                value, i = q[i + 1:end], end + 1
                tokens.extend(_scoped(field, value, True, negated))
            else:
                tokens.extend(_scoped(field, value, False, negated))
            continue
        term = _word(chunk, None)
        if term:
            tokens.append(_Text(term, negated))
    return tokens


# --- parsing ----------------------------------------------------------------------------

def parse(q: str) -> ParsedQuery:
    """Parse a search-box string; never raises, malformed syntax degrades to plain words."""
    if not isinstance(q, str):
        return ParsedQuery()
    tokens = _lex(_clean(q[:MAX_QUERY]))
    clauses: list[Clause] = []
    filters: dict[tuple[str, bool], list] = {(f, neg): [] for f in FILTER_FIELDS for neg in (False, True)}
    budget = MAX_CLAUSES
    pending_or = joinable = False
    for token in tokens:
        if isinstance(token, _Or):
            pending_or = joinable
            continue
        if budget <= 0:
            break
        if isinstance(token, _Filter):
            bucket = filters[(token.field, token.negated)]
            if token.value not in bucket:
                bucket.append(token.value)
                budget -= 1
            pending_or = joinable = False
            continue
        if pending_or and not token.negated:
            last = clauses[-1]
            if token.term not in last.alternatives:
                clauses[-1] = Clause(last.alternatives + (token.term,), False)
                budget -= 1
        else:
            clauses.append(Clause((token.term,), token.negated))
            budget -= 1
        pending_or, joinable = False, not token.negated
    return ParsedQuery(
        clauses=tuple(dict.fromkeys(clauses)),  # "a a" is "a"; after grouping, so OR still binds
        conferences=tuple(filters[("conference", False)]),
        years=tuple(filters[("year", False)]),
        excluded_conferences=tuple(filters[("conference", True)]),
        excluded_years=tuple(filters[("year", True)]),
        people=tuple(filters[("person", False)]),
        excluded_people=tuple(filters[("person", True)]),
    )
