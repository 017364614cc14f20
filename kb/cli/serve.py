"""``rulekb serve``: the API and the site on a real WSGI server (waitress)."""

from __future__ import annotations

import click

from kb.cli import handle_errors, home_of, main


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option("--threads", default=8, show_default=True, type=int, help="Worker threads.")
@click.pass_context
@handle_errors
def serve_cmd(ctx: click.Context, host: str, port: int, threads: int) -> None:
    """Serve the JSON API and the rules browser website."""
    import waitress

    from web import create_app
    app = create_app(home_of(ctx))
    click.echo(f"serving rulekb on http://{host}:{port}/ (API: /api; a rebuild of "
               f"{home_of(ctx)} is picked up without a restart)", err=True)
    waitress.serve(app, host=host, port=port, threads=threads, ident="rulekb")
