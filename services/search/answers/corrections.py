"""When a search finds nothing, or nearly nothing: show the corrected query's papers, or say why.

A typo ("grpah neural netwroks") used to end on 0 results and a "Did you mean" link, a
second click every time. Web search shows the corrected results at once ("Showing results
for … · Search instead for …"), and so does this: :func:`use_correction` decides from the
two totals (the correction's papers replace none, never a few), and
:attr:`SearchResults.corrected_from` keeps the query as typed so the page and the API can
offer it back. Otherwise a correction with papers is a "Did you mean" link.

When nothing is found and no correction helps, :func:`hint` says what the person can do
instead of showing a bare 0: a pasted paragraph is better searched as "papers like this
text", and words in a script the English analyzers cannot stem (CJK, Cyrillic, …) are
unlikely to be in titles and abstracts written in English.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from services.search.limits import LONG_TEXT_WORDS, SUGGEST_BELOW
from services.search.query.query_language import ParsedQuery
from services.search.query.request import SearchRequest
from services.search.records.model import Paper

_WORD = re.compile(r"\w+")

HINTS = {
    "long_text": "No paper has all of these words. To find papers like a passage of text, "
                 "use “Papers like mine”.",
    "script": "Papers here are indexed in English: try English words for what you are looking for.",
}


@dataclass
class Meant:
    """What a request that matched few papers means (:func:`meant`): the request answered
    (itself, its last word still typed, or its correction), the query as typed when corrected, and a
    "did you mean" correction with papers otherwise."""

    request: SearchRequest
    corrected_from: str | None = None
    suggestion: str | None = None


# How many papers a request's words match, and the phrase suggester's correction of its free text (or None):
# the two questions :func:`meant` asks Elasticsearch, through the front door.
Count = Callable[[SearchRequest], int]
Correct = Callable[[SearchRequest], str | None]


def may_mean_more(req: SearchRequest, matched: int) -> bool:
    """Whether a request whose words matched ``matched`` papers may mean more (:func:`meant`): few, and words."""
    return matched < SUGGEST_BELOW and req.mode != "semantic" and bool(req.reading.free_text)


def named(req: SearchRequest, matched: int, papers: Sequence[Paper]) -> bool:
    """Whether the words name one of the few papers they matched (its title, the name before its colon, an
    author): typed whole, they mean what they say, so neither a word still being typed nor a "did you mean"
    is looked for. Every read of a request decides it alike (search, trends, export, feed): each holds all
    of those papers, unless it shows a later page or fewer of them (then it is not named: their counts
    decide, as for any request)."""
    return matched <= len(papers) and names_a_paper(req, papers)


def meant(req: SearchRequest, matched: int, count: Count, correct: Correct, *, suggest: bool = True) -> Meant:
    """What a request whose words matched few papers means: the same words with the last one still
    being typed (``direct preference optim``), or — when they matched nothing, not even a paper lists
    hide — the spelling correction's. Decided on counts alone, so that the search, its trends, its
    export and its feed, each asking this for the same request, all answer the same set; and decided on the words
    without the filters, so that narrowing a search by one of its facet values answers exactly the
    papers that value counted (``robot`` within one keyword is still ``robot``, never ``robot*``).

    ``suggest=False``: no "did you mean" is wanted when the words matched something. The phrase
    suggester costs 2-6x the search itself on the full corpus (150-300 ms against 40-140 ms) and,
    past zero hits, only ever adds a link: the reads that only need the set (trends, export, feed)
    skip it. With zero hits it always runs: its correction replaces the answer. (Words that name one
    of the papers they matched never get here: :func:`named`.)
    """
    answer = Meant(req)
    words = req.without_filters()
    if req.filters:
        matched = count(words)
        if matched >= SUGGEST_BELOW:
            return answer
    if req.reading.typed:
        found = count(replace(words, expand_last=True))
        if found > matched:
            answer.request, matched = replace(req, expand_last=True), found
            if matched >= SUGGEST_BELOW:
                return answer
    # Papers lists hide (rejected, withdrawn) found by words that found nothing else count as a few hits:
    # no correction replaces them ("SHDL" was corrected to "seal", 98 papers, over the rejected paper it
    # names); a "did you mean" may still go beside them, and the list says "+ 1 rejected — show".
    matched = matched or count(_hidden_only(words))
    if matched and not suggest:
        return answer
    correction = correct(req)
    if correction and not adds_nothing(req.reading.free_text, correction, matched):
        corrected_q, found = _correction(req, words, keep_case(req.q, correction), matched, count)
        if req.autocorrect and use_correction(matched, found):
            answer.request = req.with_page(1, q=corrected_q, autocorrect=True)
            answer.corrected_from = req.q
        elif found:  # "did you mean" only where it leads somewhere
            answer.suggestion = corrected_q
    return answer


def _correction(req: SearchRequest, words: SearchRequest, corrected_q: str, matched: int,
                count: Count) -> tuple[str, int]:
    """The correction to offer and the papers it finds: with the words it only split put back
    (:func:`unsplit`) when that finds papers, else as the suggester wrote it. Beside a few hits
    the correction is only a link: offered when its words go together somewhere
    (:func:`as_phrase`). With none, its papers replace the answer: all its words will do."""
    kept = unsplit(req.q, corrected_q)
    candidates = [kept, corrected_q] if kept != corrected_q and not adds_nothing(
        req.reading.free_text, kept, matched) else [corrected_q]
    found = 0
    for candidate in candidates:
        checked = as_phrase(candidate) if matched else candidate
        found = count(replace(words, q=checked, autocorrect=True))
        if found:
            return candidate, found
    return corrected_q, found


def _hidden_only(req: SearchRequest) -> SearchRequest:
    """``req`` over the papers its facets' defaults hide (rejected and withdrawn), and only those."""
    return replace(req, filters={facet.name: facet.hidden for facet in req.facets if facet.hidden})


def use_correction(total: int, corrected_total: int) -> bool:
    """Show the correction's papers instead of the query's: only when the query's words matched nothing.

    Not when they matched a few: a paper's own rare name ("PcLast", "AdaptSSR") matches one
    paper, and the suggester "corrects" it into common words with hundreds. Replacing a few
    hits by a correction with ten times more cost the name class of bench/relevance/known_item.py
    15 points of MRR (0.97 -> 0.82, full corpus); a few hits keep a "Did you mean" link.
    """
    return total == 0 and corrected_total > 0


def names_a_paper(req: SearchRequest, papers: Sequence[Paper]) -> bool:
    """Does the query's free text name one of ``papers``: its whole title, the name before its colon,
    or one of its authors (words compared case-folded, punctuation ignored)?

    Such a query is spelled as the index spells it and typed whole: a "did you mean" beside the
    paper or author it names is noise ("Seyed Sadegh Mohseni Salehi" was offered "seed sadegh
    mohseni sales"), and so is its last word read as still being typed ("... Dense Image
    Prediction" as "... Predict*"): the search looks for neither.

    Words are compared once each, as the query language reads them ("a a" is "a"): a title that
    repeats a word ("Learning ... with Reinforcement Learning", "... Space for More Flexible
    Neural Architecture Search") was never named by its own paste, and paid the suggester and a
    count of its last word as a prefix (3-4 requests instead of 1; 5 of the 19 pasted titles of
    bench/cost/miss_cost.py).
    """
    words = _words(req.reading.free_text)
    if not words:
        return False
    for paper in papers:
        title = paper.title or ""
        if words in (_words(title), _words(title.partition(":")[0])):
            return True
        if any(words == _words(author.name) for author in paper.authors):
            return True
    return False


def _words(text: str) -> tuple[str, ...]:
    """The text's words case-folded, each once, in the order of their first use."""
    return tuple(dict.fromkeys(_WORD.findall(text.casefold())))


def as_phrase(text: str) -> str:
    """``text`` as one quoted phrase of the query language: what a "did you mean" beside a few hits must
    match, its words side by side. Each word alone is no test: the phrase suggester, scoring words by
    how common they are, offered "black should" for "blast shield" (2 papers) and "greedy s Functions"
    for "Green s Functions", each of whose words some papers have; "face alignment" for "face
    allignment" is a phrase of 74 papers. Of the five corrections offered to 1,000 queries of the load
    mix (seed 11) it kept three ("face alignment", "Large language Model", "data de identification")
    and dropped the two that changed words spelt right."""
    return '"' + text.replace('"', " ") + '"'


def adds_nothing(typed: str, correction: str, matched: int) -> bool:
    """Whether a correction of the typed words would tell nothing: it only respells them (case, hyphens,
    a plural "s": "MAC-Bayes bound" was offered "mac bayes bounds", a paper it had found), or, beside
    papers the words found, it changes a word written as a name (capitals past its first letter), which
    found them as it is: "NLIDB" was offered "nli a", "uMLIP" "ulip", "TrainX Named Entity" "trained
    Named Entity"."""
    if _singular(typed) == _singular(correction):
        return True
    kept = set(_words(correction))
    return bool(matched) and any(_NAME_CASE.search(w) and w.casefold() not in kept for w in typed.split())


_NAME_CASE = re.compile(r"^\W*\w+?[A-Z]")  # a capital past the word's first letter: NLIDB, uMLIP, TrainX


def _singular(text: str) -> tuple[str, ...]:
    return tuple(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in _words(text))


def keep_case(typed: str, corrected: str) -> str:
    """The correction with the typed spelling of every word it did not change ("BERT" stays "BERT")."""
    typed_words = {w.lower(): w for w in typed.split()}
    return " ".join(typed_words.get(w, w) for w in corrected.split())


def unsplit(typed: str, corrected: str) -> str:
    """The correction with each typed word it only split put back as typed: the phrase suggester corrects
    word by word, and beside the word that found nothing ("Monnocular") it may split one spelt right,
    closer to its commoner two-word form ("Pretraining" -> "pre training"), so that the title typed
    matched no more. Words it respelt are kept; the caller counts both versions (a split may be the
    correction itself: "selfsupervised")."""
    out, fixed = [], corrected.split()
    j = 0
    for word in typed.split():
        joined = _JOINER.sub("", word.casefold())
        for k in (2, 3):
            if len(fixed) >= j + k and _JOINER.sub("", "".join(fixed[j:j + k]).casefold()) == joined:
                out.append(word)
                j += k
                break
        else:
            if j < len(fixed):
                out.append(fixed[j])
                j += 1
    return " ".join(out + fixed[j:])


_JOINER = re.compile(r"[-‐–_]")


def hint(parsed: ParsedQuery, total: int) -> str | None:
    """Why a search that found nothing found nothing, when it can be told: a code of :data:`HINTS`."""
    if total:
        return None
    text = " ".join(t.text for c in parsed.clauses if not c.negated for t in c.alternatives)
    letters = [ch for ch in text if ch.isalpha()]
    if letters and sum(1 for ch in letters if not _latin(ch)) * 2 > len(letters):
        return "script"
    if len(text.split()) >= LONG_TEXT_WORDS:
        return "long_text"
    return None


def _latin(ch: str) -> bool:
    return ch.isascii() or unicodedata.name(ch, "").startswith("LATIN")
