"""A user's .bib read for the BibTeX upgrade (issue 48): its entries, what each cites, what could not be read.

bibtexparser 2 reads the file (``@string`` macros resolved, comments and ``@preamble`` kept as blocks); each
entry keeps its text exactly as written (``raw``), so whatever is not upgraded leaves as it came. What an
entry cites is decided here:

- it **cites a venue** when it has a ``booktitle``, or a ``journal`` that is not a preprint server (arXiv,
  CoRR, bioRxiv, ...), or is a kind that only published work has (a book, a thesis, a chapter): left as it is;
- otherwise it is a preprint (``@article{journal = {arXiv preprint ...}}``, ``@misc{eprint = ...}``, a bare
  ``@misc``): its :class:`~services.search.answers.venue_match.CitedWork` (title and first author's surname
  TeX-decoded by bibtexparser's own middlewares, the year's first four digits) is looked up.

A block bibtexparser cannot read (unbalanced braces, a repeated key) is numbered in its place among the
entries and passed through. Input that is no BibTeX at all (not UTF-8, NUL bytes, no ``@kind{``) or larger
than :data:`~services.search.limits.MAX_BIBTEX_BYTES` / :data:`~services.search.limits.MAX_BIBTEX_ENTRIES` is
refused before it is parsed (:class:`BibInputError`): a file of half a million ``@a{`` takes bibtexparser
minutes, a count of its block starts microseconds.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import bibtexparser
from bibtexparser import middlewares
from bibtexparser.library import Library
from bibtexparser.middlewares.names import split_multiple_persons_names
from bibtexparser.model import Block, DuplicateBlockKeyBlock, Entry, Field, ParsingFailedBlock

from services.search.answers.venue_match import CitedWork
from services.search.limits import MAX_BIBTEX_BYTES, MAX_BIBTEX_ENTRIES

# The start of a block: "@article{", "@misc (" — also what the API's OpenAPI pattern asks a body to hold.
BLOCK_START = re.compile(r"@[ \t\r\n]*[A-Za-z]+[ \t\r\n]*[{(]")
_NOT_ENTRIES = frozenset(("string", "comment", "preamble"))
_PREPRINT = re.compile(r"arxiv|\bcorr\b|preprint|biorxiv|medrxiv|chemrxiv|techrxiv|ssrn|openreview|"
                       r"research\s*square|submitted|under review|in press", re.IGNORECASE)
# Kinds whose work was published as that (a book, a thesis, a chapter, a proceedings paper without booktitle).
_PUBLISHED_KINDS = frozenset(("book", "inbook", "incollection", "inproceedings", "conference", "proceedings",
                              "phdthesis", "mastersthesis", "thesis", "patent", "manual"))
_YEAR = re.compile(r"\b(1[89]\d\d|2\d\d\d)\b")
_TEX = re.compile(r"[\\$~]")  # what only the TeX decoder reads right; braces alone are just dropped


class BibInputError(ValueError):
    """A .bib the upgrade does not read: ``status`` 400 (not BibTeX) or 413 (over a limit)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


@dataclass(frozen=True)
class BibEntry:
    """One entry (or unreadable block) of the file, numbered from 1 in file order."""

    number: int
    raw: str
    key: str = ""
    kind: str = ""  # the entry type, lower-cased ("" for a block that could not be read)
    fields: tuple[tuple[str, str], ...] = ()  # (name lower-cased, value as written, enclosing braces off)
    work: CitedWork | None = None  # what is looked up; None when it cites a venue already (or is unreadable)
    problem: str = ""  # why it could not be read

    @property
    def readable(self) -> bool:
        return not self.problem

    def field(self, name: str) -> str:
        return next((value for key, value in self.fields if key == name), "")


def decode_text(data: bytes, charset: str | None = None) -> str:
    """The body as text: UTF-8 (or the declared charset), within the byte limit; else :class:`BibInputError`."""
    if len(data) > MAX_BIBTEX_BYTES:
        raise BibInputError(f"The .bib is {len(data):,} bytes; the limit is {MAX_BIBTEX_BYTES:,} bytes (1 MB).", 413)
    try:
        text = data.decode(charset or "utf-8")
    except (UnicodeDecodeError, LookupError):
        raise BibInputError("This is not BibTeX text: it is binary, or not UTF-8.") from None
    return text.removeprefix("\ufeff")


def read_bib(text: str) -> list[BibEntry]:
    """The entries of ``text`` (see the module docstring); :class:`BibInputError` when it is no .bib to read."""
    if "\x00" in text:
        raise BibInputError("This is not BibTeX text: it holds NUL bytes (a binary file?).")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BIBTEX_BYTES:
        raise BibInputError(f"The .bib is over the limit of {MAX_BIBTEX_BYTES:,} bytes (1 MB).", 413)
    starts = [m.group(0) for m in BLOCK_START.finditer(text)]
    if not starts:
        raise BibInputError("This is not BibTeX: no entry such as @article{key, ...} was found.")
    blocks = sum(1 for s in starts if s[1:].strip(" \t\r\n{(").lower() not in _NOT_ENTRIES)
    if blocks > MAX_BIBTEX_ENTRIES:
        raise BibInputError(f"The .bib has {blocks:,} entries; the limit is {MAX_BIBTEX_ENTRIES:,}.", 413)
    logging.getLogger("bibtexparser").setLevel(logging.ERROR)  # a failed block is reported to the user instead
    library = bibtexparser.parse_string(text)
    numbered = [b for b in library.blocks if isinstance(b, (Entry, ParsingFailedBlock))]
    works = _works([b for b in numbered if isinstance(b, Entry) and not _cites_venue(b)])
    return [_entry(n, block, works.get(id(block))) for n, block in enumerate(numbered, 1)]


def _entry(number: int, block: Block, work: CitedWork | None) -> BibEntry:
    if isinstance(block, ParsingFailedBlock):
        problem = (f"the key {block.key!r} is used by an earlier entry" if isinstance(block, DuplicateBlockKeyBlock)
                   else "it could not be read (an unbalanced brace or quote, or a missing comma?)")
        return BibEntry(number, block.raw, key=getattr(block, "key", "") or "", problem=problem)
    assert isinstance(block, Entry)
    fields = tuple((f.key.lower(), str(f.value)) for f in block.fields)
    return BibEntry(number, block.raw, block.key, block.entry_type.lower(), fields, work)


def _cites_venue(entry: Entry) -> bool:
    values = {f.key.lower(): str(f.value) for f in entry.fields}
    if any(values.get(name) and not _PREPRINT.search(values[name]) for name in ("booktitle", "journal")):
        return True
    return entry.entry_type.lower() in _PUBLISHED_KINDS and not any(_PREPRINT.search(v) for v in values.values())


def _works(entries: list[Entry]) -> dict[int, CitedWork]:
    """What each preprint entry cites: its title and first author TeX-decoded by bibtexparser's middlewares, in
    one small library of those two fields (the decoder is slow, 0.6 ms a value: a value without TeX only loses
    its braces)."""
    small = Library([Entry(e.entry_type, e.key, [Field("title", _field(e, "title")), Field("author", _first(e))])
                     for e in entries])
    tex = Library([e for e in small.entries if any(_TEX.search(str(f.value)) for f in e.fields)])
    middlewares.LatexDecodingMiddleware().transform(tex)  # in place: these entries are the small library's
    decoded_ids = {id(e) for e in tex.entries}
    for entry in small.entries:
        if id(entry) not in decoded_ids:
            for f in entry.fields:
                f.value = str(f.value).replace("{", "").replace("}", "")
    named = middlewares.SplitNameParts().transform(middlewares.SeparateCoAuthors().transform(small))
    out = {}
    for original, decoded in zip(entries, named.entries, strict=True):
        authors = decoded.fields_dict["author"].value
        first = authors[0] if isinstance(authors, list) and authors else None
        surname = " ".join([*first.von, *first.last]) if first and not _is_others(first) else ""
        year = _YEAR.search(_field(original, "year"))
        out[id(original)] = CitedWork(title=" ".join(str(decoded["title"]).split()), surname=surname,
                                      year=int(year.group(1)) if year else None)
    return out


def _field(entry: Entry, name: str) -> str:
    return next((str(f.value) for f in entry.fields if f.key.lower() == name), "")


def _first(entry: Entry) -> str:
    """The first author as written (only they are checked, and only they need decoding)."""
    names = split_multiple_persons_names(_field(entry, "author"))
    return names[0] if names else ""


def _is_others(name: middlewares.NameParts) -> bool:
    return not name.first and [w.lower() for w in name.last] in (["others"], ["al."], ["et", "al."], ["al"])
