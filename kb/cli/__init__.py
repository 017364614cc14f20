"""The ``rulekb`` command line: one Click group (:mod:`kb.cli.app`), one module per area of
commands, each registering its commands on the group when it is imported: when its command
is run, not before (:data:`~kb.cli.app.COMMAND_MODULES`), so a command imports only what it
needs.

Every command answers errors the same way (:func:`~kb.cli.app.reported_errors`, applied once
to the whole group): a one-line message naming the place it went wrong (file:line, the rule,
the nearest numbers, the path or port) and what to do, on stderr, and exit code 2; exit 1
is kept for what a command checks for and found (:data:`~kb.cli.app.EXIT_FINDING`).
"""

from kb.cli.app import (COMMAND_MODULES, CONTEXT_SETTINGS, EXIT_ERROR, EXIT_FINDING, EXIT_INTERNAL,  # noqa: F401
                        EXIT_OK, USE_ANOTHER_HOME, CommandError, RulekbGroup,
                        echo_query_error, edition_option, emit_json, handle_errors, home_of,
                        json_option, main, open_kb, os_error_message, reported_errors,
                        ruleset_option)
