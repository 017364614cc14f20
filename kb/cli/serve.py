"""``rulekb serve``: the API and the site on a real WSGI server (waitress)."""

from __future__ import annotations

import errno

import click

from kb.cli import CommandError, handle_errors, home_of, main
from kb.cli.params import PORT

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
