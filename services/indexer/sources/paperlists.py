"""The paperlists reader: files (``.json``, ``.json.gz``), folders and http(s) URLs.

A broken file does not sink its neighbours: a JSON array cut or corrupted in the
middle still yields the records that can be decoded, and each unreadable stretch is
reported with its reason.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import requests

from services.search.catalogue import venues

from . import paperlists_mapping
from .base import Origin, RawRecord, SourceError, SourceRead

FORMAT = "paperlists"  # this reader's name in every Origin it makes
MAX_DOWNLOAD = 512 * 1024 * 1024
# Characters of one string value in a record: far above any real field (abstracts are a few
# thousand), low enough that one absurd record is not carried through Celery and Redis.
MAX_FIELD_CHARS = 1_000_000
SUFFIXES = (".json", ".json.gz")
# Where the next record starts after damage: an object opening with a key right after an
# array comma. A raw ``"`` cannot occur inside a JSON string, and a nested object follows
# a colon, so this matches neither inside a record nor in a BibTeX field's braces.
_NEXT_RECORD = re.compile(r'[,\[]\s*(\{\s*")')
_YEAR_IN_NAME = re.compile(r"(19|20)\d\d")


@dataclass
class LoadedSource:
    """Records of one file, each with its position in the array, and what could not be read."""

    location: str
    records: list[tuple[int, object]] = field(default_factory=list)
    errors: list[tuple[int | None, str]] = field(default_factory=list)


def is_url(value: str) -> bool:
    return urlsplit(value).scheme in ("http", "https")


def expand(sources: Sequence[str]) -> Iterator[str]:
    """Every file behind the given sources, folders searched recursively in name order."""
    for source in sources:
        if is_url(source):
            yield source
            continue
        path = Path(source)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.name.lower().endswith(SUFFIXES))
            if not found:
                raise SourceError(f"{source}: no .json or .json.gz files in this folder")
            yield from (str(p.resolve()) for p in found)
        elif path.is_file():
            yield str(path.resolve())
        else:
            raise SourceError(f"{source}: no such file, folder or http(s) URL")


class PaperlistsReader:
    """JSON arrays of paperlists records; conference and year also from the file name."""

    format = FORMAT

    def accepts(self, source: str) -> bool:
        return True  # the one format so far; a second reader would look at suffix or content

    def locations(self, source: str) -> Iterator[str]:
        return expand([source])

    def origin(self, location: str, position: int) -> Origin:
        return origin_from_path(location, position)

    def read(self, location: str) -> SourceRead:
        return self.read_loaded(load(location))

    def read_content(self, location: str, raw: bytes) -> SourceRead:
        """The records of ``raw``, the bytes of ``location`` already fetched (a followed source's poll)."""
        return self.read_loaded(decode(location, raw))

    def read_loaded(self, loaded: LoadedSource) -> SourceRead:
        location = loaded.location
        origin = self.origin(location, 0)
        read = SourceRead(location, origin, errors=loaded.errors)
        read.records = [RawRecord(Origin(location, pos, origin.conference, origin.year, format=self.format), data)
                        for pos, data in loaded.records]
        return read

    key_fields = staticmethod(paperlists_mapping.key_fields)
    fields = staticmethod(paperlists_mapping.fields)
    prior_fields = staticmethod(paperlists_mapping.prior_fields)


def origin_from_path(source: str, position: int) -> Origin:
    """``.../nips/nips2018.json.gz`` -> conference ``neurips``, year 2018."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    stem = re.sub(r"\.json(\.gz)?$", "", name, flags=re.IGNORECASE)
    years = list(_YEAR_IN_NAME.finditer(stem))
    year = int(years[-1].group(0)) if years else None
    conf = stem[: years[-1].start()] if years else stem
    if not conf.strip("-_ ") and "/" in source:
        conf = source.rstrip("/").rsplit("/", 2)[-2]
    return Origin(source, position, venues.canonical_slug(conf) if conf else "", year, format=FORMAT)


def load(location: str, timeout: float = 60.0) -> LoadedSource:
    """Read one source; raises :class:`SourceError` only when nothing at all can be read."""
    return decode(location, _fetch(location, timeout) if is_url(location) else _read(location))


def decode(location: str, raw: bytes) -> LoadedSource:
    """The records of a file's bytes (gzip or not); raises :class:`SourceError` only when nothing can be read."""
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise SourceError(f"{location}: damaged gzip data ({exc})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = raw.decode("utf-8", errors="replace")
        loaded = parse_array(location, text)
        loaded.errors.insert(0, (None, f"invalid UTF-8 at byte {exc.start}; bad bytes replaced"))
        return loaded
    return parse_array(location, text)


def parse_array(location: str, text: str) -> LoadedSource:
    loaded = LoadedSource(location)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _salvage(loaded, text, exc)
    except RecursionError:  # nested too deeply somewhere: decode record by record
        return _salvage(loaded, text, None)
    if isinstance(data, dict) and isinstance(data.get("papers"), list):
        data = data["papers"]
    if not isinstance(data, list):
        raise SourceError(f"{location}: expected a JSON array of records, found {type(data).__name__}")
    for position, record in enumerate(data):
        _keep(loaded, position, record)
    return loaded


def _keep(loaded: LoadedSource, position: int, record: object) -> None:
    """Add the record, or its rejection when a value is absurdly large."""
    if isinstance(record, dict):
        for key, value in record.items():
            if isinstance(value, str) and len(value) > MAX_FIELD_CHARS:
                loaded.errors.append((position, f"field {str(key)[:40]!r} has {len(value):,} characters "
                                                f"(at most {MAX_FIELD_CHARS:,})"))
                return
    loaded.records.append((position, record))


def _salvage(loaded: LoadedSource, text: str, first: json.JSONDecodeError | None) -> LoadedSource:
    """Decode the array element by element, skipping to the next record after damage."""
    decoder = json.JSONDecoder()
    start = text.find("[")
    if start < 0:
        where = f" ({first.msg} at line {first.lineno} column {first.colno})" if first else ""
        raise SourceError(f"{loaded.location}: not JSON{where}")
    pos, position = start + 1, 0
    while True:
        pos = _skip(text, pos)
        if pos >= len(text):
            loaded.errors.append((None, "the file ends before the closing ]: it may be truncated"))
            break
        if text[pos] == "]":
            break
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            line = text.count("\n", 0, exc.pos) + 1
            loaded.errors.append((position, f"invalid JSON at line {line}: {exc.msg}"))
            position += 1
            nxt = _NEXT_RECORD.search(text, max(exc.pos - 1, pos))
            if not nxt:
                break
            pos = nxt.start(1)
            continue
        except RecursionError:
            loaded.errors.append((position, "JSON nested too deeply"))
            position += 1
            nxt = _NEXT_RECORD.search(text, pos + 1)
            if not nxt:
                break
            pos = nxt.start(1)
            continue
        _keep(loaded, position, value)
        position += 1
        pos = end
    return loaded


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n,":
        pos += 1
    return pos


def _read(location: str) -> bytes:
    try:
        return Path(location).read_bytes()
    except OSError as exc:
        raise SourceError(f"{location}: {exc.strerror or exc}") from None


def _fetch(url: str, timeout: float) -> bytes:
    try:
        with requests.get(url, timeout=timeout, stream=True) as resp:
            if resp.status_code != 200:
                raise SourceError(f"{url}: HTTP {resp.status_code}")
            chunks, size = [], 0
            for chunk in resp.iter_content(1 << 20):
                size += len(chunk)
                if size > MAX_DOWNLOAD:
                    raise SourceError(f"{url}: larger than {MAX_DOWNLOAD >> 20} MB")
                chunks.append(chunk)
            return b"".join(chunks)
    except requests.RequestException as exc:
        raise SourceError(f"{url}: {exc.__class__.__name__}: {exc}") from None
