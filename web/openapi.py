"""The one description of the JSON API: routes, parameters and response schemas.

Every API view is declared with :func:`endpoint` (method, path, parameters, request and
response schemas, the error statuses it can answer, examples). From that one description:

- the view is registered on its blueprint, and its query and path parameters are parsed and
  checked against their schemas before it runs (:func:`parse_parameters`, 400 on a bad one);
- request bodies are checked against their schema (:func:`body_validator`, 422);
- :func:`document` writes the OpenAPI 3.1 document served at ``/api/openapi.json``;
- the tests validate every response against :func:`response_validator`.

Schemas are JSON Schema 2020-12 (what OpenAPI 3.1 uses), kept in :data:`SCHEMAS`.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, request
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from kb.errors import QueryError
from kb.limits import NESTING_DEPTH, REQUEST_BYTES, Limit, table as limits_table

API_VERSION = "1"
SPEC_URI = "urn:rulekb:openapi"

# -- schema helpers --------------------------------------------------------------------


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"oneOf": [schema, {"type": "null"}]}


def array(items: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, **extra}


def obj(required: dict[str, Any], optional: dict[str, Any] | None = None,
        description: str = "", closed: bool = True) -> dict[str, Any]:
    """An object schema: ``required`` properties always present, ``optional`` ones may be.

    Closed objects (no other properties) make the schema catch a response that grew a field
    nobody documented; open ones are for shapes owned by a library (a timing state).
    """
    out: dict[str, Any] = {"type": "object", "properties": {**required, **(optional or {})},
                           "required": list(required)}
    if closed:
        out["additionalProperties"] = False
    if description:
        out["description"] = description
    return out


STR = {"type": "string"}
INT = {"type": "integer"}
NAT = {"type": "integer", "minimum": 0}
BOOL = {"type": "boolean"}
NAME_PATTERN = r"^[a-z0-9][a-z0-9._-]{0,63}$"
DATE_PATTERN = r"^\d{4}-\d{2}-\d{2}$"
# What kb.numbers.parse_number accepts ("337.1.a", "337.1a", "rule 337.1.a.", "CR 116.3d"),
# written without look-behinds so every JSON Schema tool can use it.
NUMBER_PATTERN = (r"^ *(?:(?:[Cc]omprehensive +)?[Rr][Uu][Ll][Ee][Ss]? *|[Cc][Rr] *|[Rr]\.? *|§ *)?"
                  r"[0-9]{1,3}[A-Za-z]{0,2}(?:\.(?:[0-9]{1,3}[A-Za-z]{0,2}|[A-Za-z]{1,2}))*\.? *$")
# The rule lookup reads more (kb.numbers.parse_lookup_number): 337.1(a), 337.1 a, and a head
# longer than any rule's (9999.9: a rule that does not exist, answered 404 with the nearest).
LOOKUP_NUMBER_PATTERN = (r"^ *(?:(?:[Cc]omprehensive +)?[Rr][Uu][Ll][Ee][Ss]? *|[Cc][Rr] *|[Rr]\.? *|§ *)?"
                         r"[0-9]{1,12}[A-Za-z]{0,2}(?:\.(?:[0-9]{1,3}[A-Za-z]{0,2}|[A-Za-z]{1,2})"
                         r"| *\.? *\( *(?:[0-9]{1,3}|[A-Za-z]{1,2}) *\))*(?: +[A-Za-z])?\.? *$"
                         # and a number typed with a dot dropped, doubled or misplaced (3371a,
                         # 337..1a, 337,1a, 337 1 a: kb.numbers.loose_segments), answered 404 with
                         # the numbers it re-dots into.
                         r"|^ *(?:(?:[Cc]omprehensive +)?[Rr][Uu][Ll][Ee][Ss]? *|[Cc][Rr] *|[Rr]\.? *|§ *)?"
                         r"[0-9]{1,16}(?:[ .,]+[0-9]{1,16}|[ .,]*[A-Za-z]{1,2}(?![A-Za-z])[0-9]{0,16})*[ .,]*$")
RULE_NUMBER = {"type": "string", "description": "A canonical rule number, e.g. 337.1.a or 116.3d."}

# -- the response shapes (the facade's dicts, kb/query.py) ----------------------------------

KIND = {"enum": ["chapter", "section", "rule"]}
RULE_REF = {"ruleset": STR, "edition": STR, "number": RULE_NUMBER, "kind": KIND,
            "title": {"type": "string", "description": "A heading's title or a rule's first words."}}
RULE = {**RULE_REF, "text": STR, "examples": array(STR),
        "line": {"type": "integer", "description": "Line in the source document."},
        "parent": nullable(RULE_NUMBER), "depth": NAT}
TERM = {"term": STR, "key": STR, "kind": {"enum": ["glossary", "keyword", "term"]},
        "definition": STR, "defined_by": array(RULE_NUMBER)}
TERM_SEE = {"see": {"type": "string", "description": "A Glossary entry that only sends the reader to "
                                                     "another (\"See Landwalk.\"): that entry's key."}}
EDITION = {"ruleset": STR, "edition": STR, "date": STR, "title": STR,
           "partial": {"type": "boolean", "description": "An excerpt, not the whole document."},
           "origin": STR, "format": STR, "rules": NAT, "headings": NAT,
           "references_resolved": NAT, "references_unresolved": NAT, "terms": NAT,
           "external_references": {"type": "integer", "minimum": 0,
                                   "description": "Citations into another ruleset (\"CR 101\" in "
                                                  "the Tournament Rules)."},
           "warnings": {"type": "integer", "minimum": 0,
                        "description": "What the reader repaired or doubted (see /stats)."}}

SCHEMAS: dict[str, dict[str, Any]] = {
    "Error": obj({"error": obj({
        "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "message": STR,
        "detail": {"description": "What went wrong where: the parameter, the nearest rule "
                                  "numbers, the editions there are, the body errors."},
    })}, description="The one error shape: every failure under /api answers with it."),
    "BuildInfo": obj({"build_id": STR, "built": STR}),
    "RuleRef": obj(RULE_REF, description="A rule named by number, with its title (breadcrumbs, links)."),
    "Rule": obj(RULE, description="A rule with its text."),
    "Term": obj(TERM, TERM_SEE),
    "Transition": obj({"name": STR, "model": STR,
                       "kind": {"type": "string", "description": "transition, check, invariant, "
                                                                 "state-check, …"},
                       "description": STR, "rules": array(STR)},
                      description="A part of the timing model that cites the rule."),
    "RuleDetail": obj({
        **RULE,
        "ancestors": array(ref("RuleRef"), description="Breadcrumbs, chapter first."),
        "children": array(ref("RuleRef")),
        "previous": nullable(ref("RuleRef")), "next": nullable(ref("RuleRef")),
        "references": array(ref("RuleRef"), description="Rules this rule cites."),
        "referenced_by": array(ref("RuleRef"), description="Rules that cite this rule."),
        "terms": array(ref("Term"), description="Terms the rule defines or uses."),
        "transitions": array(ref("Transition")),
        "cited_by": ref("CitedBy"),
    }, {"subrules": array(ref("Rule"), description="The whole subtree (?subrules=true).")}),
    "Edition": obj(EDITION),
    "Rulesets": obj({"build": ref("BuildInfo"), "rulesets": array(obj({
        "name": STR, "title": STR, "editions": array(STR), "newest": STR}))}),
    "Editions": obj({"ruleset": STR, "newest": STR, "editions": array(ref("Edition"))}),
    "Structure": obj({"ruleset": STR, "edition": STR, "date": STR, "partial": BOOL,
                      "nodes": array(obj({
                          "number": RULE_NUMBER, "kind": KIND, "title": STR, "depth": NAT,
                          "parent": nullable(RULE_NUMBER),
                          "children": {"type": "integer", "minimum": 0,
                                       "description": "How many children the node has."}}))},
                     description="The table of contents without rule text."),
    "Graph": obj({"ruleset": STR, "edition": STR, "center": RULE_NUMBER,
                  "nodes": array(ref("RuleRef")),
                  "edges": array(obj({"source": STR, "target": STR,
                                      "kind": {"enum": ["contains", "refers", "defines", "uses"]}}))}),
    "Terms": obj({"ruleset": STR, "edition": STR, "terms": array(ref("Term"))}),
    "TermDetail": obj({**TERM, "ruleset": STR, "edition": STR, "used_by": array(ref("RuleRef"))},
                      {**TERM_SEE, "alias": {"type": "string", "description": (
                          "The term asked when it is a plain word that only sends the reader to this "
                          "entry (\"If\": See Intervening “If” Clause.): this entry answers for it.")}}),
    "Stats": obj({"build": ref("BuildInfo"), "editions": array(obj({
        **EDITION, "unresolved": array(obj({"rule": STR, "text": STR, "line": INT})),
        "diagnostics": array(obj({"message": STR, "file": STR, "line": INT,
                                  "severity": {"enum": ["error", "warning", "info"]}, "rule": STR}))}))}),
}

# -- the description of routes ---------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Param:
    """A query or path parameter: its schema checks the value before the view runs."""

    name: str
    schema: dict[str, Any]
    description: str
    where: str = "query"
    required: bool = False
    example: Any = None
    arg: str = ""  # the view's keyword when the name is not a Python name ("from")

    @property
    def kwarg(self) -> str:
        return self.arg or self.name

    @functools.cached_property
    def validator(self) -> Draft202012Validator:
        return _validator(self.schema)


@dataclass(frozen=True)
class Endpoint:
    """One operation of the API, as the OpenAPI document, the docs page and the tests see it."""

    method: str
    rule: str
    name: str
    summary: str
    description: str
    tag: str
    response: str
    params: tuple[Param, ...] = ()
    errors: tuple[int, ...] = ()
    body: str | None = None
    examples: tuple[str, ...] = ()
    example_body: Any = None
    cached: bool = True
    hidden: bool = False
    limits: tuple[Limit, ...] = ()  # the budgets of kb/limits.py this operation enforces
    starting_response: str = "Error"  # the schema of its 503 while the server is starting
    media_type: str = "application/json"  # of its 200 answer (errors are always the JSON shape)

    @property
    def path(self) -> str:
        """The OpenAPI path: ``/api/v1/rulesets/{ruleset}``."""
        return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", self.rule)

    def statuses(self) -> list[int]:
        codes = set(self.errors)
        if self.params:
            codes.add(400)
        if self.body:
            codes.update({400, 413, 415, 422})
        codes.update(limit.status for limit in self.limits)
        codes.add(503)  # every operation, while the server is starting
        return sorted(codes)


ENDPOINTS: dict[str, Endpoint] = {}


def endpoint(bp: Blueprint, method: str, rule: str, *, summary: str, response: str,
             tag: str, params: tuple[Param, ...] = (), errors: tuple[int, ...] = (),
             body: str | None = None, examples: tuple[str, ...] = (), example_body: Any = None,
             hidden: bool = False, limits: tuple[Limit, ...] = (), cached: bool | None = None,
             starting_response: str = "Error",
             media_type: str = "application/json") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare and register one API operation.

    ``rule`` is relative to the blueprint's prefix. The view receives the parsed parameters
    as keyword arguments (absent optional ones as None or their schema default). The view's
    docstring is the operation's description. A GET answer is ``cached`` (ETag, kept
    answers) unless it says otherwise; ``starting_response`` is the schema of its 503 while
    the server starts (the error shape, unless the operation reports on starting itself);
    ``media_type`` is its 200 answer's (an Atom feed's), when not JSON.
    """
    if body:  # every body is read by web.api.read_body, which enforces these two
        limits = tuple(dict.fromkeys((REQUEST_BYTES, NESTING_DEPTH, *limits)))

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        ep = Endpoint(method=method, rule=f"{bp.url_prefix or ''}{rule}", name=f"{bp.name}.{view.__name__}",
                      summary=summary, description=inspect.cleandoc(view.__doc__ or ""), tag=tag,
                      response=response, params=params, errors=errors, body=body,
                      examples=examples, example_body=example_body,
                      cached=method == "GET" if cached is None else cached,
                      hidden=hidden, limits=limits, starting_response=starting_response,
                      media_type=media_type)
        if ep.name in ENDPOINTS and ENDPOINTS[ep.name].rule != ep.rule:
            raise ValueError(f"two API operations named {ep.name}")
        ENDPOINTS[ep.name] = ep

        @functools.wraps(view)
        def run(**path_values: str) -> Any:
            return view(**parse_parameters(ep, path_values))
        bp.add_url_rule(rule, view.__name__, run, methods=[method])
        return view
    return decorate


def endpoint_of(endpoint_name: str | None) -> Endpoint | None:
    """The description of the operation Flask dispatched to (``request.endpoint``)."""
    return ENDPOINTS.get(endpoint_name or "")


# -- parameters ------------------------------------------------------------------------------

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def parse_parameters(ep: Endpoint, path_values: dict[str, str]) -> dict[str, Any]:
    """Read and check an operation's parameters; QueryError 400 names the bad one.

    Unknown query parameters are refused, so a misspelt ``editon=1.3`` does not quietly
    answer from the newest edition.
    """
    known = {p.name for p in ep.params if p.where == "query"}
    unknown = sorted(set(request.args) - known)
    if unknown:
        raise QueryError(400, f"unknown query parameter {unknown[0]!r}",
                         {"parameter": unknown[0][:64], "accepted": sorted(known)})
    out: dict[str, Any] = {}
    for p in ep.params:
        if p.where == "path":
            raw: str | None = path_values[p.name]
        else:
            values = request.args.getlist(p.name)
            if len(values) > 1:
                raise QueryError(400, f"query parameter {p.name!r} is given more than once",
                                 {"parameter": p.name})
            raw = values[0] if values else None
        if raw is None:
            if p.required:
                raise QueryError(400, f"query parameter {p.name!r} is required",
                                 {"parameter": p.name})
            out[p.kwarg] = p.schema.get("default")
            continue
        value = _coerce(p, raw)
        validator = p.validator
        error = None if validator.is_valid(value) else next(iter(validator.iter_errors(value)))
        if error is not None:
            # A pattern is no help to a reader: say what the value should be instead.
            why = (f"{raw[:40]!r} is not valid here ({p.description})"
                   if error.validator in ("pattern", "format") else error.message)
            raise QueryError(400, f"{p.where} parameter {p.name!r}: {why}"[:300],
                             {"parameter": p.name, "value": raw[:64]})
        out[p.kwarg] = value
    return out


def _coerce(p: Param, raw: str) -> Any:
    kind = p.schema.get("type")
    if kind == "integer":
        if not re.fullmatch(r"[+-]?\d{1,9}", raw.strip()):
            raise QueryError(400, f"{p.where} parameter {p.name!r} must be an integer"
                             + (" of at most 9 digits" if re.fullmatch(r"[+-]?\d+", raw.strip()) else ""),
                             {"parameter": p.name, "value": raw[:64]})
        return int(raw)
    if kind == "boolean":
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise QueryError(400, f"{p.where} parameter {p.name!r} must be true or false",
                         {"parameter": p.name, "value": raw[:64]})
    return raw


_VALIDATORS: dict[str, Draft202012Validator] = {}


def _validator(schema: dict[str, Any]) -> Draft202012Validator:
    key = json.dumps(schema, sort_keys=True)
    found = _VALIDATORS.get(key)
    if found is None:
        found = _VALIDATORS[key] = Draft202012Validator(schema, registry=_registry())
    return found


# -- documents and validators --------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _registry() -> Registry:
    spec = {"components": {"schemas": SCHEMAS}}
    return Registry().with_resource(SPEC_URI, Resource.from_contents(spec, default_specification=DRAFT202012))


def schema_validator(name: str) -> Draft202012Validator:
    """A validator for one named schema, with its references resolved."""
    return _validator({"$ref": f"{SPEC_URI}#/components/schemas/{name}"})


def body_validator(ep: Endpoint) -> Draft202012Validator | None:
    """The validator of an operation's request body, if it takes one."""
    return schema_validator(ep.body) if ep.body else None


def response_validator(ep: Endpoint, status: int) -> Draft202012Validator:
    """The validator a response of ``ep`` with ``status`` must pass (the tests use it)."""
    return schema_validator(ep.response if status < 300 else
                            ep.starting_response if status == 503 else "Error")


def _parameter(p: Param) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name, "in": p.where, "required": p.required or p.where == "path",
                           "description": p.description, "schema": p.schema}
    if p.example is not None:
        out["example"] = p.example
    return out


_STATUS_TEXT = {400: "Bad query: a parameter is malformed or unknown, the query string or body is "
                     "not UTF-8 text, or a string holds a lone surrogate (the error names where).",
                404: "Not found: an unknown ruleset, edition, rule or term (with the nearest ones).",
                413: "The request body, or a part of it, is larger than the server accepts "
                     "(the error names the limit of `x-rulekb-limits` and its value).",
                415: "The request body is not JSON (send Content-Type: application/json).",
                422: "The request body is JSON but not the expected shape, or it asks for more "
                     "work than a budget of `x-rulekb-limits` allows (the error names it).",
                503: "Not ready: the server is starting (the build in service is still loading "
                     "or warming; `Retry-After` says when to ask again, /api/v1/health what is "
                     "left), or no knowledge base is built yet."}

_RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before asking again.",
                                "schema": {"type": "integer", "minimum": 1}}}

_HEADERS = {
    "X-Rulekb-Edition": {"description": "The edition(s) that answered, as `ruleset edition`, "
                                        "comma-separated (absent when no one edition did).",
                         "schema": STR},
    "X-Rulekb-Build": {"description": "The knowledge-base build that answered.", "schema": STR},
    "ETag": {"description": "Changes with the build: send it back in If-None-Match.", "schema": STR},
}


def _limits_text(limits: tuple[Limit, ...]) -> str:
    """The budgets an operation enforces, as a paragraph of its description."""
    if not limits:
        return ""
    lines = [f"- `{l.name}`: {l.what}, at most {l.value:,} {l.unit} (else {l.status})"
             for l in sorted(limits, key=lambda l: l.name)]
    return "\n\nLimits (the error names the limit and its value):\n\n" + "\n".join(lines)


def document(endpoints: dict[str, Endpoint] | None = None, *, title: str = "rulekb API",
             version: str = "") -> dict[str, Any]:
    """The OpenAPI 3.1 document of every (non-hidden) declared operation."""
    paths: dict[str, dict[str, Any]] = {}
    for ep in sorted((endpoints or ENDPOINTS).values(), key=lambda e: e.path):
        if ep.hidden:
            continue
        op: dict[str, Any] = {
            "operationId": ep.name.split(".", 1)[-1], "summary": ep.summary, "tags": [ep.tag],
            "description": ep.description + _limits_text(ep.limits),
            "parameters": [_parameter(p) for p in ep.params],
            "responses": {"200": {
                "description": ep.summary,
                "headers": _HEADERS,
                "content": {ep.media_type: {"schema": ref(ep.response)}}}},
        }
        if ep.method == "GET":
            op["responses"]["304"] = {"description": "Not modified (the ETag given in "
                                                      "If-None-Match still names this answer)."}
        for code in ep.statuses():
            op["responses"][str(code)] = {"description": _STATUS_TEXT.get(code, "Error."),
                                          "content": {"application/json": {"schema": ref("Error")}}}
        op["responses"]["503"].update(headers=_RETRY_AFTER,
                                      content={"application/json": {"schema": ref(ep.starting_response)}})
        if ep.limits:
            op["x-rulekb-limits"] = [row for row in limits_table() if row["name"] in {l.name for l in ep.limits}]
        if ep.body:
            body: dict[str, Any] = {"schema": ref(ep.body)}
            if ep.example_body is not None:
                body["example"] = ep.example_body
            op["requestBody"] = {"required": True, "content": {"application/json": body}}
        paths.setdefault(ep.path, {})[ep.method.lower()] = op
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": version or API_VERSION,
                 "description": "Comprehensive rules as a cross-referenced knowledge base: rules, "
                                "structure, terms, the reference graph, search, the timing model, "
                                "citation linking and edition diffs. Every answer names the edition "
                                "it came from; every failure has the one error shape. Every request "
                                "does bounded work: `x-rulekb-limits` lists every budget (each "
                                "operation lists those it enforces); over one, the answer is the "
                                "error shape with its status, naming the limit and its value.",
                 "x-rulekb-limits": limits_table()},
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": SCHEMAS},
    }


def response_problems(app: Any, method: str, path: str, status: int, body: Any) -> list[str]:
    """What is wrong with an answer ``app`` gave, by the description of its operation.

    An operation must answer with a documented status and its documented shape (the error
    shape for failures); a path no operation serves must answer the error shape. The tests
    run every answer they get through this.
    """
    from werkzeug.exceptions import HTTPException
    try:
        name, _ = app.url_map.bind("localhost").match(path, method=method)
    except HTTPException:
        name = None
    ep = endpoint_of(name)
    if ep is None:
        if status < 400:
            return [f"{method} {path} answered {status} but no API operation serves it"]
        validator = schema_validator("Error")
    else:
        allowed = {200, 304, *ep.statuses()} if ep.method == "GET" else {200, *ep.statuses()}
        if status not in allowed:
            return [f"{method} {path} answered {status}, not one of {sorted(allowed)}"]
        if status == 304:
            return []
        validator = response_validator(ep, status)
    return [f"{method} {path} ({status}) at /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}"
            for e in validator.iter_errors(body)][:10]
