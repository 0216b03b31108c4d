"""What the corpus says of a paper's names: the names other papers give it, the names it introduced, and how
many later papers here mention them.

A paper's own record names it (:mod:`services.indexer.paper.own_names`), but often not by the name people type: the
MAML paper never writes "MAML"; later abstracts do ("model-agnostic meta-learning (MAML)"),
and so do hundreds of papers that merely use it. This pass reads every paper of the index
once and decides, from the corpus alone:

* **names others give a paper.** A long form that other abstracts define ("Long Form (SHORT)",
  :mod:`services.indexer.paper.acronyms`) and that an earlier title leads with (its words before the first small word,
  after a leading "The": "The Lottery Ticket Hypothesis" is what "lottery ticket hypothesis (LTH)" stands
  for; "A"/"An" start a kind's instance, "A Neural Video Codec", whose phrase is the kind's),
  is named by, or is ("model-agnostic meta-learning" and "Model-Agnostic Meta-Learning for Fast
  Adaptation of Deep Networks") gives
  that title's paper the short name and the long form: the earliest such paper, when it precedes
  the first definition by at most :data:`MAX_GAP` years, few other titles of its year begin so,
  and the short name was new then (:func:`novel`). A field's term is in titles' middles and ends
  ("... for Grammatical Error Correction") and was in use before: it names no paper.
* **who introduced a name.** Of the papers bearing a name, the earliest, when the name was new then
  (:func:`novel`: few papers before it mention it, against the many after); a title's
  "Attention: ..." is not a name anybody introduced in that year. A capitalised name that many
  texts write as a lowercase word is taken for an English word, unless its paper writes it so
  too: the 2021 "MAMBA: ..." did not introduce the Mamba of 2024, and, the guard's price, the JMLR
  "Dropout: ..." of 2014 (new then by :func:`novel`) is not counted as introducing dropout. Where the years
  before hold too few papers to have shown the name, a coined word the paper claims (its own, or its title's
  name) that no paper before wrote, and many after, was new anyway ("WGAN" and "pix2pix" of 2017). A long
  form is also found spelled out ("Wasserstein GAN", as most define "WGAN", is what the title "Wasserstein
  Generative Adversarial Networks" writes).
* **mentions.** For each paper, how many later papers here mention a name it introduced (the most
  mentioned one): a citation count of the corpus's own, for ranking (:mod:`services.search.records.prominence`)
  and for the paper page where citations are unknown.

Pure: :func:`corpus_names` takes every paper's year, title, abstract and own names and returns
what changes; :mod:`services.indexer.corpus.names.index_pass` reads and writes the index.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from services.indexer.paper.acronyms import definitions
from services.search.records.paper_names import (
    NET_WORDS,
    finish_key,
    name_key,
    name_like,
    names_in_order,
    raw_key,
    title_name,
)

from .memo import NamesMemo
from .spotting import automaton, keys_in
from .titles import NETWORK, STOP, Scattered, forget, leading, singular, title_words

MAX_GAP = 3             # years between a paper and the first definition of its name that still tie them
NOVEL_FLOOR = 3         # a name is new in a year when at most this many earlier papers mention it; a coined
NOVEL_SHARE = 0.05      # word or a title's own name also when at most this share of the later ones (arXiv
NOVEL_MAX = 40          # versions predate their venue), never more than this many, and the papers before
NOVEL_RATE = 0.25       # mention it at a quarter of the rate of the papers after, at most (the corpus grew
                        # tenfold since 2015: counts alone make every word new; "dropout": 0.19 in 2014)
ENGLISH_USES = 20       # a capitalised name ("PROMPT", "MAMBA") whose key this many texts write as a lowercase
                        # word is English too: its mentions cannot be told from the word's, so it introduces nothing
TIE_EARLIER = 3         # a name others give a paper: at most this many earlier papers wrote it
WITNESS_YEARS = 3       # a name's birth is told only where the corpus holds, in these years before it, at
WITNESS_SHARE = 0.01    # least this share of its papers (the full corpus's years before 2006 hold too few:
                        # "RL" was not born in 1990), and where the papers of those years, at the rate the
WITNESS_EXPECTED = 2    # papers after it mention the name, would have mentioned it at least this often
CLAIMED_LATER = 10      # a coined word or a title's name that no paper before wrote, and this many after: new
CLAIMED_KEY_CHARS = 4   # then, even where the papers before are too few to witness it ("WGAN", "pix2pix" of 2017),
                        # when its key has this many characters (an "ACL" or "CLT" of three is too often another's)
MAX_NAMES = 8           # names kept per paper (own first)
MIN_LONG_WORDS = 2      # a long form of one word ("Transformer (TF)") ties nothing
_ARTICLE = re.compile(r"^\s*the\s+(?=\S)", re.IGNORECASE)
_NOT_WORD = re.compile(r"[^a-z0-9+\s]+")
_LOWER_WORD = re.compile(r"\b[a-z]+\b")
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


@dataclass(frozen=True)
class Entry:
    """What the pass reads of one paper."""

    paper_id: str
    year: int
    title: str
    abstract: str
    own: tuple[str, ...] = ()  # the record's own names (naming.own_names)


@dataclass
class Named:
    """What the corpus says of one paper."""

    names: list[str] = field(default_factory=list)       # own names, then the names others give it
    introduced: list[str] = field(default_factory=list)  # of those, the ones it introduced
    mentions: int | None = None                          # later papers mentioning one of those (the most)


def novel(earlier: int, later: int, papers_before: int, papers_after: int) -> bool:
    """Whether a name mentioned by ``earlier`` of the ``papers_before`` a year and by ``later`` of the
    ``papers_after`` it was new that year ("Dropout" in 2014; not "video" in 2012, nor "importance
    sampling" in 2007, however many more papers mention them since)."""
    if earlier > min(NOVEL_MAX, max(NOVEL_FLOOR, NOVEL_SHARE * later)):
        return False
    if not earlier:
        return True
    return earlier * max(papers_after, 1) <= NOVEL_RATE * later * max(papers_before, 1)


class _Texts:
    """Every paper's text as word keys, and which names each mentions (an Aho-Corasick automaton of
    every name, ``pyahocorasick``: one pass of C over each text, whatever the number of names). ``memo``:
    the incremental pass's memory (:mod:`.memo`): texts and what they mention, read again only where changed."""

    def __init__(self, entries: Sequence[Entry], memo: NamesMemo | None = None):
        self.entries = entries
        self.memo = memo
        self.texts = memo.folded(entries, folded) if memo else [folded(e) for e in entries]

    def mentions(self, keys: Iterable[str], watched: set[str] = frozenset()
                 ) -> tuple[dict[str, list[int]], dict[str, set[int]]]:
        """For each key, the sorted years of the papers whose title or abstract holds it (once a paper);
        and, for the ``watched`` keys, which papers those are."""
        patterns: dict[str, tuple[str, ...]] = {}
        for key, parts in _phrases(keys):
            last = key[len("".join(parts[:-1])):]  # the last word as the key has it (singular)
            patterns[key] = _written(parts, last)
            for spelled in _SPELLED.get(key, ()):  # "wasserstein generative adversarial networks" too
                patterns[key] += _written(spelled, singular(spelled[-1]))
        years: dict[str, list[int]] = defaultdict(list)
        who: dict[str, set[int]] = defaultdict(set)
        if self.memo:
            found = self.memo.mentioned(self.entries, self.texts, patterns, automaton)
        else:
            scan = automaton(patterns)
            found = (keys_in(scan, text) if scan else () for text in self.texts)
        for i, (entry, keys_found) in enumerate(zip(self.entries, found)):
            for key in keys_found:
                years[key].append(entry.year)
                if key in watched:
                    who[key].add(i)
        for ys in years.values():
            ys.sort()
        return years, who


def _written(parts: list[str], last: str) -> tuple[str, ...]:
    """The ways a text writes a phrase of word keys whose last word, singular, is ``last``: singular or plural
    ("... nets" writes "... networks")."""
    return tuple(" " + " ".join([*parts[:-1], word]) + " "
                 for word in ((last, last + "s") if last != NETWORK else NET_WORDS))


def folded(entry: Entry) -> str:
    """A paper's title and abstract as the names are looked for in them: folded, word characters only."""
    return f" {' '.join(_NOT_WORD.sub('', _fold_text(f'{entry.title} {entry.abstract}')).split())} "


def _fold_text(text: str) -> str:
    """:func:`~services.search.records.paper_names.fold` for whole abstracts: the combining marks of NFKD
    removed by one pattern."""
    if text.isascii():
        return text.casefold()
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text)).casefold()


_PHRASE_CACHE: dict[str, list[str]] = {}
_SPELLED: dict[str, list[list[str]]] = {}  # a long form's key: its words with a short name in them spelled out


def _phrases(keys: Iterable[str]) -> Iterable[tuple[str, list[str]]]:
    """Each key with the word keys it is written with (one word: the key itself)."""
    for key in keys:
        yield key, _PHRASE_CACHE.get(key, [key])


def _remember(name: str) -> str:
    """The key of ``name``, remembering its words so that texts can be searched for it as a phrase."""
    key = name_key(name)
    if key and " " in name.strip():
        parts = [p for p in (raw_key(w) for w in name.split()) if p]
        if len(parts) > 1 and finish_key("".join(parts)) == key:
            _PHRASE_CACHE[key] = parts
    return key


def corpus_names(entries: Sequence[Entry], memo: NamesMemo | None = None) -> list[Named]:
    """What the corpus says of each entry's names (same order). See the module docstring.

    The same whatever the entries' order: they are read by year and id, so that ties (two long forms
    written as often, two spellings of a name) are broken alike on every run. The index hands them over in
    its own order, which every write of the pass changes: read as given, a second pass over its own output
    changed 450-670 papers and moved "introduced" between 2,419 and 2,603 of them.

    ``memo``: what an earlier pass read of each text, kept by the incremental pass (:mod:`.memo`); the
    answer is the same with or without it, only faster where few texts changed.
    """
    order = sorted(range(len(entries)), key=lambda i: (entries[i].year, entries[i].paper_id))
    ordered = [entries[i] for i in order]
    if memo:
        memo.begin(ordered)
    else:
        forget()
    found = dict(zip(order, _corpus_names(ordered, memo)))
    return [found[i] for i in range(len(entries))]


def _corpus_names(entries: Sequence[Entry], memo: NamesMemo | None) -> list[Named]:
    _PHRASE_CACHE.clear()
    _SPELLED.clear()
    bearers: dict[str, list[int]] = defaultdict(list)
    for i, entry in enumerate(entries):
        for name in entry.own:
            key = _remember(name)
            if key:
                bearers[key].append(i)
    ties, long_of = _ties(entries, bearers, memo)
    longs = {short: _remember(long) for short, long in long_of.items()}
    _spell_out(long_of, longs)
    mentioned, writing = _Texts(entries, memo).mentions(
        {*bearers, *longs.values(), *(name_key(n) for names in ties.values() for n, _ in names)},
        watched={longs[key] for key in {*bearers, *(name_key(short) for names in ties.values() for _, short in names)}
                 if key in longs})
    years = _Years(entries)
    english = _english({key for key in bearers if key not in _PHRASE_CACHE}, entries, memo)
    out = [Named(names=list(e.own)) for e in entries]
    for i, names in ties.items():
        if not years.witness(entries[i].year):
            continue
        earlier = {short: _earlier(mentioned, names, short, entries[i].year) for _, short in names}
        kept = [name for name, short in names if earlier[short] <= TIE_EARLIER]
        for name in kept:
            key = _remember(name)
            if key and i not in bearers[key]:
                bearers[key].append(i)
        out[i].names = names_in_order(out[i].names + kept)[:MAX_NAMES]
    for key, who in bearers.items():
        if key in longs and longs[key] != key:
            # An acronym is the paper's whose text writes what most definitions say it stands for:
            # "DPO" is Direct Preference Optimization's, not an earlier Discovered Policy Optimisation's.
            who = [i for i in who if i in writing.get(longs[key], ())]
            if not who:
                continue
        first = min(entries[i].year for i in who)
        firsts = [i for i in who if entries[i].year == first]
        if len({title_words(entries[i].title) for i in firsts}) > 1:
            continue  # several papers bore it first: nobody's to introduce
        seen = mentioned.get(key, [])
        earlier, later = bisect_left(seen, first), len(seen) - bisect_right(seen, first)
        shown = {i: next((n for n in out[i].names if name_key(n) == key), None) for i in firsts}
        claimed = any(n and (name_like(n) or name_key(title_name(entries[i].title)) == key) for i, n in shown.items())
        if not (years.witness(first, later)
                or (claimed and len(key) >= CLAIMED_KEY_CHARS and not earlier and later >= CLAIMED_LATER
                    and years.witness(first))):
            continue  # too early, or too rarely mentioned since, to tell
        if key in english and not any(n and n.islower() for n in shown.values()):
            continue  # a capitalised English word ("MAMBA" of 2021; also, its price, "Dropout" of 2014)
        if all(n is None or _term(n) for n in shown.values()):
            continue  # written in lowercase by most who define it: a field's term ("paraphrase generation")
        if earlier > NOVEL_FLOOR and not (
                claimed
                and novel(earlier, later, years.before(first), years.after(first))
                and bisect_left(mentioned.get(longs.get(key, ""), []), first) <= NOVEL_FLOOR):
            # A phrase of words used before is a field's ("contrastive learning" in 2020), and so is
            # a coined word whose long form was ("CNN": "convolutional neural networks" in 2014);
            # a coined word, or a title's own name, mentioned a little before its venue's year may be
            # new ("BERT", on arXiv; "Dropout: A Simple Way ...", JMLR 2014 after its 2012 preprint).
            continue
        # Its introducers write the long form most define it by, with a short name in it spelled out:
        spelled = key in longs and longs[key] in _SPELLED and not _term(long_of[key])
        for i, name in shown.items():
            if name:
                out[i].introduced.append(name)
                out[i].mentions = max(out[i].mentions or 0, later)
                if spelled and all(name_key(n) != longs[key] for n in out[i].names):
                    # "Wasserstein GAN", what the field calls what "Wasserstein Generative Adversarial Networks" named
                    out[i].names = names_in_order(out[i].names + [long_of[key]])[:MAX_NAMES]
    return out


def _spell_out(long_of: dict[str, str], longs: dict[str, str]) -> None:
    """A long form that holds another defined short name is also written with that name spelled out:
    "Wasserstein GAN", what most abstracts say "WGAN" stands for, is what the title "Wasserstein Generative
    Adversarial Networks" writes. The short name must look like one ("GAN", "GANs": a coined word), and its own
    long form be a phrase; one short name spelled out at a time."""
    for short_key, long in long_of.items():
        long_key = longs[short_key]
        parts = _PHRASE_CACHE.get(long_key)
        words = long.split()
        if not parts or len(words) != len(parts):
            continue
        for n, word in enumerate(words):
            inner = longs.get(name_key(word)) if name_like(word) else None
            if inner and inner != long_key and inner in _PHRASE_CACHE:
                _SPELLED.setdefault(long_key, []).append([*parts[:n], *_PHRASE_CACHE[inner], *parts[n + 1:]])


def _term(name: str) -> bool:
    """A phrase in lowercase but for a sentence's first capital ("Paraphrase generation"), not a name."""
    return " " in name.strip() and name[1:].islower() and not name_like(name)


def _english(keys: set[str], entries: Sequence[Entry], memo: NamesMemo | None = None) -> set[str]:
    """The ``keys`` that at least :data:`ENGLISH_USES` texts write as a lowercase word ("prompt", "set")."""
    uses: Counter = Counter()
    if memo:
        for found in memo.lowercase(entries, keys, lowercase_words):
            uses.update(found)
        return {key for key, n in uses.items() if n >= ENGLISH_USES}
    for entry in entries:
        uses.update(keys.intersection(lowercase_words(entry)))
    return {key for key, n in uses.items() if n >= ENGLISH_USES}


def lowercase_words(entry: Entry) -> list[str]:
    """The words a paper's title and abstract write in lowercase (an English word's uses)."""
    return _LOWER_WORD.findall(f"{entry.title} {entry.abstract}")


def _earlier(mentioned: dict[str, list[int]], names: list[tuple[str, str]], short: str, year: int) -> int:
    """Papers before ``year`` that wrote the long forms of ``short`` (the most of them; the short name
    itself may have meant something else then: "MAE" was a mean absolute error before it was masked
    autoencoders)."""
    keys = [name_key(name) for name, of in names if of == short and name != short] or [name_key(short)]
    return max((bisect_left(mentioned.get(key, []), year) for key in keys), default=0)


class _Years:
    """How many papers the corpus holds before and after a year."""

    def __init__(self, entries: Sequence[Entry]):
        self.sorted = sorted(e.year for e in entries)

    def before(self, year: int) -> int:
        return bisect_left(self.sorted, year)

    def after(self, year: int) -> int:
        return len(self.sorted) - bisect_right(self.sorted, year)

    def witness(self, year: int, later: int | None = None) -> bool:
        """Whether the years before ``year`` hold enough papers to tell that a name ``later`` papers
        mention after it was new in it (``later`` unknown: enough papers alone)."""
        window = self.before(year) - self.before(year - WITNESS_YEARS)
        if window < WITNESS_SHARE * len(self.sorted):
            return False
        return later is None or window * later >= WITNESS_EXPECTED * max(self.after(year), 1)


def _ties(entries: Sequence[Entry], bearers: dict[str, list[int]], memo: NamesMemo | None = None
          ) -> tuple[dict[int, list[tuple[str, str]]], dict[str, str]]:
    """``{paper: [(name, its short name)]}``: short names and long forms that abstracts define, given to
    the earliest paper whose title begins with the long form or is named by it (novelty is the caller's);
    and each defined short name's commonest long form."""
    first_defined: dict[tuple[str, tuple[str, ...]], int] = {}
    shorts: dict[tuple[str, tuple[str, ...]], Counter] = defaultdict(Counter)
    longs: dict[tuple[str, tuple[str, ...]], Counter] = defaultdict(Counter)
    for entry in entries:
        for found in (memo.definitions(entry, definitions) if memo else definitions(entry.abstract)) \
                if entry.abstract else ():
            words = title_words(found.long)
            if sum(w not in STOP for w in words) < MIN_LONG_WORDS:
                continue
            pair = (name_key(found.short), words)
            if not pair[0]:
                continue
            first_defined[pair] = min(first_defined.get(pair, entry.year), entry.year)
            shorts[pair][_singular_short(found.short)] += 1
            longs[pair][found.long] += 1
    starting: dict[tuple[str, ...], list[int]] = defaultdict(list)  # a title's leading phrase, its name, itself
    for i, entry in enumerate(entries):
        title = _ARTICLE.sub("", entry.title)  # "The Lottery Ticket Hypothesis: ..." leads with its long form
        for head in {title_words(title), title_words(title_name(title)), leading(title)}:
            if len(head) >= MIN_LONG_WORDS:
                starting[head].append(i)
    out: dict[int, list[tuple[str, str]]] = defaultdict(list)
    by_short: dict[str, Counter] = defaultdict(Counter)
    for (short_key, _), forms in longs.items():
        by_short[short_key].update(forms)
    long_of = {short_key: forms.most_common(1)[0][0] for short_key, forms in by_short.items()}
    scattered = Scattered([e.title for e in entries], memo.holding if memo else None)
    for pair, defined in first_defined.items():
        short_key, words = pair
        holding = starting.get(words)
        phrase = bool(holding)
        if not holding:
            holding = scattered.holding(words)  # "text-to-text transfer transformer" in the T5 paper's title
        if not holding:
            continue
        first = min(entries[i].year for i in holding)
        if first > defined or defined - first > MAX_GAP:
            continue
        if any(entries[i].year < first for i in bearers.get(short_key, ())):
            continue  # someone named it before
        chosen = [i for i in holding if entries[i].year == first]
        if len({title_words(entries[i].title) for i in chosen}) > 1:
            continue  # two titles of that year begin so: a field's phrase, not one paper's name
        short = shorts[pair].most_common(1)[0][0]
        long = longs[pair].most_common(1)[0][0]
        for i in chosen:  # a long form only scattered in the title is no name the paper goes by
            out[i] += [(short, short), (long, short)] if phrase else [(short, short)]
    return out, long_of


def _singular_short(short: str) -> str:
    """ "GANs" -> "GAN", "ProtoNets" -> "ProtoNet": a name is shown singular."""
    return short[:-1] if len(short) > 2 and short.endswith("s") and name_like(short[:-1]) else short
