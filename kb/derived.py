"""Derived data, declared once: what a build computes on first use and keeps for its life.

A derived structure (a searcher, the mapping between two editions, a diff, a parser) is a
module-level function taking the loaded editions, decorated with :func:`derived`::

    @derived
    def adjacent_mapping(kb: LoadedEditions, ruleset: str, older: str, newer: str) -> EditionMapping:
        return map_editions(kb.graphs[(ruleset, older)], kb.graphs[(ruleset, newer)])

The declaration is its key and its recipe at once: the value is kept in the editions'
per-build :class:`DerivedStore` under the declaration itself and its arguments (bound to
the function's signature, so ``f(e, "a", b=1)`` and ``f(e, "a", 1)`` are one value). No
key is ever written as a string, so two modules cannot agree on one by convention, and a
layer's caches are its own: the web layer declares its own functions the same way and can
never write (or read) a key the knowledge base declared.

Values live as long as the build that holds the store: a new build is a new store. A value
made from one edition goes with that edition when the loaded editions unload its graph
(:meth:`DerivedStore.forget_edition`): a value whose arguments are a ruleset and, among
those after it, the edition's name, and any value of a declaration made with
:func:`derived_holding_editions` (one that may hold any edition's graph), so an unloaded
graph is not kept alive by a searcher made from it, and loading it again makes no second
copy that stays.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable, Hashable
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class DerivedStore:
    """The derived values of one build, each made once, whatever the number of threads.

    Only :class:`Derived` declarations write it (their keys are the declarations
    themselves); anything may ask whether a value is held (:meth:`Derived.is_held`).
    """

    def __init__(self) -> None:
        self._values: dict[Hashable, Any] = {}
        # Re-entrant: a derived structure may be built from another derived one.
        self._lock = threading.RLock()
        self._key_locks: dict[Hashable, threading.RLock] = {}

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._values

    def keys(self) -> list[Hashable]:
        """The keys of the values made so far (each a declaration and its arguments)."""
        with self._lock:
            return list(self._values)

    def pending(self) -> list[Hashable]:
        """The keys whose first make is under way (each holds a lock until it is done)."""
        with self._lock:
            return list(self._key_locks)

    def forget_edition(self, ruleset: str, edition: str) -> int:
        """Drop the values made from one edition (module docstring): its graph has been
        unloaded. How many were dropped; a value still being made is kept."""
        with self._lock:
            gone = [key for key in self._values if _made_from(key, ruleset, edition)]
            for key in gone:
                del self._values[key]
        return len(gone)

    def _get(self, key: Hashable, make: Callable[[], T]) -> T:
        """The value under ``key``, made by ``make`` the first time (see :func:`derived`)."""
        try:
            return self._values[key]  # type: ignore[no-any-return]
        except KeyError:
            pass
        # One lock per key: a slow build (a diff, a searcher) never blocks other keys, and
        # building one value may ask for another without deadlocking.
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.RLock())
        try:
            with key_lock:
                if key not in self._values:
                    self._values[key] = make()
                return self._values[key]  # type: ignore[no-any-return]
        finally:
            # The lock only serialises the first make of a key; once it is kept (or make
            # failed) it goes, so a miss (an unknown name, a failed lookup) keeps nothing.
            # A thread still waiting on it finds the value, or makes it again itself.
            with self._lock:
                if self._key_locks.get(key) is key_lock:
                    del self._key_locks[key]


def _made_from(key: Hashable, ruleset: str, edition: str) -> bool:
    """Whether a store key's value may hold the graph of ``ruleset`` ``edition``."""
    declaration, args = key  # type: ignore[misc]
    if getattr(declaration, "holds_editions", False):
        return True
    return len(args) >= 2 and args[0] == ruleset and edition in args[1:]


class HoldsDerived(Protocol):
    """What a derived function is given: anything holding a build's :class:`DerivedStore`
    (the loaded editions, and so the facade built on them)."""

    @property
    def derived(self) -> DerivedStore: ...


E = TypeVar("E", bound=HoldsDerived)


class Derived(Generic[E, P, T]):
    """A declared derived structure: call it as the function it wraps; the first call per
    build and arguments makes the value, later ones return it."""

    def __init__(self, recipe: Callable[Concatenate[E, P], T], holds_editions: bool = False) -> None:
        self.recipe = recipe
        self.holds_editions = holds_editions  # its values may hold any edition's graph
        self._signature = inspect.signature(recipe)
        self._arity = len(self._signature.parameters) - 1  # the arguments after the editions
        functools.update_wrapper(self, recipe)

    def __repr__(self) -> str:
        return f"<derived {self.recipe.__module__}.{self.recipe.__qualname__}>"

    def key(self, editions: E, *args: P.args, **kwargs: P.kwargs) -> Hashable:
        """The store key of one value: this declaration and its bound arguments."""
        if not kwargs and len(args) == self._arity:  # the usual call: every argument positional
            return (self, args)
        bound = self._signature.bind(editions, *args, **kwargs)
        bound.apply_defaults()
        return (self, bound.args[1:])

    def __call__(self, editions: E, *args: P.args, **kwargs: P.kwargs) -> T:
        key = self.key(editions, *args, **kwargs)
        store = editions.derived
        try:  # a value once made is never replaced: read it without a lock
            return store._values[key]  # type: ignore[no-any-return]
        except KeyError:
            return store._get(key, lambda: self.recipe(editions, *args, **kwargs))

    def is_held(self, editions: E, *args: P.args, **kwargs: P.kwargs) -> bool:
        """Whether the value for these arguments is already made in this build."""
        return self.key(editions, *args, **kwargs) in editions.derived


def derived(recipe: Callable[Concatenate[E, P], T]) -> Derived[E, P, T]:
    """Declare a derived structure (module docstring): ``recipe(editions, *args)`` is made
    once per build and arguments, which must be hashable."""
    return Derived(recipe)


def derived_holding_editions(recipe: Callable[Concatenate[E, P], T]) -> Derived[E, P, T]:
    """Declare a derived structure as :func:`derived` does, whose values may hold the graphs
    of editions its arguments do not name (a cache of chosen editions): it is dropped
    whenever any edition's graph is unloaded."""
    return Derived(recipe, holds_editions=True)
