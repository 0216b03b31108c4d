"""``paperlist people``: an operator's questions about who is who, and the check of their corrections.

The people pass decides a person for every author place (a *slot*: ``paper id#position``); an
operator who disagrees writes an override into ``overrides.toml`` (split, merge, name). These
commands are the tools for that loop, and they write nothing:

* ``slots PAPER_ID`` lists a paper's slots with the person each holds, to copy into the file;
* ``explain SLOT SLOT`` decides the index's people as the pass would and says why the two slots
  are one person or two (a shared profile id, a rule, or the score and each feature's pull);
* ``overrides [FILE]`` reads the file as the pass will and decides with it, naming every entry
  that matches nothing, so a correction is checked before it is committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from elasticsearch import NotFoundError

from services.indexer.corpus.people.curation import OverridesError, load_overrides, slot_ref
from services.indexer.corpus.people.explain import explain as explain_pair
from services.indexer.corpus.people.index_pass import OVERRIDES, decide_alias
from services.search.engine.client import make_client

from .common import EXIT_FAILURE, EXIT_NOTHING_READ, console, err_console, friendly, settings

READ_TIMEOUT = 120  # seconds per request: the decision reads the whole alias


def _slot(_ctx, _param, value: str) -> tuple[str, int]:
    try:
        return slot_ref(value)
    except ValueError as exc:
        raise click.BadParameter(f"{exc}; `paperlist people slots PAPER_ID` lists a paper's") from None


@click.group()
def people() -> None:
    """Who wrote each author place: look, ask why, check the operator's overrides."""


@people.command()
@click.argument("paper_id")
@friendly
def slots(paper_id: str) -> None:
    """List PAPER_ID's author places (slots) and the person the index gives each."""
    config = settings()
    try:
        paper = make_client(config).get(index=config.index, id=paper_id, _source=["title", "authors", "author_ids"])
    except NotFoundError:
        err_console.print(f"[red]error:[/red] no paper {paper_id!r} in {config.index}")
        sys.exit(EXIT_NOTHING_READ)
    source = paper["_source"]
    ids = source.get("author_ids") or []
    console.print(source.get("title") or "(untitled)")
    for place, author in enumerate(source.get("authors") or []):
        person = ids[place] if place < len(ids) and ids[place] else "(not decided yet)"
        console.print(f"  {paper_id}#{place}  {author.get('name') or '':32s} {person}")


@people.command()
@click.argument("slot_a", callback=_slot)
@click.argument("slot_b", callback=_slot)
@friendly
def explain(slot_a: tuple[str, int], slot_b: tuple[str, int]) -> None:
    """Why SLOT_A and SLOT_B (paper id#position) are one person or two: the evidence and the score."""
    config = settings()
    overrides = _overrides(OVERRIDES)
    with console.status(f"deciding the people of {config.index} (the whole alias, as the pass does)"):
        reading = decide_alias(make_client(config, request_timeout=READ_TIMEOUT), config.index, overrides)
    try:
        answer = explain_pair(reading.decision, slot_a, slot_b, reading.vectors)
    except KeyError as exc:
        err_console.print(f"[red]error:[/red] {exc.args[0]} in {config.index}")
        sys.exit(EXIT_NOTHING_READ)
    names = {s.key: s.name for s in reading.decision.slots}
    for label, key in (("A", slot_a), ("B", slot_b)):
        stored = reading.stored.get(key, "(not decided yet)")
        console.print(f"{label}  {key[0]}#{key[1]}  {names[key]}  (person {stored})")
    console.print(answer.to_text())


@people.command()
@click.argument("path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@friendly
def overrides(path: Path | None) -> None:
    """Check the overrides file (the shipped one unless PATH) against the index, as the pass will apply it."""
    path = path or OVERRIDES
    if not path.exists():
        err_console.print(f"[red]error:[/red] no overrides file at {path}")
        sys.exit(EXIT_NOTHING_READ)
    parsed = _overrides(path)
    console.print(f"{path}: {len(parsed.splits)} split(s), {len(parsed.merges)} merge(s), {len(parsed.names)} name(s)")
    if not parsed:
        return
    config = settings()
    with console.status(f"deciding the people of {config.index} with these overrides"):
        reading = decide_alias(make_client(config, request_timeout=READ_TIMEOUT), config.index, parsed)
    for person, display in sorted(reading.decision.names.items()):
        console.print(f"  {person} is shown as {display!r}")
    for problem in reading.decision.skipped:
        err_console.print(f"[yellow]skipped:[/yellow] {problem}")
    if reading.decision.skipped:
        sys.exit(EXIT_NOTHING_READ)
    console.print("every entry applies")


def _overrides(path: Path):
    try:
        return load_overrides(path)
    except OverridesError as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        sys.exit(EXIT_FAILURE)
