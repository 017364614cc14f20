"""``python -m bench``: list the benchmark modules and how to run each."""

from __future__ import annotations

import pkgutil
from pathlib import Path


def main() -> None:
    folder = Path(__file__).resolve().parent
    for module in sorted(m.name for m in pkgutil.iter_modules([str(folder)]) if not m.name.startswith("_")):
        print(f".venv/bin/python -m bench.{module}")


if __name__ == "__main__":
    main()
