"""Bridge boards from PBN and LIN files, for every command that takes a deal
(``trumps dd FILE``, ``trumps solve --pbn FILE``, ``trumps score bridge
--pbn FILE``).

The files are read by the engine's own parsers (:mod:`trumps.bridge.pbn`,
:mod:`trumps.bridge.lin`), leniently: a defect in another board of a big
file does not stop the one asked for, but a defect in the board asked for
is an error.  A file of several boards needs ``--board N`` (the number of
its ``[Board]`` tag, or with LIN its ``ah``/``qx`` board; the position in
the file when the boards are not numbered); the error says which boards
there are.  Every failure is a :class:`~trumps.cli.common.UsageError` that
names the file, so the command prints one ``trumps: error:`` line.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TYPE_CHECKING

from trumps.cli.common import UsageError

if TYPE_CHECKING:
    from trumps.bridge.pbn import PbnRecord

__all__ = ["MAX_BYTES", "board_number", "is_deal_text", "pick_board", "read_board", "read_boards"]

#: A board file larger than this is refused (a tournament's PBN is a few MB).
MAX_BYTES = 64 * 1024 * 1024

_DEAL = re.compile(r"^\s*[NESWnesw]\s*:")
_LIN = re.compile(r"^\s*[a-zA-Z]{2}\|")


def board_number(text: str) -> int:
    """``--board N``: a board number, at least 1 (an argparse ``type``)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a board number, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"a board number is at least 1, not {n}")
    return n


def is_deal_text(text: str) -> bool:
    """Is ``text`` a PBN deal (``N:AKQ.. ...``) rather than a file name?"""
    return bool(_DEAL.match(text))


def _read_text(path: str) -> str:
    if not path.strip():
        raise UsageError("the file name is empty")
    if "\0" in path:
        raise UsageError(f"{path!r} is not a file name (it holds a NUL byte)")
    p = Path(path)
    try:
        if p.is_dir():
            raise UsageError(f"{path} is a directory, not a PBN or LIN file")
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise UsageError(f"{path} is too large for a board file ({size} bytes)")
        data = p.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:  # old PBN files are Latin-1
        return data.decode("latin-1")


def read_boards(path: str) -> list[PbnRecord]:
    """Every board of a PBN or LIN file (by its suffix, else by its text),
    read leniently (each record keeps its defects)."""
    from trumps.bridge.lin import read_lin
    from trumps.bridge.pbn import read_pbn

    text = _read_text(path)
    if "\0" in text:
        raise UsageError(f"{path} is not a PBN or LIN file (it holds NUL bytes)")
    suffix = Path(path).suffix.lower()
    lin = suffix == ".lin" or (suffix != ".pbn" and bool(_LIN.match(text)) and "[" not in text[:200])
    records = read_lin(text, strict=False) if lin else read_pbn(text, strict=False)
    if not any(r.hands is not None for r in records):
        kind = "LIN" if lin else "PBN"
        defects = [d for r in records for d in r.defects]
        why = ": " + _plain(defects[0]) if defects else ""
        raise UsageError(f"{path} holds no board (read as {kind}){why}")
    return [r for r in records if r.hands is not None or r.defects]


def _plain(defect: str) -> str:
    """A defect without its ``record N:`` (the command names the board)."""
    return re.sub(r"^record \d+: ", "", defect)


def _numbers(records: list[PbnRecord]) -> list[int]:
    """The boards' numbers: their own, else their places in the file."""
    if all(r.board is not None for r in records):
        return [int(r.board or 0) for r in records]
    return list(range(1, len(records) + 1))


def _listed(numbers: list[int]) -> str:
    """``1-16`` for a run, else the first few numbers."""
    distinct = sorted(set(numbers))
    if distinct == list(range(distinct[0], distinct[-1] + 1)) and len(distinct) > 2:
        return f"{distinct[0]}-{distinct[-1]}"
    shown = ", ".join(str(n) for n in distinct[:12])
    return shown + (", ..." if len(distinct) > 12 else "")


def pick_board(records: list[PbnRecord], path: str, board: int | None, *, same: str = "deal") -> PbnRecord:
    """The record of ``--board`` (or the only board of the file).

    ``same`` says what must agree when the board is in the file more than
    once (two rooms played it): ``"deal"`` for the commands that need only
    the cards, ``"result"`` for the score (the contract and result too)."""
    numbers = _numbers(records)
    if board is None:
        chosen = records
        if len({(n, _deal_key(r)) for n, r in zip(numbers, records, strict=True)}) > 1:
            raise UsageError(
                f"{path} holds {len(set(numbers))} boards ({_listed(numbers)}): pick one with --board N"
            )
    else:
        chosen = [r for n, r in zip(numbers, records, strict=True) if n == board]
        if not chosen:
            raise UsageError(f"{path} has no board {board} (its boards: {_listed(numbers)})")
    first = chosen[0]
    label = f"{path}, board {board if board is not None else numbers[0]}"
    for r in chosen:
        if r.defects:
            more = f" (and {len(r.defects) - 1} more)" if len(r.defects) > 1 else ""
            raise UsageError(f"{label}: {_plain(r.defects[0])}{more}")
    if first.hands is None:
        raise UsageError(f"{label}: no deal")
    keys = {_deal_key(r) if same == "deal" else _result_key(r) for r in chosen}
    if len(keys) > 1:
        what = "deals" if same == "deal" else "results"
        raise UsageError(
            f"{label} is in the file {len(chosen)} times with different {what} "
            f"({'; '.join(sorted(keys))}): the board is ambiguous"
        )
    return first


def _deal_key(r: PbnRecord) -> str:
    from trumps.bridge.hands import format_deal

    return format_deal(r.hands) if r.hands is not None else ""


def _result_key(r: PbnRecord) -> str:
    seat = "NESW"[r.declarer] if r.declarer is not None else "?"
    if r.passed_out:
        return "passed out"
    return f"{r.contract or '?'} by {seat}, {r.result if r.result is not None else '?'} tricks"


def read_board(path: str, board: int | None, *, same: str = "deal") -> PbnRecord:
    """One board of a PBN or LIN file (:func:`read_boards`, :func:`pick_board`)."""
    return pick_board(read_boards(path), path, board, same=same)
