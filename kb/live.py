"""The knowledge base in service, swapped for a new build without a restart.

``rulekb build`` and ``rulekb import`` build into a new folder and then replace the
``current`` symlink atomically (:mod:`kb.store`). A long-running server holds a
:class:`LiveKnowledgeBase`: :meth:`~LiveKnowledgeBase.current` returns the loaded
:class:`~kb.query.KnowledgeBase` and, at most once per ``interval`` seconds, reads the
symlink (one ``readlink``). When the target has changed, a background thread loads the new
build while readers keep using the old object; the new one replaces it only once it is fully
loaded, so a caller that takes one object per request never mixes two builds. A build that
fails to load is logged and skipped, and the old one stays in service.

It also says whether it is ready (:meth:`LiveKnowledgeBase.readiness`): ready only once the
build in service is loaded *and* warmed, so it answers at full speed. Given
``background=True`` (``rulekb serve``) even the first build loads in the background, so a
server can listen at once and say it is starting instead of refusing connections.

A health check notices a new build too (``readiness`` reads the symlink as ``current``
does), and with ``background=True`` a watcher thread reads it once per ``interval`` while
the server is idle, so the new build is loaded and warmed before the first request after a
rebuild, not by it; :meth:`LiveKnowledgeBase.close` stops the watcher (serve's clean stop).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kb.errors import QueryError
from kb.query import KnowledgeBase
from kb.store import current_build, default_home

log = logging.getLogger(__name__)

RETRY_AFTER = 2  # seconds a client is asked to wait before asking a starting server again


def check_built(home: Path) -> None:
    """QueryError 503 unless ``home`` has a build in service (what loading it first needs)."""
    if current_build(home) is None:
        raise QueryError(503, f"no knowledge base is built in {home}; run `rulekb build`")


class LiveKnowledgeBase:
    """A :class:`KnowledgeBase` that follows the ``current`` build of a data directory."""

    def __init__(self, home: Path | None = None, *, kb: KnowledgeBase | None = None,
                 interval: float = 1.0,
                 loader: Callable[[Path], KnowledgeBase] = KnowledgeBase.open,
                 background: bool = False, warm: bool | None = None):
        """Load the build in service of ``home`` now (QueryError 503 before the first build).

        With ``background``, check only that a build exists now and load it in a thread;
        :meth:`current` answers QueryError 503 until it is in. Given ``kb`` (an already
        loaded knowledge base, e.g. one held in memory), serve that one and never reload.
        ``warm`` says whether to warm it in the background before calling it ready (default:
        a build of ``home`` is warmed; a ``kb`` given is taken as ready as it is).
        """
        self.interval = interval
        self._loader = loader
        self._lock = threading.Lock()
        self._loading: threading.Thread | None = None
        self._failed: str | None = None
        self._error: str | None = None
        self._checked = time.monotonic()
        self._kb: KnowledgeBase | None
        self._warming: KnowledgeBase | None = None  # the first build, loaded, while it warms
        self._state = "ready"
        self._left: list[str] = []  # warming steps of the build in service not yet done
        self._closed = threading.Event()
        self._watcher: threading.Thread | None = None
        if kb is not None:
            self.home: Path | None = None
            self._kb, self._target = kb, None
            if warm:
                self._begin_warming(kb)
            return
        self.home = home or default_home()
        if background:
            check_built(self.home)  # the same refusal as a synchronous load, at once
            self._kb, self._target, self._state = None, None, "loading"
            self._start_loading()
            self._watch()
            return
        self._kb = loader(self.home)
        self._target = self._build_of(self._kb)
        if warm is not False:
            # Warm caches in the background: without a gate (tests, flask run) the server
            # answers at once, a little slower for the first seconds; readiness says so.
            self._begin_warming(self._kb)

    @property
    def follows(self) -> bool:
        """Whether new builds are picked up (False for a knowledge base given in memory)."""
        return self.home is not None

    def current(self) -> KnowledgeBase:
        """The knowledge base to answer from; starts loading a newer build when one appears."""
        self._notice()
        if self._kb is None:
            raise QueryError(503, self._error or "the knowledge base is still loading",
                             {"status": self._state, "retry_after": RETRY_AFTER})
        return self._kb

    def ready(self) -> bool:
        """Whether the build in service is loaded and warmed: it answers at full speed."""
        if self._state == "ready" and self._kb is not None:
            return True
        self._notice()  # a server refusing every request still notices a good new build
        return False

    def readiness(self) -> dict[str, Any]:
        """What a health check reports: ``status`` (loading, warming, ready or failed), the
        build in service and its editions (none while loading), the warming steps still to
        do, whether a newer build is being loaded, and the error of a failed first load."""
        self._notice()  # a deploy waiting on health for the new build_id sees it load
        kb = self._kb
        shown = kb if kb is not None else self._warming
        loading = self._loading
        return {
            "ready": self.ready(), "status": self._state,
            "build": None if shown is None else {"build_id": shown.build_id,
                                                 "built": str(shown.manifest.get("built", ""))},
            "editions": [] if shown is None else [f"{r} {e}" for r, e in sorted(shown.graphs)],
            "warming": list(self._left),
            "next_build_loading": kb is not None and loading is not None and loading.is_alive(),
            "error": self._error,
        }

    def refresh(self) -> KnowledgeBase:
        """Check the symlink now and wait until any newer build is loaded (tools, tests)."""
        if self.home is not None and self._read_target() != self._target:
            self._start_loading(wait=True)
        elif self._loading is not None:
            self._loading.join()
        return self.current()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait until ready (tools, tests); returns whether it is."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.ready() and self._state != "failed":
            if deadline is not None and time.monotonic() >= deadline:
                break
            time.sleep(0.02)
        return self.ready()

    def close(self) -> None:
        """Stop the watcher thread (a server's clean stop); answering goes on without it."""
        self._closed.set()
        watcher = self._watcher
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join()

    # -- internals ---------------------------------------------------------------
    def _watch(self) -> None:
        """Read the symlink once per ``interval`` in a thread until :meth:`close`: a new
        build is loaded and warmed while nobody asks (no request discovers it)."""
        def watch() -> None:
            while not self._closed.wait(max(self.interval, 0.05)):
                try:
                    self._notice()
                except Exception:  # never let the watcher die of one bad look
                    log.exception("could not check for a new knowledge base build")
        self._watcher = threading.Thread(target=watch, name="rulekb-watch", daemon=True)
        self._watcher.start()

    def _notice(self) -> None:
        """At most once per ``interval``: start loading the build ``current`` names if new."""
        if self.home is not None:
            now = time.monotonic()
            if now - self._checked >= self.interval:
                self._checked = now
                target = self._read_target()
                if target != self._target and target != self._failed:
                    self._start_loading()

    def _read_target(self) -> str | None:
        if self.home is None:
            return None
        try:
            return os.readlink(self.home / "current")
        except OSError:
            return None

    def _build_of(self, kb: KnowledgeBase) -> str | None:
        if kb.build_dir is None or self.home is None:
            return None
        return os.path.relpath(kb.build_dir, self.home)

    def _start_loading(self, wait: bool = False) -> None:
        with self._lock:
            thread = self._loading
            if thread is None or not thread.is_alive():
                thread = threading.Thread(target=self._load, name="rulekb-reload", daemon=True)
                self._loading = thread
                if self._kb is None:  # now, not in the thread: a waiter sees it loading again
                    self._state = "loading"
                thread.start()
        if wait:
            thread.join()

    def _load(self) -> None:
        target = self._read_target()
        try:
            kb = self._loader(self.home)  # type: ignore[arg-type]
        except Exception as exc:  # a damaged or half-written build: keep serving the old one
            log.exception("could not load knowledge base build %s; still serving %s", target,
                          self._kb.build_id if self._kb is not None else "nothing")
            self._failed = target
            if self._kb is None:  # nothing to serve: say why until a good build appears
                self._state = "failed"
                self._error = (exc.message if isinstance(exc, QueryError)
                               else f"the knowledge base build {target} could not be loaded "
                                    f"({type(exc).__name__}); rebuild it with `rulekb build`")
            return
        steps = _steps(kb)
        left = [name for name, _ in steps]
        if self._kb is None:
            # The first build: what is left to warm is what readiness shows, set before the
            # state says warming, so a health check never sees "warming" with nothing left.
            self._left = left
            self._warming, self._state = kb, "warming"  # named as it is once it serves
        for name, step in steps:  # before the swap: no request meets a cold knowledge base
            _run(kb, name, step)
            left.remove(name)
        # The loader follows the symlink itself, which may have moved again meanwhile:
        # remember the build it actually loaded, so a later change is still noticed.
        self._kb, self._target, self._failed = kb, self._build_of(kb) or target, None
        self._left, self._state, self._error, self._warming = [], "ready", None, None
        log.info("now serving knowledge base build %s", kb.build_id)

    def _begin_warming(self, kb: KnowledgeBase) -> None:
        steps = _steps(kb)
        self._left = [name for name, _ in steps]
        self._state = "warming" if steps else "ready"
        if steps:
            threading.Thread(target=self._warm_in_service, args=(kb, steps), name="rulekb-warm",
                             daemon=True).start()

    def _warm_in_service(self, kb: KnowledgeBase, steps: list[tuple[str, Callable[[], Any]]]) -> None:
        for name, step in steps:
            _run(kb, name, step)
            if self._kb is kb:
                self._left.remove(name)
        if self._kb is kb:
            self._state = "ready"


def _steps(kb: KnowledgeBase) -> list[tuple[str, Callable[[], Any]]]:
    try:
        return kb.warm_steps()
    except Exception:  # warming is an optimisation; a failure shows up on the request itself
        log.exception("could not plan warming knowledge base build %s", kb.build_id)
        return []


def _run(kb: KnowledgeBase, name: str, step: Callable[[], Any]) -> None:
    try:
        step()
    except Exception:  # warming is an optimisation; a failure shows up on the request itself
        log.exception("could not warm %s of knowledge base build %s", name, kb.build_id)
