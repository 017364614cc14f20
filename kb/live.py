"""The knowledge base in service, swapped for a new build without a restart.

``rulekb build`` and ``rulekb import`` build into a new folder and then replace the
``current`` symlink atomically (:mod:`kb.store`). A long-running server holds a
:class:`LiveKnowledgeBase`: :meth:`~LiveKnowledgeBase.current` returns the loaded
:class:`~kb.query.KnowledgeBase` and, at most once per ``interval`` seconds, reads the
symlink (one ``readlink``). When the target has changed, a background thread loads the new
build while readers keep using the old object; the new one replaces it only once it is fully
loaded, so a caller that takes one object per request never mixes two builds. A build that
fails to load is logged and skipped, and the old one stays in service.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from kb.query import KnowledgeBase
from kb.store import default_home

log = logging.getLogger(__name__)


class LiveKnowledgeBase:
    """A :class:`KnowledgeBase` that follows the ``current`` build of a data directory."""

    def __init__(self, home: Path | None = None, *, kb: KnowledgeBase | None = None,
                 interval: float = 1.0,
                 loader: Callable[[Path], KnowledgeBase] = KnowledgeBase.open):
        """Load the build in service of ``home`` now (QueryError 503 before the first build).

        Given ``kb`` (an already loaded knowledge base, e.g. one held in memory), serve that
        one and never reload.
        """
        self.interval = interval
        self._loader = loader
        self._lock = threading.Lock()
        self._loading: threading.Thread | None = None
        self._failed: str | None = None
        self._checked = time.monotonic()
        if kb is not None:
            self.home: Path | None = None
            self._kb, self._target = kb, None
        else:
            self.home = home or default_home()
            self._kb = loader(self.home)
            self._target = self._build_of(self._kb)
            # Warm caches in the background: the server answers at once, a little slower
            # for the first seconds, instead of making its first visitors wait.
            threading.Thread(target=_warm, args=(self._kb,), name="rulekb-warm", daemon=True).start()

    @property
    def follows(self) -> bool:
        """Whether new builds are picked up (False for a knowledge base given in memory)."""
        return self.home is not None

    def current(self) -> KnowledgeBase:
        """The knowledge base to answer from; starts loading a newer build when one appears."""
        if self.home is not None:
            now = time.monotonic()
            if now - self._checked >= self.interval:
                self._checked = now
                target = self._read_target()
                if target != self._target and target != self._failed:
                    self._start_loading()
        return self._kb

    def refresh(self) -> KnowledgeBase:
        """Check the symlink now and wait until any newer build is loaded (tools, tests)."""
        if self.home is not None and self._read_target() != self._target:
            self._start_loading(wait=True)
        elif self._loading is not None:
            self._loading.join()
        return self._kb

    # -- internals ---------------------------------------------------------------
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
                thread.start()
        if wait:
            thread.join()

    def _load(self) -> None:
        target = self._read_target()
        try:
            kb = self._loader(self.home)  # type: ignore[arg-type]
        except Exception:  # a damaged or half-written build: keep serving the old one
            log.exception("could not load knowledge base build %s; still serving %s",
                          target, self._kb.build_id)
            self._failed = target
            return
        _warm(kb)  # before the swap: no request meets a cold knowledge base
        # The loader follows the symlink itself, which may have moved again meanwhile:
        # remember the build it actually loaded, so a later change is still noticed.
        self._kb, self._target, self._failed = kb, self._build_of(kb) or target, None
        log.info("now serving knowledge base build %s", kb.build_id)


def _warm(kb: KnowledgeBase) -> None:
    try:
        kb.warm()
    except Exception:  # warming is an optimisation; a failure shows up on the request itself
        log.exception("could not warm knowledge base build %s", kb.build_id)
