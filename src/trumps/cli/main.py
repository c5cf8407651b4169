"""Entry point of the ``trumps`` command (placeholder until the CLI lands)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("trumps: the command line is being built", file=sys.stderr)
    return 2
