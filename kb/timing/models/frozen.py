"""Copying a model's frozen states: :func:`replace`, :func:`dataclasses.replace` made faster.

Every step a timing model takes copies its state with a field or two changed, and the invariant
explorers take hundreds of thousands of steps; ``dataclasses.replace`` calls the class's
``__init__`` each time, which for a plain frozen dataclass only stores the fields again through
``object.__setattr__``. Both games' models copy their states with this one function."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

_Frozen = TypeVar("_Frozen")
# per dataclass: its fields' names when a copy of them is all its __init__ would make, else None
_COPYABLE: dict[type, frozenset[str] | None] = {}


def _copyable(cls: type) -> frozenset[str] | None:
    """The names of ``cls``'s fields when its ``__init__`` only stores them (no
    ``__post_init__``, every field in ``__init__``, a ``__dict__`` to store them in), else None."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    plain = (all(f.init for f in fields) and not hasattr(cls, "__post_init__")
             and not hasattr(cls, "__slots__"))
    return frozenset(f.name for f in fields) if plain else None


def replace(obj: _Frozen, /, **changes: Any) -> _Frozen:
    """:func:`dataclasses.replace`, the same object made faster. A dataclass whose ``__init__``
    only stores its fields is copied field by field, without ``__init__``; any other, or a change
    naming no field, goes to :func:`dataclasses.replace` (and its error)."""
    cls = type(obj)
    try:
        names = _COPYABLE[cls]
    except KeyError:
        names = _COPYABLE[cls] = _copyable(cls)
    if names is None or not changes.keys() <= names:
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    old = obj.__dict__
    new = object.__new__(cls)
    if len(old) == len(names):  # the fields alone: copied whole
        new.__dict__.update(old)
        new.__dict__.update(changes)
    else:  # something cached beside them (a cached property) is not the copy's
        new.__dict__.update({n: changes[n] if n in changes else old[n] for n in names})
    return new
