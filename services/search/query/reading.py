"""The query read once per request: what its text may be of a paper, as one frozen value.

The text query, the ranking, the body builder, the semantic side and the answers each asked the parsed
query the same questions (its title keys, its name keys, whether its last word is cut, how its words split
into a name and an author) and worked the answers out again, up to three times a search. A
:class:`QueryReading` holds every answer, worked out once by :func:`read`; the modules that build a body
from it only shape Elasticsearch clauses (``SearchRequest.reading`` is the request's).

A *title key* is a whole title folded (``records.model.title_key``); a *name key* a name folded
(``records.paper_names.query_keys``: "VQ-VAE" and "vqvae" meet). What each one is for is said where it is
read: the known-item factors in :mod:`.ranking`, the words in :mod:`.text_query`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from services.search.limits import MAX_PREFIX_TERMS, MAX_QUERY, NAMED_TITLE_WORDS
from services.search.records.model import title_key
from services.search.records.paper_names import fold, query_key, query_keys
from services.search.records.schema import ENGLISH_STOPWORDS

from .query_language import TEXT_FIELDS, Clause, ParsedQuery, Term

MIN_KEY_CHARS = 2  # a shorter title key ("a") starts half the corpus and tells nothing
MIN_TYPED_CHARS = 3  # letters or digits of a last word that may still be being typed
_TYPED = re.compile(rf"\w{{{MIN_TYPED_CHARS},}}", re.ASCII)
TYPED_FIELDS = (None, "title", "author")  # the scopes a word still being typed may have ...
CUT_FIELDS = (None, "title")  # ... and of those, the ones whose word may be cut mid-way in a title or a name
TITLE_START_WORDS = 2  # words of text from which a cut last word may match the title the text starts
_NAME_PLUS = re.compile(r"\w\+")  # "C++", "MAML++", "A+B"; not "+required" nor "A + B"
# Plain words that together fold to a paper's name key match it as a whole ("faster rcnn": "Faster R-CNN", whose
# title holds no word "rcnn"); names are short, so only this many words.
WHOLE_NAME_WORDS = (2, 3)
AUTHOR_TITLE_WORDS = (2, 6)  # queries of this many content words may be words plus an author
NAME_AUTHOR_WORDS = 3  # a name of up to this many words, before or after up to this many of an author's


@dataclass(frozen=True)
class NameAuthor:
    """One split of the words into a name and an author's names, either way round ("maml finn", "zoph le nas")."""

    name_keys: tuple[str, ...]
    author: str  # the author's words, accent-folded as ``authors_folded`` is


@dataclass(frozen=True)
class AuthorTitle:
    """One content word as an author's name, the others as title words ("adamw loshchilov")."""

    author: str  # the word, accent-folded
    title_words: str


@dataclass(frozen=True)
class QueryReading:
    """Everything a search asks of its query's text, worked out once (:func:`read`).

    ``raw`` is the query as typed (its first ``MAX_QUERY`` characters): a pasted title may hold syntax
    ("BERT: ...", "A OR B?") that parses into other words, and it is still that title.
    """

    parsed: ParsedQuery
    raw: str
    free_text: str  # ParsedQuery.free_text: positive unscoped words and phrases
    title_text: str  # what may be (the start of) a title: the free text, else the words scoped to title:
    content_words: tuple[str, ...]  # the free text's words but its small words ("the", "of", "for")
    clauses: tuple[Clause, ...]  # the parsed clauses, ``prefix*`` terms past MAX_PREFIX_TERMS as words
    typed: Term | None  # the last word, when it may still be being typed (then it may also match as a prefix)
    cut: Term | None  # ... when it is in the title text, where it may be cut mid-way (a title's, a name's start)
    title_key: str  # the title text's title key
    title_keys: tuple[str, ...]  # the whole titles the text may be: as parsed, and as typed
    named_titles: tuple[str, ...]  # those of NAMED_TITLE_WORDS words or more: listed whatever their status
    title_cut: str  # the title key the text starts a title with, its last word cut ("" when not cut)
    cut_start: str  # ... for the text query: only a text of TITLE_START_WORDS words or more that ends on it
    sentence_start: bool  # the title key is two words or more and begins or ends on a small word
    name_keys: tuple[str, ...]  # the names the text may be: as parsed and as typed, a typed plural as its singular too
    typed_keys: tuple[str, ...]  # ... as typed only (no plural folded)
    typed_key: str  # the raw text's own key
    as_typed: str  # the raw text, spaces collapsed: a name exactly as typed
    as_typed_key: str  # ... and its title key
    word_keys: Mapping[Term, tuple[str, ...]]  # each word that may be a name (:func:`_may_name`): its name keys
    whole_name_keys: tuple[str, ...]  # the plain words taken together as one name ("faster rcnn")
    naming_keys: frozenset[str]  # every name key the query meets papers by: its words' and the whole name's
    name_authors: tuple[NameAuthor, ...]
    author_titles: tuple[AuthorTitle, ...]


def read(parsed: ParsedQuery, raw: str = "") -> QueryReading:
    """The reading of a parsed query and of the text it was parsed from (``raw``; "" when there is none)."""
    raw = raw[:MAX_QUERY] if isinstance(raw, str) else ""
    free_text = parsed.free_text()
    title_text = free_text or " ".join(
        c.alternatives[0].text for c in parsed.clauses if not c.negated and len(c.alternatives) == 1
        and c.alternatives[0].field == "title" and not c.alternatives[0].prefix)
    content_words = tuple(w for w in free_text.split() if w.lower() not in ENGLISH_STOPWORDS)
    clauses = _bounded_prefixes(parsed.clauses)
    typed = _still_typed(parsed)
    cut = typed if typed and typed.field in CUT_FIELDS else None
    key = title_key(title_text)
    title_keys = tuple(k for k in dict.fromkeys((key, title_key(raw))) if len(k) >= MIN_KEY_CHARS)
    title_cut = key if cut and len(key) >= MIN_KEY_CHARS and cut.text.lower() not in ENGLISH_STOPWORDS else ""
    ends_cut = len(title_text.split()) >= TITLE_START_WORDS and title_text.split()[-1] == (cut.text if cut else "")
    # The text as parsed, and as typed ("A + B" parses into "A B"; its name keeps the "+"). A "+" typed
    # right after a word is part of the name: "ControlNet++" is not ControlNet, so only the typed key counts.
    texts = [raw] if _NAME_PLUS.search(raw) else [title_text, raw]
    as_typed = " ".join(raw.split())
    word_keys = {t: tuple(query_keys(t.text)) for c in clauses for t in c.alternatives if _may_name(t)}
    whole_name_keys = _whole_name_keys(parsed)
    return QueryReading(
        parsed=parsed, raw=raw, free_text=free_text, title_text=title_text, content_words=content_words,
        clauses=clauses, typed=typed, cut=cut, title_key=key, title_keys=title_keys,
        named_titles=tuple(k for k in title_keys if len(k.split()) >= NAMED_TITLE_WORDS),
        title_cut=title_cut, cut_start=title_cut if ends_cut else "", sentence_start=_sentence_start(key),
        name_keys=tuple(dict.fromkeys(k for t in texts for k in query_keys(t))),
        typed_keys=tuple(k for k in dict.fromkeys(query_key(t) for t in texts) if k),
        typed_key=query_key(raw), as_typed=as_typed, as_typed_key=title_key(as_typed),
        word_keys=MappingProxyType(word_keys), whole_name_keys=whole_name_keys,
        naming_keys=frozenset(k for c in parsed.clauses if not c.negated for t in c.alternatives if _may_name(t)
                              for k in word_keys[t]) | frozenset(whole_name_keys),
        name_authors=_name_authors(free_text.split()), author_titles=_author_titles(content_words))


def _may_name(term: Term) -> bool:
    """Whether a term may be a paper's name (its key met against ``name_keys``): a word not scoped to a text
    field, not a phrase nor a prefix."""
    return term.field not in TEXT_FIELDS and not (term.phrase or term.prefix)


def _still_typed(parsed: ParsedQuery) -> Term | None:
    """The last word, when it may be a word still being typed: it then also matches as a prefix.

    Only a plain positive word (unscoped, or scoped to title or author) that is the
    query's last clause and one simple token of at least :data:`MIN_TYPED_CHARS` letters
    or digits; phrases, explicit ``prefix*`` terms, exclusions and OR groups are taken as meant.
    """
    if not parsed.clauses:
        return None
    last = parsed.clauses[-1]
    term = last.alternatives[0]
    if last.negated or len(last.alternatives) != 1 or term.phrase or term.prefix:
        return None
    if term.field not in TYPED_FIELDS or not _TYPED.fullmatch(term.text):
        return None
    return term


def _bounded_prefixes(clauses: tuple[Clause, ...]) -> tuple[Clause, ...]:
    """The first MAX_PREFIX_TERMS prefixes stay prefixes; later ones match as words (``ab*`` as ``ab``).

    Why: each prefix expands over the index, so "a* OR b* OR ..." x 32 took seconds.
    """
    left = MAX_PREFIX_TERMS
    out = []
    for clause in clauses:
        terms = []
        for term in clause.alternatives:
            if term.prefix:
                if left <= 0:
                    term = replace(term, prefix=False)
                left -= 1
            terms.append(term)
        out.append(replace(clause, alternatives=tuple(terms)))
    return tuple(out)


def _sentence_start(key: str) -> bool:
    """Whether a title key of two words or more begins or ends on a small word ("the role of symmetry",
    "consistent depth of"): the start of a sentence, where a topic's words ("graph neural networks") never do."""
    words = key.split()
    return len(words) > 1 and (words[0] in ENGLISH_STOPWORDS or words[-1] in ENGLISH_STOPWORDS)


def _whole_name_keys(parsed: ParsedQuery) -> tuple[str, ...]:
    """The keys of the query's words taken as one name: only for a few plain words."""
    low, high = WHOLE_NAME_WORDS
    terms = [c.alternatives[0] for c in parsed.clauses if len(c.alternatives) == 1 and not c.negated]
    if not low <= len(parsed.clauses) <= high or len(terms) != len(parsed.clauses) \
            or not all(_may_name(t) for t in terms):
        return ()
    return tuple(query_keys(" ".join(t.text for t in terms)))


def _name_authors(words: list[str]) -> tuple[NameAuthor, ...]:
    """Each split of the words into a name (1-3 words) and an author (1-3 words), either way round, whose
    name has a key."""
    out = []
    for cut in range(1, len(words)):
        for name_words, author_words in ((words[:cut], words[cut:]), (words[cut:], words[:cut])):
            if len(name_words) > NAME_AUTHOR_WORDS or len(author_words) > NAME_AUTHOR_WORDS:
                continue
            keys = query_keys(" ".join(name_words))
            if keys:
                out.append(NameAuthor(tuple(keys), fold(" ".join(author_words))))
    return tuple(out)


def _author_titles(words: tuple[str, ...]) -> tuple[AuthorTitle, ...]:
    """Each content word as an author beside the others as title words, for a query of a few content words."""
    low, high = AUTHOR_TITLE_WORDS
    if not low <= len(words) <= high:
        return ()
    return tuple(AuthorTitle(fold(word), " ".join(words[:i] + words[i + 1:])) for i, word in enumerate(words))
