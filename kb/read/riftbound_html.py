"""Placeholder until the reader lands."""
from kb.model import ReadResult
FORMAT = "riftbound_html"
def sniff(text: str) -> int:
    return 0
def read(text: str, source: str = "") -> ReadResult:
    return ReadResult([])
