"""JSON API, /api/v1 (being built)."""
from flask import Blueprint
bp = Blueprint("api", __name__, url_prefix="/api")
