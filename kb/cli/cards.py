"""``rulekb cards``: the user's own card list, which search reads card names with.

No card data is shipped: ``rulekb cards import FILE`` keeps a JSON or CSV file's cards (name,
type, keywords, text) for one ruleset in the data home (``<home>/cards/<ruleset>.json``), and
``rulekb search`` then reads a card named in a question into its type, keywords and text's
game terms (see :mod:`kb.search.cards`). A running server sees an import at once.
"""

from __future__ import annotations

from pathlib import Path

import click

from kb.cli.app import CommandError, counted, emit_json, handle_errors, home_of, json_option, main
from kb.cli.params import RULESET_NAME, PathType
from kb.search.cards import cards_path, load_cards, read_card_file, save_cards
from kb.store import collect_sources


def _ruleset(home: Path, ruleset: str | None) -> str:
    """The ruleset named, checked against the rulesets rulekb knows (default: riftbound,
    or the only one)."""
    known = sorted(collect_sources(home).rulesets)
    if ruleset is None:
        if "riftbound" in known or not known:
            return "riftbound"
        if len(known) == 1:
            return known[0]
        raise CommandError(f"name the ruleset with --ruleset ({', '.join(known)})")
    if ruleset not in known:
        raise CommandError(f"no ruleset {ruleset!r}; the rulesets are {', '.join(known)}")
    return ruleset


ruleset_option = click.option("--ruleset", "-r", default=None, type=RULESET_NAME,
                              help="Ruleset the cards belong to (default: riftbound, or the only one).")


@main.group("cards")
def cards_group() -> None:
    """Your own card list: search then reads a card named in a question (its type, keywords
    and its text's game terms). No card data is shipped."""


@cards_group.command("import")
@click.argument("file", type=PathType(exists=True, dir_okay=False, path_type=Path))
@ruleset_option
@click.pass_context
@handle_errors
def import_cards_cmd(ctx: click.Context, file: Path, ruleset: str | None) -> None:
    """Import a card list (JSON: a list of {name, type, keywords, text}; CSV: a header row
    naming those columns, keywords separated by ';'), replacing the ruleset's cards.

    Every card needs a name and a type. A bad file (a quote left open, a header without name
    or type, a card without a type) changes nothing and is refused with each problem's row
    and field."""
    home = home_of(ctx)
    name = _ruleset(home, ruleset)
    notes: list[str] = []
    cards = read_card_file(file, notes)
    before = load_cards(home, name)
    target = save_cards(home, name, cards, file.name)
    replaced = (f", replacing the {counted(len(before.cards), 'card')} from {before.source}"
                if before is not None and before.cards else "")
    click.echo(f"imported {counted(len(cards), 'card')} of {name} from "
               f"{file.name}{replaced} ({target})")
    for note in notes:
        click.echo(f"note: {note}")


@cards_group.command("list")
@ruleset_option
@json_option
@click.pass_context
@handle_errors
def list_cards_cmd(ctx: click.Context, ruleset: str | None, as_json: bool) -> None:
    """List the imported cards of a ruleset: name, type and keywords."""
    home = home_of(ctx)
    name = _ruleset(home, ruleset)
    found = load_cards(home, name)
    if found is None and cards_path(home, name).exists():
        raise CommandError(f"the kept card list {cards_path(home, name)} does not read (edited by "
                           f"hand?): import the card file again (rulekb cards import FILE --ruleset {name})")
    if as_json:
        emit_json({"ruleset": name, "source": found.source if found else None,
                   "imported": found.imported if found else None,
                   "cards": [c.as_dict() for c in found.cards] if found else []})
        return
    if found is None:
        click.echo(f"no cards imported for {name} (rulekb cards import FILE --ruleset {name}); "
                   f"expected at {cards_path(home, name)}")
        return
    click.echo(click.style(f"{name}: {len(found.cards)} cards from {found.source} "
                           f"(imported {found.imported})", dim=True))
    for card in found.cards:
        details = "; ".join(p for p in (card.type, ", ".join(card.keywords)) if p)
        click.echo(card.name + (click.style(f"  ({details})", dim=True) if details else ""))
