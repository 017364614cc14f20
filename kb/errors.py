"""The one error every layer raises: an HTTP-like status, a message and details.

It stands below every subsystem (readers, search, timing, citations, editions) and the
facade, so any of them can raise it without importing the facade. The CLI prints it as one
line; the API answers it as ``{"error": {"status", "message", "detail"}}``.
"""

from __future__ import annotations

from typing import Any


class QueryError(Exception):
    """A question that cannot be answered: an HTTP-like status, a message, and details."""

    def __init__(self, status: int, message: str, detail: Any = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.detail = detail

    def as_dict(self) -> dict[str, Any]:
        return {"error": {"status": self.status, "message": self.message, "detail": self.detail}}
