"""``rulekb timing``: run scenarios frame by frame, ask what happens next, check citations."""

from __future__ import annotations

import difflib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import click

from kb.cli.app import EXIT_ERROR, EXIT_FINDING, EXIT_OK, edition_option, emit_json, handle_errors, home_of, json_option, main, open_kb
from kb.cli.params import RULESET_NAME
from kb.graph import build_edition
from kb.inputs import loads_json
from kb.limits import TIMING_FILE, LimitExceeded
from kb.query import KnowledgeBase, QueryError
from kb.store import collect_sources
from kb.timing import list_scenarios, load_scenario, scenario_files
from kb.timing.explain import no_counterpart_words
from kb.timing.models import get_model, rulesets
from kb.timing.scenario import ScenarioError, loads

# The CLI's one contract (kb.cli.app): a failed expectation or model check is a finding, a
# scenario or state that cannot be read or run, or a choice that is not legal, an error.
EXIT_FAILED = EXIT_FINDING
EXIT_MALFORMED = EXIT_ERROR


@main.group("timing")
def timing() -> None:
    """The executable timing model: run scenarios, ask what happens next, check citations."""


def timing_kb(ctx: click.Context) -> KnowledgeBase:
    """The built knowledge base, or (before any build) the embedded corpus read in memory."""
    try:
        return open_kb(ctx)
    except QueryError as exc:
        if exc.status != 503:
            raise
    from kb.read import read_document  # the readers load only when no build is there to read
    graphs = []
    for src in collect_sources(home_of(ctx)).editions:
        if src.ruleset in rulesets():
            result, fmt = read_document(src.path, src.format or None)
            graphs.append(build_edition(result, ruleset=src.ruleset, edition=src.name, date=src.date,
                                        partial=src.partial, source=str(src.path), source_format=fmt))
    click.echo("note: no knowledge base is built; quoting rules from the embedded corpus", err=True)
    kb = KnowledgeBase.from_graphs(graphs)
    ctx.find_root().obj["kb"] = kb
    return kb


def _width() -> int:
    return max(60, min(140, shutil.get_terminal_size((110, 20)).columns))


def _clip(line: str, full: bool) -> str:
    width = _width()
    return line if full or len(line) <= width else line[: width - 1] + "…"


def _state_line(state: dict[str, Any]) -> str:
    ruleset = state.get("ruleset")
    if ruleset in rulesets():
        line = get_model(ruleset).state_line
        if line is not None:
            return line(state)
    chain = ", ".join(f"{i['name']} ({i['controller']}, {i['status']})" for i in state["chain"]) or "—"
    parts = [state["turn_state"], f"priority {state['priority'] or '—'}", f"focus {state['focus'] or '—'}",
             f"chain: {chain}"]
    if state.get("tasks"):
        parts.append("tasks: " + ", ".join(state["tasks"]))
    return " · ".join(parts)


def _print_frame(n: int, frame: dict[str, Any], quotes: bool, full: bool, quoted: tuple[str, str] | None = None) -> None:
    """One frame: its summary and rules, the quotes under it (or, ``--no-quotes``, only the
    cited rules that have no counterpart in the edition ``quoted`` = (ruleset, edition), which
    the quotes would have said and the rules list leaves out), then its state."""
    where = "start" if frame["step"] == 0 else f"step {frame['step']}"
    rules = frame["rules"]  # none where every rule a step cites has no counterpart in the edition
    click.echo(click.style(f"#{n:<3}", dim=True) + f" [{where}] " + click.style(frame["summary"], bold=True)
               + (click.style("  " + " ".join(rules[:6]) + (" …" if len(rules) > 6 else ""), dim=True)
                  if rules else ""))
    if quotes:
        for line in frame["why"].splitlines()[1:]:
            click.echo(_clip("      " + line, full))
    elif quoted is not None:
        for gap in frame.get("no_counterpart", []):
            click.echo(_clip(f"      ({no_counterpart_words(quoted[0], gap, quoted[1])})", full))
    click.echo(_clip("      = " + _state_line(frame["state"]), full))


def _print_expectation(e: dict[str, Any]) -> None:
    mark = click.style("✓", fg="green") if e["ok"] else click.style("✗", fg="red", bold=True)
    if e["kind"] == "expect":
        if e["ok"]:
            text = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in e["expected"].items())
        else:
            text = "; ".join(f"{k}: expected {json.dumps(e['expected'][k], ensure_ascii=False)}, "
                             f"got {json.dumps(e['actual'][k], ensure_ascii=False)}" for k in e["failed"])
        click.echo(f"  {mark} step {e['step']} expect {text}")
        return
    forbidding = "; ".join(f"{f['summary']} ({', '.join(f['rules'])})" for f in e.get("forbidden_by", []))
    if e["kind"] == "expect_illegal":
        action = {k: v for k, v in e["expected"].items() if k not in ("illegal", "rules")}
        what = json.dumps(action, ensure_ascii=False)
        if e["ok"]:
            click.echo(f"  {mark} step {e['step']} illegal {what}: {forbidding}")
        elif not e["actual"]["illegal"]:
            click.echo(f"  {mark} step {e['step']} expected {what} to be illegal, but it is legal")
        else:
            click.echo(f"  {mark} step {e['step']} {what} is illegal, but not by rule "
                       f"{', '.join(e['expected'].get('rules', []))}: {forbidding}")
        return
    click.echo(f"  {mark} step {e['step']} is not legal now: {forbidding}")


def no_scenario(name: str) -> str:
    """What ``timing run NAME`` says when NAME is neither a file nor a worked scenario: the
    nearest worked scenarios, as ``timing run`` takes them (``riftbound/NAME``), and where
    they are all listed, instead of every name on one line."""
    names = [f"{f.parent.name}/{f.stem}" for f in scenario_files()]
    bare = name.split("/", 1)[-1]
    near = difflib.get_close_matches(name, names, n=3, cutoff=0.6) or \
        difflib.get_close_matches(bare, [n.split("/", 1)[1] for n in names], n=3, cutoff=0.6)
    near = [n if "/" in n else next(m for m in names if m.endswith("/" + n)) for n in near]
    hint = f"; nearest: {', '.join(near)}" if near else ""
    return (f"no such file, and no worked scenario {name[:200]!r}{hint} "
            f"(`rulekb timing list` names all {len(names)})")


@timing.command("run")
@click.argument("file")
@json_option
@click.option("--quotes/--no-quotes", default=True, help="Quote the rules under each frame (default: yes).")
@click.option("--full", is_flag=True, help="Do not clip long lines.")
@click.pass_context
@handle_errors
def run_cmd(ctx: click.Context, file: str, as_json: bool, quotes: bool, full: bool) -> None:
    """Run a scenario (a YAML file, or a worked scenario such as riftbound/NAME) frame by frame.

    Exits 1 when an expectation fails or a step is illegal, 2 when the scenario is malformed.
    """
    path = Path(file)
    try:
        if path.exists():
            sc = loads(_scenario_text(path), str(path))
            data = sc.data
        else:
            try:
                data = load_scenario(file)
            except KeyError as exc:
                raise ScenarioError(no_scenario(file), file) from exc
    except (ScenarioError, UnicodeDecodeError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_MALFORMED)
    except OSError as exc:  # a directory, a file that cannot be read: named, without Errno
        click.echo(f"error: {file}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_MALFORMED)
    except LimitExceeded as exc:
        click.echo(f"error: {_in_file(exc.message, file)}", err=True)
        sys.exit(EXIT_MALFORMED)
    kb = timing_kb(ctx)
    try:
        result = kb.timing_run(data, file=str(path))
    except QueryError as exc:
        detail = exc.detail if isinstance(exc.detail, dict) else {}
        if exc.status == 422 and "message" in detail:
            click.echo(f"error: {exc.message}", err=True)
            sys.exit(EXIT_MALFORMED)
        if detail.get("field") == "edition":  # an edition the ruleset lacks: the scenario's field
            click.echo(f"error: {file} (edition): {exc.message}", err=True)
            sys.exit(EXIT_MALFORMED)
        if isinstance(exc, LimitExceeded):
            click.echo(f"error: {_in_file(exc.message, file)}", err=True)
            sys.exit(EXIT_MALFORMED)
        raise
    if as_json:
        emit_json(result)
        sys.exit(EXIT_OK if result["ok"] else EXIT_FAILED)
    click.echo(click.style(result["name"], bold=True) + click.style(
        f"  ({result['ruleset']} {result['edition']}, {result['file']})", dim=True))
    expectations = result["expectations"]
    steps = sorted({f["step"] for f in result["frames"]} | {e["step"] for e in expectations})
    n = 0
    for step in steps:
        for frame in (f for f in result["frames"] if f["step"] == step):
            n += 1
            _print_frame(n, frame, quotes, full, (result["ruleset"], result["edition"]))
        for e in (e for e in expectations if e["step"] == step):
            _print_expectation(e)
    if result["error"]:
        click.echo(click.style(f"error: {result['error']['message']}", fg="red"), err=True)
    passed = sum(e["ok"] for e in expectations)
    verdict = click.style("ok", fg="green") if result["ok"] else click.style("FAILED", fg="red", bold=True)
    click.echo(f"{len(result['frames'])} frames, {passed}/{len(expectations)} expectations: {verdict}")
    sys.exit(EXIT_OK if result["ok"] else EXIT_FAILED)


def _in_file(message: str, file: str) -> str:
    """An error about a scenario naming its file first, as every other scenario error does
    (a limit on the file's size names it already)."""
    return message if file in message else f"{file}: {message}"


def _scenario_text(path: Path) -> str:
    """A scenario file's text: refused by its size (``timing.file``) before anything parses it,
    and named with its line and byte when it is not UTF-8 (as ``rulekb link`` names a file)."""
    with path.open("rb") as f:
        data = f.read(TIMING_FILE.value + 1)
        if len(data) > TIMING_FILE.value:
            # A pipe or FIFO has no size to stat (0): what was read is over the limit already.
            TIMING_FILE.check(max(path.stat().st_size, len(data)), str(path))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ScenarioError(f"not UTF-8 text (byte {exc.start})", str(path), line=line) from exc


def _read_state(given: str) -> Any:
    """The state ``--state`` names: inline JSON, ``-`` (stdin) or a file; exits 2 with one
    line naming the place when it cannot be read or is not JSON."""
    inline = given.lstrip().startswith("{")
    where = "the --state JSON" if inline else "<stdin>" if given == "-" else given
    try:
        text = given if inline else sys.stdin.read() if given == "-" else \
            Path(given).read_text(encoding="utf-8")
        # 64 levels at most (input.nesting); no lone surrogates (undecodable bytes of an
        # inline argument arrive as them).
        return loads_json(text, where)
    except QueryError as exc:
        click.echo(f"error: {exc.message}", err=True)
    except json.JSONDecodeError as exc:
        click.echo(f"error: {where}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}", err=True)
    except FileNotFoundError:
        click.echo(f"error: no such file: {given} (--state takes a JSON file, '-' for stdin, "
                   "or the JSON itself starting with '{')", err=True)
    except IsADirectoryError:
        click.echo(f"error: {given} is a directory; --state takes a JSON file", err=True)
    except OSError as exc:
        click.echo(f"error: cannot read {given}: {exc.strerror or exc}", err=True)
    except UnicodeDecodeError as exc:
        click.echo(f"error: {where}: not UTF-8 text (byte {exc.start})", err=True)
    sys.exit(EXIT_MALFORMED)


def _read_action(given: str, n: int) -> Any:
    """The ``n``-th ``--choose`` action as JSON (an option's ``action``); exits 2 naming it otherwise."""
    try:
        action = loads_json(given, f"--choose {n}")
    except QueryError as exc:
        click.echo(f"error: {exc.message}", err=True)
    except json.JSONDecodeError as exc:
        click.echo(f"error: --choose {n}: not valid JSON ({exc.msg} at column {exc.colno}); give an option's "
                   "action, e.g. '{\"pass\": \"Ann\"}'", err=True)
    else:
        if isinstance(action, dict) and len(action) == 1:
            return action
        click.echo(f"error: --choose {n}: an action is a JSON object of one key, e.g. '{{\"pass\": \"Ann\"}}'",
                   err=True)
    sys.exit(EXIT_MALFORMED)


def _next_choice(kb: KnowledgeBase, answer: dict[str, Any], action: Any, n: int) -> dict[str, Any]:
    """The answer after taking ``action`` (the ``n``-th choice) from the state ``answer`` reached."""
    try:
        return kb.timing_next(answer["state"], ruleset=answer["ruleset"], edition=answer["edition"], choose=action)
    except QueryError as exc:
        if isinstance(exc.detail, dict):
            exc.detail["choice"] = n
        raise


@timing.command("next")
@click.option("--state", "state_file", required=True, metavar="FILE|-|JSON",
              help="The state: a JSON file, '-' for stdin, or the JSON itself (starting with "
                   "'{'). Any frame's state object from `timing run --json` is valid.")
@click.option("--ruleset", "-r", default=None, type=RULESET_NAME,
              help="Ruleset of the state (default: its 'ruleset' or riftbound).")
@edition_option
@json_option
@click.option("--choose", "choices", multiple=True, metavar="ACTION",
              help="Take this legal option (its action as JSON, as `--json` lists it, e.g. "
                   "'{\"pass\": \"Ann\"}') at the decision reached, then go on; repeat it for a path of choices.")
@click.option("--full", is_flag=True, help="Do not clip long lines.")
@click.pass_context
@handle_errors
def next_cmd(ctx: click.Context, state_file: str, ruleset: str | None, edition: str | None,
             choices: tuple[str, ...], as_json: bool, full: bool) -> None:
    """What happens next: the automatic steps, then who decides and every option, with the rules.

    With --choose, each option is taken in turn and the answer is what happens after the last
    (exits 2 naming the rules when one is not legal there)."""
    data = _read_state(state_file)
    actions = [_read_action(c, i) for i, c in enumerate(choices, start=1)]
    kb = timing_kb(ctx)
    try:
        out = kb.timing_next(data, ruleset=ruleset, edition=edition, choose=actions[0] if actions else None)
        for i, action in enumerate(actions[1:], start=2):
            out = _next_choice(kb, out, action, i)
    except QueryError as exc:
        if exc.status == 422 and isinstance(exc.detail, dict) and exc.detail.get("field") == "choose":
            click.echo(f"error: --choose {exc.detail.get('choice', 1)}: {exc.message}", err=True)
            for option in exc.detail.get("options", []):
                click.echo(f"    --choose '{json.dumps(option)}'", err=True)
            sys.exit(EXIT_MALFORMED)
        if exc.status in (400, 422) and isinstance(exc.detail, dict) and exc.detail.get("violations"):
            click.echo(f"error: {exc.message}", err=True)
            for v in exc.detail["violations"]:
                for q in v["quotes"]:
                    click.echo(_clip(f"    {q['rule']}  {q['text'] or '(' + q.get('missing', '') + ')'}", full),
                               err=True)
            sys.exit(EXIT_MALFORMED)
        raise
    if as_json:
        emit_json(out)
        return
    if out.get("chosen"):
        click.echo(click.style(f"Chosen: {out['chosen']['label']}", bold=True) + "  "
                   + click.style(" ".join(out["chosen"]["rules"][:5]), dim=True))
    for i, frame in enumerate(out["steps"], start=1):
        _print_frame(i, frame, True, full)
    if out["end"]:
        click.echo(click.style(out["end"]["reason"], bold=True) + "  " + " ".join(out["end"]["rules"]))
        return
    d = out["decision"]
    click.echo(click.style(f"{d['decider']} decides.", bold=True) + " Legal options:")
    for o in d["options"]:
        click.echo(f"  - {o['label']}  " + click.style(" ".join(o["rules"][:5]), dim=True))
    if d["illegal"]:
        click.echo("Not legal now:")
        for o in d["illegal"]:
            click.echo(f"  - {o['label']}")
            for line in o["why"].splitlines():
                click.echo(_clip("      " + line, full))


@timing.command("check")
@click.option("--ruleset", "-r", default="riftbound", show_default=True, type=RULESET_NAME,
              help="Ruleset of the model.")
@edition_option
@json_option
@click.pass_context
@handle_errors
def check_cmd(ctx: click.Context, ruleset: str, edition: str | None, as_json: bool) -> None:
    """Check the model's citations against an edition and report coverage.

    Fails when a cited number does not exist in a complete edition; for a partial edition
    (the embedded excerpt) it lists the cited rules the corpus lacks. In an edition the model
    does not cite directly, its citations are carried through the edition mapping and the
    transitions with no counterpart there are listed.
    """
    out = timing_kb(ctx).timing_check(ruleset, edition)
    if as_json:
        emit_json(out)
        sys.exit(EXIT_OK if out["ok"] else EXIT_FAILED)
    kind = "excerpt" if out["partial"] else "complete"
    click.echo(f"{out['ruleset']} {out['edition']} ({kind}): {out['citations']} rules cited by "
               f"{out['names']} transitions, checks and invariants")
    if out.get("carried_from"):
        gaps = out["no_counterpart"]
        click.echo(f"  citations carried from edition {out['carried_from']} through the edition mapping; "
                   f"{len(gaps)} have no counterpart here:")
        for g in gaps:
            near = g.get("nearest") or {}
            hint = f" (nearest: {near['number']} → {near['target']})" if near.get("target") else ""
            status = f"added after {out['edition']}" if g["status"] == "added" else g["status"]
            click.echo(f"    {g['name']}: {out['carried_from']} rule {g['rule']} {status}{hint}")
    for u in out["unknown"]:
        near = f" (nearest: {', '.join(u['nearest'])})" if u.get("nearest") else ""
        click.echo(click.style(f"  unknown rule {u['rule']}", fg="red") + f" cited by {', '.join(u['cited_by'])}{near}")
    if out["lacking"]:
        click.echo(f"  the loaded corpus lacks {len(out['lacking'])} cited rules: "
                   + ", ".join(x["rule"] for x in out["lacking"]))
    cov = out["coverage"]
    click.echo(f"coverage: {cov['cited']}/{cov['rules']} rules cited")
    for r in cov["ranges"]:
        click.echo(f"  {r['range']}: {r['cited']}/{r['rules']}" + (f"  uncited: {', '.join(r['uncited'])}"
                                                                   if r["uncited"] else ""))
    verdict = click.style("ok", fg="green") if out["ok"] else click.style("FAILED", fg="red", bold=True)
    click.echo(verdict)
    sys.exit(EXIT_OK if out["ok"] else EXIT_FAILED)


@timing.command("list")
@click.option("--ruleset", "-r", default=None, type=RULESET_NAME, help="Only this ruleset's scenarios.")
@json_option
@handle_errors
def list_cmd(ruleset: str | None, as_json: bool) -> None:
    """List the worked scenarios that ship with rulekb.

    A ruleset with no timing model is refused, naming those that have one."""
    if ruleset is not None and ruleset not in rulesets():
        raise click.BadParameter(f"no timing model for ruleset {ruleset!r} (models: {', '.join(sorted(rulesets()))})",
                                 param_hint="'--ruleset' / '-r'")
    data = list_scenarios(ruleset)
    if as_json:
        emit_json(data)
        return
    for s in data:
        click.echo(f"{s['ruleset']}/{s['name']}\n    {s['title']}")
