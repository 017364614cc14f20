"""``rulekb serve``: the API and the site on a real WSGI server (waitress)."""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import sys

import click

from kb.cli import CommandError, handle_errors, home_of, main
from kb.cli.params import PORT

SWITCH_INTERVAL = 0.001  # seconds a thread holds the GIL before another may take it
MALLOC_ARENAS = 2
M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)
ANOTHER_PORT = "choose another with --port N (with make: PORT=N make run)"


def listen_error(exc: OSError, host: str, port: int) -> str:
    """One line for a failure to listen on ``host:port``, saying what to do."""
    if exc.errno == errno.EADDRINUSE:
        return f"port {port} on {host} is in use (another server, perhaps rulekb itself): {ANOTHER_PORT}"
    if exc.errno in (errno.EACCES, errno.EPERM):
        low = " (ports below 1024 need root)" if port < 1024 else ""
        return f"not allowed to listen on port {port}{low}: {ANOTHER_PORT}"
    if exc.errno == errno.EADDRNOTAVAIL:
        return (f"cannot listen on address {host!r} ({exc.strerror or exc}): use --host with an "
                "address of this machine, e.g. 127.0.0.1 or 0.0.0.0")
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


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=PORT, help="Port to listen on.")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 256),
              help="Worker threads.")
@click.pass_context
@handle_errors
def serve_cmd(ctx: click.Context, host: str, port: int, threads: int) -> None:
    """Serve the JSON API and the rules browser website.

    The port is taken before anything is announced: a port in use is one line saying so.
    """
    from waitress.server import create_server

    from web import create_app
    # A thread answering a quick lookup waits for the GIL each time it wakes from I/O; with
    # the default 5 ms interval a heavy request in another thread (a timing run near its
    # budgets) made a 3 ms lookup wait 50-100 ms. At 1 ms the wait shrinks with it.
    sys.setswitchinterval(SWITCH_INTERVAL)
    few_malloc_arenas()
    app = create_app(home_of(ctx))
    try:
        server = create_server(app, host=host, port=port, threads=threads, ident="rulekb")
    except OSError as exc:
        raise CommandError(listen_error(exc, host, port)) from exc
    except ValueError as exc:  # waitress: a host it cannot resolve
        raise CommandError(f"cannot listen on address {host!r} ({exc}): use --host with an address "
                           "of this machine, e.g. 127.0.0.1 or 0.0.0.0") from exc
    click.echo(f"serving rulekb on http://{host}:{server.effective_port}/ (API: /api; a rebuild of "
               f"{home_of(ctx)} is picked up without a restart)", err=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
