"""The rules browser site (being built)."""
from flask import Blueprint
bp = Blueprint("site", __name__)


@bp.get("/")
def home() -> str:
    return "<!doctype html><title>rulekb</title><h1>rulekb</h1>"
