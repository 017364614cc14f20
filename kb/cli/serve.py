"""``rulekb serve``: the API and the site on a real WSGI server.

One process (waitress, threads) by default; ``--workers N`` runs N processes under gunicorn
for machines with more cores. Either way the port is taken at once and the build loads in
the background: until it is loaded and warmed, every page and operation answers 503 with
``Retry-After`` and ``/api/v1/health`` says what is left (``RULEKB_WAIT_READY``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import socket
import sys
import threading
import time
from typing import Any

import click

from kb.cli.app import CommandError, handle_errors, home_of, main
from kb.cli.params import PORT
from kb.live import check_built

SWITCH_INTERVAL = 0.001  # seconds a thread holds the GIL before another may take it
MALLOC_ARENAS = 2
M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)
ANOTHER_PORT = "choose another with --port N (with make: PORT=N make run)"
WORKER_CLASS = "gthread"  # gunicorn's threaded worker: --threads per process, as waitress


def _bad_host(host: str, reason: object) -> str:
    """One line for a host that cannot be listened on: unresolvable, or not of this machine."""
    return (f"cannot listen on address {host!r} ({reason}): use --host with an address of this "
            "machine, e.g. 127.0.0.1 or 0.0.0.0")


def listen_error(exc: OSError, host: str, port: int) -> str:
    """One line for a failure to listen on ``host:port``, saying what to do."""
    if exc.errno == errno.EADDRINUSE:
        return f"port {port} on {host} is in use (another server, perhaps rulekb itself): {ANOTHER_PORT}"
    if exc.errno in (errno.EACCES, errno.EPERM):
        low = " (ports below 1024 need root)" if port < 1024 else ""
        return f"not allowed to listen on port {port}{low}: {ANOTHER_PORT}"
    if exc.errno == errno.EADDRNOTAVAIL:
        return _bad_host(host, exc.strerror or exc)
    return f"cannot listen on {host}:{port} ({exc.strerror or exc})"


def few_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Cap glibc's malloc arenas before the worker threads start (as ``MALLOC_ARENA_MAX``
    would; that variable, when set, wins). Each thread otherwise gets an arena of its own
    that keeps the high-water mark of every large answer it built: 8 threads under abusive
    load grew the server by 82 MB in 12 s, against 18 MB with 2 arenas. Returns whether the
    cap was set (only glibc has it)."""
    if os.environ.get("MALLOC_ARENA_MAX") or not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.mallopt(M_ARENA_MAX, arenas))
    except (OSError, AttributeError):  # musl and others: no mallopt, nothing to cap
        return False


def starting_app(home: Any, listening: str | None = None) -> Any:
    """The app as ``serve`` runs it: the build loads in the background, 503 until ready.
    ``listening`` (``http://host:port``, the address served) starts the /api page's curl
    examples when no public URL is set, instead of a placeholder port."""
    from web import create_app
    return create_app(home, config={"RULEKB_WAIT_READY": True, "RULEKB_LISTENING": listening})


def listening_url(host: str, port: int) -> str:
    """The address a server bound to ``host:port`` answers at, as an example URL writes it."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def announce_when_ready(app: Any, who: str) -> None:
    """One line on stderr once the build in service is loaded and warmed (or failed)."""
    live = app.extensions["rulekb"]
    started = time.monotonic()

    def wait() -> None:
        live.wait_ready()
        state = live.readiness()
        if state["ready"]:
            click.echo(f"{who} ready after {time.monotonic() - started:.1f} s: build "
                       f"{state['build']['build_id']}, {len(state['editions'])} editions", err=True)
        else:
            click.echo(f"{who} cannot serve: {state['error']}", err=True)
    threading.Thread(target=wait, name="rulekb-ready", daemon=True).start()


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, PORT.max),
              help="Port to listen on (0: a free one, announced).")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 256),
              help="Worker threads (of each worker process).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes: 1 runs waitress; more run gunicorn (not on Windows), "
                   "each process loading the build itself.")
@click.pass_context
@handle_errors
def serve_cmd(ctx: click.Context, host: str, port: int, threads: int, workers: int) -> None:
    """Serve the JSON API and the rules browser website.

    The port is taken before anything is announced: a port in use is one line saying so.
    The server listens at once; until the build is loaded and warmed every page and API
    operation answers 503 with Retry-After, and /api/v1/health says what is left.
    """
    if port == 0 and workers > 1:  # gunicorn's workers would announce port 0, not the one bound
        raise CommandError(f"--port 0 (a free port) needs --workers 1: {ANOTHER_PORT}")
    # A thread answering a quick lookup waits for the GIL each time it wakes from I/O; with
    # the default 5 ms interval a heavy request in another thread (a timing run near its
    # budgets) made a 3 ms lookup wait 50-100 ms. At 1 ms the wait shrinks with it. Both
    # settings are inherited by gunicorn's forked workers.
    sys.setswitchinterval(SWITCH_INTERVAL)
    few_malloc_arenas()
    if workers > 1:
        _serve_gunicorn(home_of(ctx), host, port, threads, workers)
        return
    from waitress.server import create_server
    app = starting_app(home_of(ctx), listening_url(host, port))
    try:
        server = create_server(app, host=host, port=port, threads=threads, ident="rulekb")
    except OSError as exc:
        raise CommandError(listen_error(exc, host, port)) from exc
    except ValueError as exc:  # waitress: a host it cannot resolve
        raise CommandError(_bad_host(host, exc)) from exc
    app.config["RULEKB_LISTENING"] = listening_url(host, server.effective_port)  # --port 0: the one bound
    click.echo(f"serving rulekb on http://{host}:{server.effective_port}/ (API: /api; health: "
               f"/api/v1/health; a rebuild of {home_of(ctx)} is picked up without a restart)", err=True)
    announce_when_ready(app, "rulekb")
    from web.serving import serve_until_stopped
    # SIGTERM and Ctrl-C: the requests in progress are answered, then it says so and exits 0.
    stopped = serve_until_stopped(server)
    app.extensions["rulekb"].close()  # the watcher for new builds stops with the server
    click.echo(stopped.sentence(), err=True)


def _serve_gunicorn(home: Any, host: str, port: int, threads: int, workers: int) -> None:
    """``workers`` processes under gunicorn's arbiter, each with its own app and build."""
    try:
        from gunicorn.app.base import BaseApplication
    except ImportError as exc:  # gunicorn needs fcntl and fork: not on Windows
        raise CommandError(f"--workers {workers} needs gunicorn, which does not run on this platform "
                           f"({sys.platform}: {exc}): use --workers 1 (one process, waitress)") from exc
    check_built(home)  # here, not in each worker: a worker that fails to boot is a traceback
    check_port(host, port)  # gunicorn would retry a busy port five times, then log a traceback
    home_given = home

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in {"bind": [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"],
                               "workers": workers, "worker_class": WORKER_CLASS,
                               "threads": threads, "preload_app": False,
                               "loglevel": "warning", "proc_name": "rulekb"}.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            # In each worker after the fork: its own build, loading in its own thread.
            app = starting_app(home_given, listening_url(host, port))
            announce_when_ready(app, f"rulekb worker {os.getpid()}")
            return app

    click.echo(f"serving rulekb on http://{host}:{port}/ with {workers} gunicorn workers of "
               f"{threads} threads (API: /api; health: /api/v1/health; a rebuild of {home} is "
               "picked up without a restart)", err=True)
    master = os.getpid()
    try:
        Server().run()
    except SystemExit as exc:  # gunicorn ends by sys.exit, in its master and in each worker
        if os.getpid() == master and exc.code in (0, None):
            click.echo("rulekb stopped: on SIGTERM gunicorn's workers answered the requests they had "
                       "(on Ctrl-C they stop at once)", err=True)
        raise


def check_port(host: str, port: int) -> None:
    """CommandError, one line, unless ``host:port`` can be listened on right now."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CommandError(_bad_host(host, exc)) from exc
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds it
        try:
            probe.bind(address)
        except OSError as exc:
            raise CommandError(listen_error(exc, host, port)) from exc
