"""The ``rulekb`` command line: one Click group (:mod:`kb.cli.app`), one module per area of
commands, each registering its commands on the group when imported here.

Every command answers errors the same way (:func:`~kb.cli.app.reported_errors`, applied once
to the whole group): a one-line message naming the place it went wrong (file:line, the rule,
the nearest numbers, the path or port) and what to do, on stderr, and a non-zero exit code.
"""

from kb.cli.app import (CONTEXT_SETTINGS, USE_ANOTHER_HOME, CommandError, RulekbGroup,  # noqa: F401
                        echo_query_error, edition_option, emit_json, handle_errors, home_of,
                        json_option, main, open_kb, os_error_message, reported_errors,
                        ruleset_option)

from kb.cli import rules as _rules  # noqa: F401  (registers commands)
from kb.cli import serve as _serve  # noqa: F401
from kb.cli import search as _search  # noqa: F401
from kb.cli import cite as _cite  # noqa: F401
from kb.cli import timing as _timing  # noqa: F401
from kb.cli import editions as _editions  # noqa: F401
from kb.cli import export as _export  # noqa: F401
from kb.cli import records as _records  # noqa: F401
from kb.cli import cards as _cards  # noqa: F401
