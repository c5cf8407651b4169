"""BBO LIN import and export: deal (``md``), players (``pn``), board
(``ah``/``qx``), vulnerability (``sv``), auction with alerts (``mb`` with a
``!`` suffix, ``an`` explanations), play (``pc``) and claims (``mc``).

LIN is a flat stream of ``key|value|`` pairs; a board starts at ``qx`` or
at a second ``md``.  Boards come out as :class:`~trumps.bridge.pbn.PbnRecord`
so PBN and LIN share one board model (and can be converted both ways).

>>> recs = read_lin("pn|s,w,n,e|md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|"
...                 "sv|o|mb|7S|mb|p|mb|p|mb|p|mc|13|")
>>> str(recs[0].contract), recs[0].declarer, recs[0].result, recs[0].computed_score()
('7S', 0, 13, 1510)
"""

from __future__ import annotations

from collections.abc import Iterable

from trumps.bridge.auction import Auction
from trumps.bridge.calls import PASS, Call
from trumps.bridge.deal import BridgeDeal
from trumps.bridge.hands import DECK, check_deal
from trumps.bridge.pbn import PbnError, PbnRecord
from trumps.core.cards import Card, Suit
from trumps.core.errors import TrumpsError

__all__ = ["read_lin", "write_lin"]

SEATS = "NESW"
_LIN_SEATS = (2, 3, 0, 1)  # md hand order: South, West, North, East
_DEALER = {"1": 2, "2": 3, "3": 0, "4": 1}
_VUL = {"o": "None", "0": "None", "n": "NS", "e": "EW", "b": "Both"}
_VUL_OUT = {"None": "o", "NS": "n", "EW": "e", "Both": "b"}


def _pairs(text: str) -> list[tuple[str, str]]:
    parts = text.replace("\r", "").replace("\n", "").split("|")
    return [(parts[i].strip().lower(), parts[i + 1]) for i in range(0, len(parts) - 1, 2)]


def _hand(text: str) -> list[Card]:
    cards: list[Card] = []
    suit: Suit | None = None
    for ch in text.strip().upper():
        if ch in "SHDC":
            suit = Suit.parse(ch)
        elif suit is None:
            raise TrumpsError(f"LIN hand {text!r}: rank before a suit letter")
        else:
            cards.append(Card.of(suit, "T" if ch == "1" else ch))
    return cards


def read_lin(text: str, *, strict: bool = True) -> list[PbnRecord]:
    """Read every board of a LIN file; ``strict`` raises :class:`PbnError`
    listing the defects (with board numbers), otherwise they stay on the records."""
    boards: list[list[tuple[str, str]]] = []
    players = ""
    current: list[tuple[str, str]] | None = None
    for key, value in _pairs(text):
        has_md = current is not None and any(k == "md" for k, _ in current)
        if key == "qx" or current is None or (key in ("md", "pn") and has_md):
            current = []
            boards.append(current)
        current.append((key, value))
    out: list[PbnRecord] = []
    for pairs in boards:
        for k, v in pairs:
            if k == "pn":
                players = v
        if not any(k == "md" for k, _ in pairs):
            continue
        out.append(_board(len(out) + 1, pairs, players))
    if strict:
        defects = [d for r in out for d in r.defects]
        if defects:
            raise PbnError(defects)
    return out


def _board(number: int, pairs: list[tuple[str, str]], players: str) -> PbnRecord:
    rec = PbnRecord(number=number)
    names = [p.strip() for p in players.split(",")] if players else []
    for i, name in enumerate(names[:4]):
        rec.tags[("South", "West", "North", "East")[i]] = name
    calls: list[Call] = []
    auction: Auction | None = None
    deal: BridgeDeal | None = None
    claim: int | None = None
    for key, value in pairs:
        if key == "md":
            _read_md(rec, value)
            if rec.dealer is not None:
                auction = Auction(rec.dealer)
                rec.auction_first = rec.dealer
        elif key == "ah":
            digits = "".join(ch for ch in value if ch in "0123456789")
            if digits:
                try:
                    rec.board = int(digits)
                except ValueError:  # more digits than Python reads (sys.get_int_max_str_digits)
                    rec.defect(f"{key}|{value}| is not a board number")
                    continue
                rec.tags["Board"] = digits
        elif key == "qx" and value[1:].isascii() and value[1:].isdigit() and rec.board is None:
            try:
                rec.board = int(value[1:])
            except ValueError:
                rec.defect(f"{key}|{value}| is not a board number")
                continue
            rec.tags["Room"] = "Open" if value[:1] == "o" else "Closed" if value[:1] == "c" else value[:1]
        elif key == "sv":
            vul = _VUL.get(value.strip().lower())
            if vul is None:
                rec.defect(f"sv|{value}| is not a vulnerability")
            rec.vulnerable = vul
        elif key == "mb":
            if auction is None or auction.done:
                rec.defect(f"mb|{value}| outside an auction")
                continue
            word = value.strip().rstrip("!").upper()
            try:
                call = Call.parse({"D": "X", "R": "XX"}.get(word, word))
            except TrumpsError:
                rec.defect(f"mb|{value}| is not a call")
                continue
            if call not in auction.legal():
                rec.defect(f"mb|{value}| is not legal")
                continue
            if value.strip().endswith("!"):
                rec.alerts[len(calls)] = "alert"
            auction.apply(call)
            calls.append(call)
            won = auction.contract()
            if auction.passed_out:
                rec.passed_out = True
            elif won is not None:
                rec.declarer, rec.contract = won
                if rec.hands is not None:
                    deal = BridgeDeal(rec.dealer or 0, rec.hands, (False, False), rec.contract, rec.declarer)
        elif key == "an" and calls:
            rec.alerts[len(calls) - 1] = value.strip()
        elif key == "pc":
            if deal is None or deal.is_done:
                rec.defect(f"pc|{value}| without a contract or after the last trick")
                continue
            t = value.strip().upper()  # suit then rank: 'SA', 'HT' (an empty 'pc||' is no card)
            try:
                card = Card(t[1:] + t[0]) if len(t) >= 2 else None
            except TrumpsError:
                card = None
            if card is None:
                rec.defect(f"pc|{value}| is not a card")
                continue
            if card not in deal.legal_actions():
                rec.defect(f"pc|{value}| is not legal for {SEATS[deal.hand_to_play or 0]}")
                deal = None
                continue
            deal.apply_legal(card)
            rec.play.append(card)
        elif key == "mc":
            try:
                tricks = int(value)
            except ValueError:
                tricks = -1
            if 0 <= tricks <= 13:
                claim = tricks
            else:
                rec.defect(f"mc|{value}| is not a number of tricks")
    rec.auction = calls
    rec.play_complete = len(rec.play) == 52
    if deal is not None and rec.play_complete:
        rec.result = deal.declarer_tricks()
    elif claim is not None:
        rec.result = claim
        rec.tags["Claim"] = str(claim)
    if rec.vulnerable is None:
        rec.vulnerable = "None"
    return rec


def _read_md(rec: PbnRecord, value: str) -> None:
    v = value.strip()
    if not v or v[0] not in _DEALER:
        rec.defect(f"md|{value}| has no dealer digit")
        return
    rec.dealer = _DEALER[v[0]]
    parts = v[1:].split(",")
    hands: list[list[Card] | None] = [None] * 4
    try:
        for i, part in enumerate(parts[:4]):
            if part.strip():
                hands[_LIN_SEATS[i]] = _hand(part)
        missing = [s for s, h in enumerate(hands) if h is None]
        if len(missing) == 1:
            used = {c for h in hands if h for c in h}
            hands[missing[0]] = [c for c in DECK if c not in used]
        full = [h or [] for h in hands]
        check_deal(full)
        rec.hands = [sorted(h) for h in full]
    except TrumpsError as exc:
        rec.defect(f"md: {exc}")


def _lin_hand(cards: list[Card]) -> str:
    out = ""
    for suit in Suit:
        ranks = sorted((c for c in cards if c.suit is suit), key=lambda c: c.rank)
        out += suit.code + "".join(c.rank_code for c in ranks)
    return out


def write_lin(records: Iterable[PbnRecord]) -> str:
    """One LIN line per board."""
    lines = []
    for rec in records:
        parts: list[str] = []
        names = [rec.tags.get(k, "") for k in ("South", "West", "North", "East")]
        parts += ["pn", ",".join(names), "st", ""]
        if rec.hands is not None:
            dealer = {v: k for k, v in _DEALER.items()}[rec.dealer or 0]
            parts += ["md", dealer + ",".join(_lin_hand(rec.hands[s]) for s in _LIN_SEATS)]
        parts += ["rh", "", "ah", f"Board {rec.board}" if rec.board is not None else ""]
        parts += ["sv", _VUL_OUT.get(rec.vulnerable or "None", "o")]
        for i, call in enumerate(rec.auction or []):
            # BBO spelling: p, d, r, and N for no trumps (1N, not 1NT)
            text = (
                "p" if call is PASS else "d" if str(call) == "X" else "r" if str(call) == "XX" else str(call)
            ).replace("NT", "N")
            parts += ["mb", text + ("!" if i in rec.alerts else "")]
            if i in rec.alerts and rec.alerts[i] != "alert":
                parts += ["an", rec.alerts[i].replace("|", "/")]
        for k, card in enumerate(rec.play):
            if k % 4 == 0:
                parts += ["pg", ""]
            s = str(card)
            parts += ["pc", s[-1] + s[:-1]]
        if rec.play:
            parts += ["pg", ""]
        if not rec.play_complete and rec.result is not None and not rec.passed_out:
            parts += ["mc", str(rec.result)]
        lines.append("|".join(parts) + "|")
    return "\n".join(lines) + "\n"
