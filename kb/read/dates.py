"""The date an edition takes effect, as its first lines print it, in the ways publishers write it.

``These rules are effective as of January 16, 2026.``, ``Last Updated: 2026-03-30``,
``Last Updated 4/29/2026`` are the releases' own; a future edition or another producer may write
``Effective as of 2027-01-15``, ``Last Updated: January 15, 2027``, ``15 January 2027``,
``Jan. 15th, 2027`` or ``2027/01/15``. A slashed date with the year last is read month first,
as the releases print it (``4/29/2026``).
"""

from __future__ import annotations

import calendar
import re
from datetime import date

_MONTHS = {name.lower(): n for n, name in enumerate(calendar.month_name) if name}
_MONTHS.update({name.lower(): n for n, name in enumerate(calendar.month_abbr) if name})
_MONTHS["sept"] = 9
# The words before the date: what says it is the edition's date, not a date in a rule.
_LEAD = r"(?:(?:effective|current)\s+(?:as\s+)?of|last\s+updated\s*:?|updated\s*:|effective(?:\s+date)?\s*:)"
_DATE = (r"(?P<y>\d{4})[-–/.](?P<m>\d{1,2})[-–/.](?P<d>\d{1,2})(?!\d)"
         r"|(?P<m2>\d{1,2})/(?P<d2>\d{1,2})/(?P<y2>\d{4})"
         r"|(?P<month>[A-Za-z]{3,9})\.?\s+(?P<d3>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y3>\d{4})"
         r"|(?P<d4>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month4>[A-Za-z]{3,9})\.?,?\s+(?P<y4>\d{4})")
EDITION_DATE = re.compile(rf"{_LEAD}\s*(?:{_DATE})", re.IGNORECASE)


def edition_date(text: str) -> str:
    """The ISO date of the first line of ``text`` that says when the edition takes effect
    (``effective as of``, ``current as of``, ``Last Updated``), in any of the formats of the
    module docstring; "" when there is none, or the date named does not exist.

    >>> edition_date("These rules are effective as of January 16, 2026."), edition_date("Last Updated: 15 Jan 2027")
    ('2026-01-16', '2027-01-15')
    """
    for m in EDITION_DATE.finditer(" ".join(text.split())):  # a sentence may be wrapped over lines
        g = m.groupdict()
        if g["y"]:
            year, month, day = g["y"], g["m"], g["d"]
        elif g["y2"]:
            year, month, day = g["y2"], g["m2"], g["d2"]
        else:
            name = (g["month"] or g["month4"]).lower()
            if name not in _MONTHS:
                continue
            year, month, day = g["y3"] or g["y4"], _MONTHS[name], g["d3"] or g["d4"]
        try:
            return date(int(year), int(month), int(day)).isoformat()
        except ValueError:
            continue
    return ""
