"""One state codec for every game: a state's JSON both ways, derived from its dataclasses.

Each field of a state dataclass (and of the dataclasses it holds: chain items, permanents,
battlefields…) says how it is written and read in its ``metadata["json"]`` (:func:`js`): the
JSON key, whether it is left out at its default, which domain check reads it (a player, a
card, a place: the game's :class:`Context` supplies the checks), the choices or range it
takes, and, for tuples of tuples, the keys of the records they are written as. The value's
Python type (``str | None``, ``int``, ``bool``, ``tuple[X, ...]``, ``frozenset[str]``, a nested
dataclass) does the rest. A field with no metadata is written and read by its type alone.

Reading names the place of every fault (``board[0].location``) with
:class:`kb.timing.engine.FormatError`; unknown keys are refused with the nearest known one.
The codec also says which keys a state has (:func:`json_keys`), so a model's ``expect`` can
observe every concept of its state without a list kept by hand.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass
from typing import Any

from kb.timing.fields import a_list, a_mapping, flag, one_of, only_keys, text, whole_number

OMIT = object()  # a writer's answer: leave the key out
UNSET = object()  # no value given (a field without a default, an option not set)


@dataclass(frozen=True)
class Json:
    """How one field (or one element of a record) is written and read."""

    name: str | None = None  # the JSON key (default: the field's name)
    omit: bool = False  # left out when it equals its default
    check: str | None = None  # the context's check for this value ("player", "card", "place"…)
    choices: tuple[Any, ...] | None = None
    low: int = 0
    high: int = 999
    record: tuple[Json, ...] = ()  # a tuple of tuples: each written as a mapping with these keys
    mapping: bool = False  # a tuple of (key, value) pairs: written as a mapping
    missing: Any = UNSET  # the value when the key is absent or null: a constant, or (raw, ctx) → value
    default: Any = UNSET  # a record element's default (for ``omit``)
    shorthand: str | None = None  # a list's bare string stands for {shorthand: value}
    write: Callable[[Any, Any, Context], Any] | None = None  # (owner, value, ctx) → JSON or OMIT
    read: Callable[[Any, str, Context], Any] | None = None  # (raw, field, ctx) → value
    skip: bool = False  # not part of the JSON (derived, or written by the game itself)


def js(name: str | None = None, **options: Any) -> dict[str, Json]:
    """A field's metadata: ``field(default=..., metadata=js("finalized_this_turn", omit=True))``."""
    return {"json": Json(name, **options)}


class Context:
    """What reading and writing need beyond the JSON: the game's checks by name (each
    ``check(value, field, optional) -> value``) and whatever a hook wants (``ctx.cards``)."""

    def __init__(self, checks: Mapping[str, Callable[[Any, str, bool], Any]] | None = None, **extra: Any):
        self.checks = dict(checks or {})
        self.__dict__.update(extra)

    def check(self, name: str, value: Any, where: str, optional: bool) -> Any:
        try:
            fn = self.checks[name]
        except KeyError:
            raise KeyError(f"the codec's context has no check {name!r}") from None
        return fn(value, where, optional)


# -- types -------------------------------------------------------------------------------------
def _optional(tp: Any) -> tuple[Any, bool]:
    """``X | None`` → (X, True); anything else → (tp, False)."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(tp)) == 2:
            return args[0], True
    return tp, False


@dataclass(frozen=True)
class _Type:
    """A field's type taken apart once: ``inner`` without ``| None``, its container and element."""

    inner: Any
    optional: bool
    origin: Any
    element: Any
    dataclass: bool

    @classmethod
    def of(cls, tp: Any) -> _Type:
        inner, optional = _optional(tp)
        origin = typing.get_origin(inner)
        args = typing.get_args(inner)
        return cls(inner, optional, origin, args[0] if args else None, dataclasses.is_dataclass(inner))


@dataclass(frozen=True)
class _Field:
    attr: str
    key: str
    spec: Json
    type: _Type
    default: Any


_PLANS: dict[type, tuple[_Field, ...]] = {}


def plan(cls: type) -> tuple[_Field, ...]:
    """The fields of a dataclass as the codec sees them (computed once per class)."""
    got = _PLANS.get(cls)
    if got is None:
        hints = typing.get_type_hints(cls)
        out = []
        for f in dataclasses.fields(cls):
            spec = f.metadata.get("json") or Json()
            default = f.default if f.default is not MISSING else (
                f.default_factory() if f.default_factory is not MISSING else UNSET)
            out.append(_Field(f.name, spec.name or f.name, spec, _Type.of(hints[f.name]), default))
        got = _PLANS[cls] = tuple(out)
    return got


def json_keys(cls: type) -> tuple[str, ...]:
    """The JSON keys of a dataclass's fields (those the codec writes)."""
    return tuple(f.key for f in plan(cls) if not f.spec.skip)


# -- writing -----------------------------------------------------------------------------------
Writer = Callable[[Any, Context], Any]
_ENCODERS: dict[type, Callable[[Any, Context], dict[str, Any]]] = {}


def encode(obj: Any, ctx: Context | None = None) -> dict[str, Any]:
    """A dataclass instance as JSON: its fields in declaration order, or in the order of the
    class's ``__json_keys__`` when it gives one."""
    cls = type(obj)
    enc = _ENCODERS.get(cls)
    if enc is None:
        enc = _ENCODERS[cls] = _encoder(cls)
    return enc(obj, ctx or _EMPTY)


def field_json(obj: Any, key: str, ctx: Context | None = None) -> Any:
    """One field of a dataclass instance, by its JSON key, as :func:`encode` writes it (None
    where the field is left out at its default)."""
    return encode(obj, ctx).get(key)


def _encoder(cls: type) -> Callable[[Any, Context], dict[str, Any]]:
    """The writer of one class, generated once from its fields (as :mod:`dataclasses` makes
    ``__init__``): per field, its key, when it is left out and how it is written, in the
    order of ``__json_keys__`` when the class gives one."""
    fields_ = [f for f in plan(cls) if not f.spec.skip]
    order = getattr(cls, "__json_keys__", None)
    if order:
        rank = {k: i for i, k in enumerate(order)}
        fields_.sort(key=lambda f: rank.get(f.key, len(rank)))
    env: dict[str, Any] = {"OMIT": OMIT}
    lines = ["def enc(obj, ctx):", "    out = {}"]
    for i, f in enumerate(fields_):
        key = repr(f.key)
        lines.append(f"    v = obj.{f.attr}")
        if f.spec.write is not None:
            env[f"W{i}"] = f.spec.write
            lines += [f"    w = W{i}(obj, v, ctx)", f"    if w is not OMIT: out[{key}] = w"]
            continue
        write = _writer(f.type, f.spec)
        expr = "v"
        if write is not None:
            env[f"F{i}"] = write
            expr = f"(None if v is None else F{i}(v, ctx))" if f.type.optional else f"F{i}(v, ctx)"
        if f.spec.omit:
            env[f"D{i}"] = f.default
            lines.append(f"    if v != D{i}: out[{key}] = {expr}")
        else:
            lines.append(f"    out[{key}] = {expr}")
    lines.append("    return out")
    exec("\n".join(lines), env)  # noqa: S102 - source made above from the class's own fields
    return env["enc"]  # type: ignore[no-any-return]


def _writer(tp: _Type, spec: Json) -> Writer | None:
    """How a value of ``tp`` is written (None: as it is)."""
    if tp.dataclass:
        return encode
    if tp.origin is frozenset:
        return lambda v, ctx: sorted(v)
    if tp.origin is not tuple:
        return None
    if spec.mapping:
        return lambda v, ctx: {k: (list(x) if isinstance(x, tuple) else x) for k, x in v}
    if spec.record:
        keys = spec.record
        return lambda v, ctx: [_write_record(r, keys) for r in v]
    if dataclasses.is_dataclass(tp.element):
        return lambda v, ctx: [encode(x, ctx) for x in v]
    return lambda v, ctx: list(v)


def _write_record(values: tuple[Any, ...], keys: tuple[Json, ...]) -> dict[str, Any]:
    return {k.name: v for k, v in zip(keys, values)  # type: ignore[misc]
            if not (k.omit and v == k.default)}


# -- reading -----------------------------------------------------------------------------------
def decode(cls: type, data: Any, where: str, ctx: Context, *, given: Mapping[str, Any] | None = None,
           unknown_at: str | None = None) -> Any:
    """A dataclass instance from JSON: known keys only (an unknown one is answered with the
    nearest known key, at ``unknown_at`` or ``where``), each value checked at its place.
    ``given`` supplies fields the caller has read already."""
    raw = a_mapping(data, where)
    fields_ = plan(cls)
    only_keys(raw, tuple(f.key for f in fields_ if not f.spec.skip) + tuple(getattr(cls, "__json_extra__", ())),
              unknown_at or where)
    values: dict[str, Any] = dict(given or {})
    for f in fields_:
        if f.attr in values or f.spec.skip:
            continue
        at = f"{where}.{f.key}" if where else f.key
        value = raw.get(f.key)
        if value is None:
            missing = f.spec.missing
            if missing is not UNSET and not callable(missing):
                values[f.attr] = missing  # a constant: taken as it is
                continue
            if missing is not UNSET:
                value = missing(raw, ctx)  # computed from the rest: read like a given value
            elif f.key not in raw and f.default is not UNSET:
                continue  # absent: the field's default
        values[f.attr] = read_value(value, f.type, f.spec, at, ctx)
    return cls(**values)


def read_value(raw: Any, tp: _Type | Any, spec: Json, where: str, ctx: Context) -> Any:
    """One value of type ``tp`` read at ``where`` as ``spec`` says."""
    if spec.read is not None:
        return spec.read(raw, where, ctx)
    if not isinstance(tp, _Type):
        tp = _Type.of(tp)
    if tp.origin is tuple or tp.origin is frozenset:
        if raw is None and tp.optional:
            return None
        if spec.mapping:
            key_t, val_t = typing.get_args(tp.element)
            return tuple((read_value(k, key_t, Json(), where, ctx),
                          read_value(v, val_t, Json(), f"{where}.{k}", ctx))
                         for k, v in a_mapping(raw, where).items())
        each = Json(check=spec.check, choices=spec.choices, low=spec.low, high=spec.high)
        out = []
        for i, item in enumerate(a_list(raw, where)):
            at = f"{where}[{i}]"
            if spec.shorthand and isinstance(item, str):
                item = {spec.shorthand: item}
            out.append(_read_record(item, spec.record, tp.element, at, ctx) if spec.record else
                       read_value(item, tp.element, each, at, ctx))
        return frozenset(out) if tp.origin is frozenset else tuple(out)
    if spec.choices is not None:
        return one_of(raw, spec.choices, where)
    if spec.check is not None:
        return ctx.check(spec.check, raw, where, tp.optional)
    if raw is None and tp.optional:
        return None
    if tp.dataclass:
        return decode(tp.inner, raw, where, ctx)
    if tp.inner is bool:
        return flag(raw, where)
    if tp.inner is int:
        return whole_number(raw, where, spec.low, spec.high)
    if tp.inner is str:
        return text(raw, where)
    return raw


def _read_record(raw: Any, keys: tuple[Json, ...], tp: Any, where: str, ctx: Context) -> tuple[Any, ...]:
    m = a_mapping(raw, where)
    only_keys(m, tuple(k.name for k in keys if k.name), where)
    out = []
    for k, t in zip(keys, typing.get_args(tp)):
        value = m.get(k.name or "")
        if value is None and k.default is not UNSET:
            value = k.default
        out.append(read_value(value, t, k, f"{where}.{k.name}", ctx))
    return tuple(out)


_EMPTY = Context()


__all__ = ["Context", "Json", "OMIT", "decode", "encode", "field_json", "js", "json_keys", "plan", "read_value"]
