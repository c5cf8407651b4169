"""PBN 2.1 import and export (Portable Bridge Notation).

Reading gives each record's deal, dealer, vulnerability, auction (with
note references as alerts, suffixes ``!``/``?`` and NAGs as annotations),
contract, declarer, result, play (in the order played), score,
``DoubleDummyTricks`` and ``OptimumResultTable``.  Tags a record leaves out
inherit from the previous record (``[Deal]`` omitted means the same deal of
the same board, as in two-room files); ``#`` is the nearest earlier real
value of the tag (PBN 4.8; forbidden for Deal, Dealer, Vulnerable,
Declarer, Contract, Auction and Play), ``##value`` holds for every later
record.  ``?`` or an empty value means unknown.  ``[Score]`` and
``[Result]`` accept all five PBN forms (a bare number is declarer's).
Writing follows the export format: the 15 mandatory tags in order, the
other tags sorted, ``None``/``All`` vulnerability, deal from the dealer.

``read_pbn(text, strict=True)`` raises :class:`PbnError` listing every
defect with its record number; ``strict=False`` loads what is sound and
keeps the defects on each record (:attr:`PbnRecord.defects`).

>>> recs = read_pbn('[Board "1"]\\n[Dealer "N"]\\n[Vulnerable "None"]\\n'
...                 '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -"]\\n'
...                 '[Contract "7S"]\\n[Declarer "N"]\\n[Result "13"]\\n')
>>> str(recs[0].contract), recs[0].computed_score()
('7S', 1510)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trumps.bridge.auction import Auction
from trumps.bridge.calls import PASS, Call, Contract
from trumps.bridge.deal import BridgeDeal
from trumps.bridge.hands import format_deal, parse_deal
from trumps.bridge.pbn_lex import RawRecord, lex
from trumps.bridge.scoring import deal_score, vulnerable_sides
from trumps.core.cards import Card
from trumps.core.errors import TrumpsError

__all__ = ["PbnError", "PbnRecord", "read_pbn", "read_pbn_file", "records_from_game", "write_pbn"]

SEATS = "NESW"
INHERITED = (
    "Event", "Site", "Date", "Board", "Dealer", "Vulnerable", "Deal", "Scoring",
    "Stage", "HomeTeam", "VisitTeam", "Competition", "Section",
)  # fmt: skip
_BOARD_TAGS = frozenset({"Deal", "Dealer", "Vulnerable"})  # belong to one board number
_NOTE_REF = re.compile(r"^=(\d+)=$")
# PBN 4.8: '#' (and '##') are forbidden for these tags
_NO_HASH = frozenset({"Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play"})
# PBN 3.5.3 / 3.6.3: suffix annotations and the NAGs they stand for (calls; cards add 6)
_SUFFIX_NAG = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_SUFFIX = re.compile(r"^(.*?)(!!|\?\?|!\?|\?!|!|\?)$")
_SIDE_VALUE = re.compile(r"^(NS|EW)\s+([+-]?\d+)(?:\s+(NS|EW)\s+([+-]?\d+))?$")
# DoubleDummyTricks: declarers N S E W, each strains NT S H D C; our table is [C D H S NT][N E S W]
_DDT_SEATS = (0, 2, 1, 3)
_DDT_STRAINS = (4, 3, 2, 1, 0)


class PbnError(TrumpsError):
    """A PBN file has defects (strict mode): ``defects`` lists them."""

    def __init__(self, defects: list[str]) -> None:
        self.defects = defects
        shown = "\n".join(defects[:50])
        more = f"\n... and {len(defects) - 50} more" if len(defects) > 50 else ""
        super().__init__(f"{len(defects)} PBN defect(s):\n{shown}{more}")


@dataclass
class PbnRecord:
    """One board result read from (or written to) PBN."""

    number: int = 0
    tags: dict[str, str] = field(default_factory=dict)
    hands: list[list[Card]] | None = None
    dealer: int | None = None
    vulnerable: str | None = None
    board: int | None = None
    auction: list[Call] | None = None
    auction_first: int | None = None
    alerts: dict[int, str] = field(default_factory=dict)  # call index -> note text
    notes: dict[int, str] = field(default_factory=dict)  # auction notes (and stray ones)
    play_notes: dict[int, str] = field(default_factory=dict)  # notes of the play section
    call_nags: dict[int, list[int]] = field(default_factory=dict)  # call index -> NAGs ($1-$6 = suffixes)
    contract: Contract | None = None
    passed_out: bool = False
    declarer: int | None = None
    result: int | None = None
    play: list[Card] = field(default_factory=list)  # in the order played
    play_complete: bool = False
    score: int | None = None  # NS view
    dd_tricks: tuple[tuple[int, ...], ...] | None = None  # [strain C..NT][seat N..W]
    optimum: list[tuple[int, int, int]] = field(default_factory=list)  # seat, strain, tricks
    other_sections: dict[str, list[str]] = field(default_factory=dict)
    _sections: dict[str, list[str]] = field(default_factory=dict, repr=False)
    comments: list[str] = field(default_factory=list)
    defects: list[str] = field(default_factory=list)

    def defect(self, text: str) -> None:
        self.defects.append(f"record {self.number}: {text}")

    def computed_score(self) -> int | None:
        """The duplicate score (NS view) of contract and result, if known."""
        if self.passed_out:
            return 0
        if self.contract is None or self.declarer is None or self.result is None or self.vulnerable is None:
            return None
        vul = vulnerable_sides(self.vulnerable)[self.declarer & 1]
        s = deal_score(self.contract, vul, self.result)
        return s if self.declarer & 1 == 0 else -s

    def table(self, name: str) -> tuple[list[str], list[list[str]]]:
        """A PBN table tag (``OptimumResultTable``, ``TotalScoreTable``, …):
        its column names (width/alignment suffixes such as ``\\2R`` removed)
        and its rows (quoted fields kept whole)."""
        import shlex

        header = self.tags.get(name)
        if header is None:
            return [], []
        columns = [re.sub(r"\\\d+[LR]?$", "", c) for c in header.split(";") if c]
        lines = self._sections.get(name, [])
        rows = []
        for line in lines:
            try:
                rows.append(shlex.split(line))
            except ValueError:
                rows.append(line.split())
        return columns, rows

    def to_game(self) -> Any:
        """A duplicate :class:`~trumps.bridge.game.Bridge` game of this
        record with its auction and play applied through the public
        protocol (without an auction: started at the contract)."""
        import trumps

        if self.hands is None:
            raise TrumpsError(f"record {self.number}: no deal")
        first = self.auction_first if self.auction_first is not None else (self.dealer or 0)
        options = {"scoring": "duplicate", "vulnerability": self.vulnerable or "None"}
        deal = format_deal(self.hands)
        if self.auction and _complete_auction(first, self.auction):
            game = trumps.new_game("bridge", options=options, deal=deal, dealer=first)
            for call in self.auction:
                game.apply(call)
        elif self.contract is not None and self.declarer is not None:
            game = trumps.new_game(
                "bridge", options=options, deal=deal, dealer=first, contract=str(self.contract),
                declarer=self.declarer,
            )  # fmt: skip
        else:
            raise TrumpsError(f"record {self.number}: neither an auction nor a contract")
        for card in self.play:
            if game.is_over:
                break
            game.apply(card)
        return game

    def replay(self) -> int | None:
        """Replay a complete 52-card play with the engine and return the
        tricks declarer's side won (``None`` if the play is incomplete)."""
        if not self.play_complete or self.hands is None or self.contract is None or self.declarer is None:
            return None
        d = BridgeDeal(self.dealer or 0, self.hands, (False, False), self.contract, self.declarer)
        for card in self.play:
            if card not in d.legal_actions():
                raise TrumpsError(f"record {self.number}: {card} is not legal in the replay")
            d.apply_legal(card)
        return d.declarer_tricks()


def _complete_auction(first: int, calls: list[Call]) -> bool:
    """Do ``calls`` (from seat ``first``) make a finished auction?"""
    a = Auction(first)
    for call in calls:
        if a.done or call not in a.legal():
            return False
        a.apply(call)
    return a.done


def _seat(value: str | None) -> int | None:
    if value is None:
        return None
    v = value.strip().lstrip("^").upper()
    return SEATS.index(v) if len(v) == 1 and v in SEATS else None


def _unknown(value: str | None) -> bool:
    return value is None or value.strip() in ("", "?")


def read_pbn(text: str, *, strict: bool = True) -> list[PbnRecord]:
    """Read every record of a PBN file (see the module docstring)."""
    raws, _ = lex(text.removeprefix("\ufeff"))
    out: list[PbnRecord] = []
    previous: dict[str, str] = {}
    state = _Inheritance()
    for raw in raws:
        rec = _interpret(raw, previous, state)
        previous = {k: v for k, v in rec.tags.items() if k in INHERITED}
        out.append(rec)
    if strict:
        defects = [d for r in out for d in r.defects]
        if defects:
            raise PbnError(defects)
    return out


def read_pbn_file(path: str | Path, *, strict: bool = True) -> list[PbnRecord]:
    """Read a PBN file (UTF-8, or Latin-1 when it is not valid UTF-8)."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return read_pbn(text, strict=strict)


@dataclass
class _Inheritance:
    """File-level state of PBN 4.8: the latest real value of every tag (for
    ``#``) and the values given with ``##`` (for every later game)."""

    last: dict[str, str] = field(default_factory=dict)
    sticky: dict[str, str] = field(default_factory=dict)


def _interpret(raw: RawRecord, previous: dict[str, str], state: _Inheritance | None = None) -> PbnRecord:
    rec = PbnRecord(number=raw.number, comments=list(raw.comments))
    rec.defects.extend(f"record {raw.number}: {d}" for d in raw.defects)
    st = state if state is not None else _Inheritance()
    sections: dict[str, list[str]] = {}
    section = ""  # the latest non-Note tag: Note tags belong to the Auction or Play before them
    for (name, value), lines in zip(raw.tags, raw.data, strict=True):
        if name == "Note":
            m = re.match(r"\s*(\d+)\s*:(.*)", value, re.S)
            if m:
                (rec.play_notes if section == "Play" else rec.notes)[int(m.group(1))] = m.group(2).strip()
            else:
                rec.defect(f"[Note {value!r}] has no number")
            continue
        section = name
        if name in rec.tags:  # PBN 3.4: in import format a repeated tag pair is ignored
            continue
        if value.startswith("##"):  # PBN 4.8: this value and every later game's
            if name in _NO_HASH:
                rec.defect(f'[{name} "{value}"]: "##" is not allowed for {name}')
            value = value[2:]
            st.sticky[name] = value
        elif value == "#":  # PBN 4.8: the nearest previous game's real value, else ""
            if name in _NO_HASH:
                rec.defect(f'[{name} "#"]: "#" is not allowed for {name}')
            value = st.last.get(name, previous.get(name, ""))
        elif name in st.sticky:  # a '##' value redefined mid-file holds from here on
            st.sticky[name] = value
        rec.tags[name] = value
        if lines:
            sections[name] = lines
    for name, value in st.sticky.items():
        rec.tags.setdefault(name, value)
    # A tag left out is the previous game's (two-room files give the deal once);
    # the deal itself only carries over to the same board.
    same_board = rec.tags.get("Board", previous.get("Board")) == previous.get("Board")
    for name in INHERITED:
        if name not in rec.tags and name in previous and (same_board or name not in _BOARD_TAGS):
            rec.tags[name] = previous[name]
    st.last.update(rec.tags)
    _read_basics(rec)
    if "Auction" in rec.tags:
        _read_auction(rec, sections.get("Auction", []))
    _read_outcome(rec)
    if "Play" in rec.tags and not _unknown(rec.tags["Play"]):
        _read_play(rec, sections.get("Play", []))
    _read_extras(rec, sections)
    rec._sections = sections
    for name, lines in sections.items():
        if name not in ("Auction", "Play", "OptimumResultTable"):
            rec.other_sections[name] = lines
    return rec


def _read_basics(rec: PbnRecord) -> None:
    t = rec.tags
    if not _unknown(t.get("Board")):
        try:
            rec.board = int(t["Board"])
        except ValueError:
            rec.defect(f"[Board {t['Board']!r}] is not a number")
    if not _unknown(t.get("Dealer")):
        rec.dealer = _seat(t["Dealer"])
        if rec.dealer is None:
            rec.defect(f"[Dealer {t['Dealer']!r}] is not a seat")
    if not _unknown(t.get("Vulnerable")):
        try:
            ns, ew = vulnerable_sides(t["Vulnerable"])
            rec.vulnerable = {(0, 0): "None", (1, 0): "NS", (0, 1): "EW", (1, 1): "Both"}[(ns, ew)]
        except TrumpsError:
            rec.defect(f"[Vulnerable {t['Vulnerable']!r}] is not a vulnerability")
    if not _unknown(t.get("Deal")):
        try:
            rec.hands = parse_deal(t["Deal"])
        except TrumpsError as exc:
            rec.defect(f"[Deal]: {exc}")
    contract = t.get("Contract")
    if not _unknown(contract):
        assert contract is not None
        if contract.strip().upper() in ("PASS", "P", "AP"):
            rec.passed_out = True
        else:
            text = contract.strip()
            if text.upper().endswith("R") and not text.upper().endswith("XR"):
                rec.defect(f"[Contract {contract!r}] writes a redouble as 'R', not 'XX'")
                text = text[:-1] + "XX"
            try:
                rec.contract = Contract.parse(text)
            except TrumpsError:
                rec.defect(f"[Contract {contract!r}] is not a contract")
    if rec.contract is not None:
        rec.declarer = _seat(t.get("Declarer"))
        if rec.declarer is None:
            rec.defect(
                f"[Declarer {t.get('Declarer')!r}] is missing or not a seat for contract {rec.contract}"
            )


def _read_outcome(rec: PbnRecord) -> None:
    """[Result] and [Score], once the declarer is known (from the tags or the auction)."""
    t = rec.tags
    if not _unknown(t.get("Result")) and not rec.passed_out:
        rec.result = _result(rec, t["Result"])
    score = t.get("Score")
    if not _unknown(score):
        assert score is not None
        rec.score = _score(rec, score)


def _side_values(text: str) -> tuple[int | None, dict[str, int]] | None:
    """``"<n>"`` → (n, {}); ``"NS <n>"``, ``"EW <n>"``, ``"NS <n> EW <m>"``,
    ``"EW <n> NS <m>"`` → (None, {side: value}); ``None`` if malformed
    (PBN 3.4.15 / 4.2.1)."""
    v = " ".join(text.split())
    if re.fullmatch(r"[+-]?\d+", v):
        return int(v), {}
    m = _SIDE_VALUE.match(v)
    if m is None or m.group(1) == m.group(3):
        return None
    out = {m.group(1): int(m.group(2))}
    if m.group(3):
        out[m.group(3)] = int(m.group(4))
    return None, out


def _result(rec: PbnRecord, text: str) -> int | None:
    """Tricks won by declarer from a [Result] value: ``9``, ``NS 9``,
    ``EW 4``, ``NS 9 EW 4`` (a leading ``^`` marks an agreed wrong count)."""
    got = _side_values(text.strip().lstrip("^"))
    value: int | None = None
    if got is not None:
        plain, sides = got
        if plain is not None:
            value = plain
        elif rec.declarer is not None:
            mine, theirs = ("NS", "EW") if rec.declarer % 2 == 0 else ("EW", "NS")
            if mine in sides:
                value = sides[mine]
            elif theirs in sides:
                value = 13 - sides[theirs]
        else:
            rec.defect(f"[Result {text!r}] names a side but the declarer is not known")
            return None
    if value is None or not 0 <= value <= 13:
        rec.defect(f"[Result {text!r}] is not 0 to 13 tricks")
        return None
    return value


def _score(rec: PbnRecord, text: str) -> int | None:
    """The NS score from a [Score] value: ``NS 620``, ``EW -620``,
    ``NS 620 EW -620``, or a bare number, which is declarer's score."""
    got = _side_values(text)
    if got is None:
        rec.defect(f"[Score {text!r}] is not a score")
        return None
    plain, sides = got
    if plain is None:
        return sides["NS"] if "NS" in sides else -sides["EW"]
    if rec.passed_out:
        return plain
    if rec.declarer is None:
        rec.defect(f"[Score {text!r}] is declarer's score but the declarer is not known")
        return None
    return plain if rec.declarer % 2 == 0 else -plain


def _read_auction(rec: PbnRecord, lines: list[str]) -> None:
    first = _seat(rec.tags["Auction"])
    if first is None:
        if not _unknown(rec.tags["Auction"]):
            rec.defect(f"[Auction {rec.tags['Auction']!r}] is not a seat")
        return
    tokens = " ".join(lines).split()
    # PBN 3.5: in import format the table may start left of the dealer, each
    # player before the dealer having a '-' in the first line
    lead = 0
    while lead < len(tokens) and tokens[lead] == "-":
        lead += 1
    first = (first + lead) % 4
    rec.auction_first = first
    if rec.dealer is not None and first != rec.dealer:
        rec.defect(f"the auction starts with {SEATS[first]}, not the dealer {SEATS[rec.dealer]}")
    a = Auction(first)
    calls: list[Call] = []
    for token in tokens[lead:]:
        if token in ("*", "+"):  # the end of the section / the next call to be made
            break
        if token.startswith("^"):  # irregularity tokens (^I, ^S, ^R, ^L)
            continue
        if token.startswith("$"):
            if calls and token[1:].isascii() and token[1:].isdigit():
                rec.call_nags.setdefault(len(calls) - 1, []).append(int(token[1:]))
            continue
        m = _NOTE_REF.match(token)
        if m:
            if calls:
                note = rec.notes.get(int(m.group(1)))
                rec.alerts[len(calls) - 1] = note if note is not None else f"note {m.group(1)}"
            continue
        word, suffix = _split_suffix(token)
        if suffix:  # '!', '?', ... : annotations of the call (PBN 3.5.3), not alerts
            at = len(calls) if word else len(calls) - 1
            if at >= 0:
                rec.call_nags.setdefault(at, []).append(_SUFFIX_NAG[suffix])
            if not word:
                continue
        if token == "-":
            rec.defect("auction: '-' after the first call")
            break
        if word.upper() == "AP":
            while not a.done:
                a.apply(PASS)
                calls.append(PASS)
            continue
        if a.done:
            rec.defect(f"call {word!r} after the end of the auction")
            break
        try:
            call = Call.parse(word)
        except TrumpsError:
            rec.defect(f"auction: {token!r} is not a call")
            break
        if call not in a.legal():
            rec.defect(f"auction: {call} by {SEATS[a.to_act or 0]} is not legal")
            break
        a.apply(call)
        calls.append(call)
    rec.auction = calls
    if a.done:
        won = a.contract()
        if _unknown(rec.tags.get("Contract")):  # no [Contract]: the auction gives it
            if won is None:
                rec.passed_out = True
            else:
                rec.declarer, rec.contract = won
        elif won is None and rec.contract is not None:
            rec.defect(f"the auction is passed out but [Contract] is {rec.contract}")
        elif (
            won is not None
            and rec.contract is not None
            and (won[1] != rec.contract or won[0] != rec.declarer)
        ):
            rec.defect(
                f"the auction ends in {won[1]} by {SEATS[won[0]]}, not [Contract] {rec.contract} "
                f"by {SEATS[rec.declarer] if rec.declarer is not None else '?'}"
            )


def _split_suffix(token: str) -> tuple[str, str]:
    """``"1S!!"`` → ``("1S", "!!")``; ``"?"`` → ``("", "?")``."""
    m = _SUFFIX.match(token)
    return (m.group(1), m.group(2)) if m else (token, "")


def _read_play(rec: PbnRecord, lines: list[str]) -> None:
    first = _seat(rec.tags["Play"])
    if first is None:
        rec.defect(f"[Play {rec.tags['Play']!r}] is not a seat")
        return
    if rec.contract is None or rec.declarer is None or rec.hands is None:
        rec.defect("a play section without a known deal, contract and declarer")
        return
    # (PBN 3.6: only export format requires the first column to be the
    # opening leader; the columns are fixed seats, so any start reads the same)
    # The cards of each trick in four fixed seat columns; a line may hold
    # fewer cards "due to much annotation" (PBN 3.6), so read a flat stream.
    cards: list[str] = []
    for token in " ".join(lines).split():
        if token == "*":
            break
        if _NOTE_REF.match(token) or token.startswith(("$", "^")):
            continue
        word, _ = _split_suffix(token)
        if word:
            cards.append(word)
    rows = [cards[k : k + 4] for k in range(0, len(cards), 4)]
    d = BridgeDeal(rec.dealer or 0, rec.hands, (False, False), rec.contract, rec.declarer)
    for k, row in enumerate(rows, 1):
        row = row + ["-"] * (4 - len(row))  # a short last trick: the rest not played
        by_seat = {(first + j) % 4: tok for j, tok in enumerate(row)}
        for _ in range(4):
            seat = d.hand_to_play
            if seat is None:
                rec.defect(f"play trick {k}: cards after the last trick")
                return
            token = by_seat[seat]
            if token in ("-", "+"):
                rec.play_complete = False
                return
            try:
                card = Card(token[1:] + token[0] if token[0] in "SHDC" else token)
            except TrumpsError:
                rec.defect(f"play trick {k}: {token!r} is not a card")
                return
            if card not in d.hands[seat]:
                rec.defect(f"play trick {k}: {SEATS[seat]} plays {token}, a card not held")
                return
            if card not in d.legal_actions():
                rec.defect(f"play trick {k}: {SEATS[seat]} plays {token}, a revoke")
                return
            d.apply_legal(card)
            rec.play.append(card)
    rec.play_complete = len(rec.play) == 52
    agreed = rec.tags.get("Result", "").lstrip().startswith("^")  # PBN 3.4.15: a known wrong count
    if rec.play_complete and rec.result is not None and d.declarer_tricks() != rec.result and not agreed:
        rec.defect(f"the complete play gives {d.declarer_tricks()} tricks, not [Result] {rec.result}")


def _read_extras(rec: PbnRecord, sections: dict[str, list[str]]) -> None:
    ddt = rec.tags.get("DoubleDummyTricks")
    if not _unknown(ddt):
        assert ddt is not None
        v = ddt.strip()
        if not re.fullmatch(r"[0-9a-dA-D]{20}", v):
            rec.defect(f"[DoubleDummyTricks {ddt!r}] is not 20 hex digits")
        else:
            table = [[0] * 4 for _ in range(5)]
            for i, ch in enumerate(v):
                table[_DDT_STRAINS[i % 5]][_DDT_SEATS[i // 5]] = int(ch, 16)
            rec.dd_tricks = tuple(tuple(r) for r in table)
    if "OptimumResultTable" in rec.tags:
        strains = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": 4}
        for line in sections.get("OptimumResultTable", []):
            parts = line.split()
            if (
                len(parts) != 3
                or _seat(parts[0]) is None
                or parts[1] not in strains
                or not (parts[2].isascii() and parts[2].isdigit())
            ):
                rec.defect(f"OptimumResultTable row {line!r} is not 'seat strain tricks'")
                continue
            seat = _seat(parts[0])
            assert seat is not None
            rec.optimum.append((seat, strains[parts[1]], int(parts[2])))


# ----------------------------------------------------------------------------
# writing
# ----------------------------------------------------------------------------
_ORDER = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable",
          "Deal", "Scoring", "Declarer", "Contract", "Result")  # fmt: skip


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def write_pbn(records: Iterable[PbnRecord]) -> str:
    """PBN 2.1 text of ``records`` (export format: every tag written)."""
    out = ["% PBN 2.1", "% EXPORT", ""]
    for rec in records:
        out.extend(_write_record(rec))
        out.append("")
    return "\n".join(out)


def _tags_of(rec: PbnRecord) -> dict[str, str]:
    tags = dict(rec.tags)
    tags["Board"] = str(rec.board) if rec.board is not None else tags.get("Board", "?")
    tags["Dealer"] = SEATS[rec.dealer] if rec.dealer is not None else "?"
    # PBN 3.4.10: export format writes "None" and "All"
    tags["Vulnerable"] = "All" if rec.vulnerable == "Both" else rec.vulnerable or "?"
    tags["Deal"] = format_deal(rec.hands, rec.dealer or 0) if rec.hands is not None else "?"
    if rec.passed_out:
        tags["Contract"], tags["Declarer"], tags["Result"] = "Pass", "", ""
    else:
        tags["Contract"] = str(rec.contract) if rec.contract is not None else "?"
        tags["Declarer"] = SEATS[rec.declarer] if rec.declarer is not None else "?"
        tags["Result"] = str(rec.result) if rec.result is not None else "?"
    if rec.score is not None:
        tags["Score"] = f"NS {rec.score}"
    if rec.dd_tricks is not None:
        tags["DoubleDummyTricks"] = "".join(
            format(rec.dd_tricks[_DDT_STRAINS[i % 5]][_DDT_SEATS[i // 5]], "x") for i in range(20)
        )
    return tags


def _write_record(rec: PbnRecord) -> list[str]:
    tags = _tags_of(rec)
    lines: list[str] = []
    skip = {"Auction", "Play", "Note", "OptimumResultTable"}
    for name in _ORDER:
        lines.append(f'[{name} "{_quote(tags.get(name, "?"))}"]')
    # PBN 3.1/3.4 export order: the 15 mandatory tags, the other tags of the
    # identification section sorted by name, the auction, the play, then the
    # supplemental sections (tags with section data) sorted by name.
    extra = {name: value for name, value in tags.items() if name not in _ORDER and name not in skip}
    if rec.optimum:
        extra["OptimumResultTable"] = "Declarer;Denomination\\2R;Result\\2R"
    tables = {n for n in extra if n == "OptimumResultTable" or rec.other_sections.get(n)}
    lines.extend(f'[{name} "{_quote(extra[name])}"]' for name in sorted(extra) if name not in tables)
    if rec.auction is not None and rec.auction_first is not None:
        lines.append(f'[Auction "{SEATS[rec.auction_first]}"]')
        notes: list[tuple[int, str]] = []
        tokens: list[str] = []
        check = Auction(rec.auction_first)
        for i, call in enumerate(rec.auction):
            tokens.append("Pass" if call is PASS else str(call))
            if not check.done and call in check.legal():
                check.apply(call)
            if i in rec.alerts:
                notes.append((len(notes) + 1, rec.alerts[i]))
                tokens.append(f"={len(notes)}=")
            tokens.extend(f"${n}" for n in sorted(rec.call_nags.get(i, ())))  # export: NAGs, ascending
        if not check.done:
            tokens.append("+")  # PBN 3.5: the auction is to be continued
        row: list[str] = []
        count = 0
        for tok in tokens:
            row.append(tok)
            if not tok.startswith(("=", "$")):
                count += 1
                if count % 4 == 0:
                    lines.append(" ".join(row))
                    row = []
        if row:
            lines.append(" ".join(row))
        lines.extend(f'[Note "{n}:{_quote(text)}"]' for n, text in notes)
    if rec.play and rec.declarer is not None and rec.contract is not None and rec.hands is not None:
        lines.extend(_write_play(rec))
    for name in sorted(tables):
        lines.append(f'[{name} "{_quote(extra[name])}"]')
        if name == "OptimumResultTable":
            names = ("C", "D", "H", "S", "NT")
            lines.extend(f"{SEATS[s]} {names[st]:>2} {t:2d}" for s, st, t in rec.optimum)
        else:
            lines.extend(rec.other_sections.get(name, []))
    return lines


def _write_play(rec: PbnRecord) -> list[str]:
    assert rec.declarer is not None and rec.contract is not None and rec.hands is not None
    first = (rec.declarer + 1) % 4
    d = BridgeDeal(rec.dealer or 0, rec.hands, (False, False), rec.contract, rec.declarer)
    lines = [f'[Play "{SEATS[first]}"]']
    row: dict[int, str] = {}
    for card in rec.play:
        seat = d.hand_to_play
        assert seat is not None
        s = str(card)
        row[seat] = s[-1] + s[:-1]
        d.apply_legal(card)
        if len(row) == 4:
            lines.append(" ".join(row[(first + j) % 4] for j in range(4)))
            row = {}
    if row:
        lines.append(" ".join(row.get((first + j) % 4, "-") for j in range(4)))
    if len(rec.play) < 52 and rec.result is not None:
        lines.append("*")  # PBN 3.6: play ended early (a claim); the result is in [Result]
    return lines


def records_from_game(game: Any) -> list[PbnRecord]:
    """PBN records of every deal of a :class:`~trumps.bridge.game.Bridge`
    game so far (the deal in progress included, with the play so far)."""
    out = []
    starts = [*game.deal_starts, len(game.log)]
    for i, stored in enumerate(game.deal_records):
        actions = [a for _, a, _ in game.log[starts[i] : starts[i + 1]]]
        calls = [a for a in actions if isinstance(a, Call)]
        cards = [a for a in actions if isinstance(a, Card)]
        dealer = SEATS.index(stored["dealer"])
        rec = PbnRecord(
            number=i + 1,
            hands=[[Card(c) for c in stored["hands"][s]] for s in SEATS],
            dealer=dealer,
            vulnerable=stored["vulnerable"],
            board=game.options.board or i + 1,
            auction=calls or None,
            auction_first=dealer if calls else None,
            play=cards,
            play_complete=len(cards) == 52,
        )
        result = game.results[i] if i < len(game.results) else None
        if result is not None:
            rec.passed_out = bool(result["passed_out"])
            if result["contract"] is not None:
                rec.contract = Contract.parse(result["contract"])
                rec.declarer = SEATS.index(result["declarer"])
                rec.result = result["tricks"]
                if game.form == "duplicate":
                    rec.score = rec.computed_score()
            if game.form != "duplicate":
                # PBN 4.2.5: rubber/Chicago points of the deal, above/below the line
                sheet = result.get("sheet") or {"above": [0, 0], "below": [0, 0]}
                rec.tags["ScoreRubber"] = (
                    f"NS {sheet['above'][0]}/{sheet['below'][0]} EW {sheet['above'][1]}/{sheet['below'][1]}"
                )
            if "claim" in result:
                rec.tags["Claim"] = f"{result['claim']['seat']} {result['claim']['tricks']}"
        elif game.deal.contract is not None:
            rec.contract = game.deal.contract
            rec.declarer = game.deal.declarer
        rec.tags["Scoring"] = {"rubber": "Rubber", "chicago": "Chicago"}.get(
            game.form, "IMP" if game.options.scoring == "duplicate_imp" else "MP"
        )
        out.append(rec)
    return out
