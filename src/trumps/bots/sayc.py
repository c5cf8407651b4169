"""A natural bidding system close to Standard American Yellow Card (SAYC).

Everything the ``normal`` and ``strong`` bridge bots bid is in this one
module, as an ordered list of rules (:data:`RULES`): the first rule whose
situation matches and whose call is legal makes the call.  Points are
high-card points (A 4, K 3, Q 2, J 1); "support" counts trumps held.

Openings (:func:`open_bid`)
    2C 22+ (any shape) · 2NT 20-21 balanced · 1NT 15-17 balanced ·
    1S/1H with five or more (the longer; spades with 5-5) and 12+ (or 11
    with the rule of 20) · otherwise 1D with four or more diamonds (1C with
    3-3 minors, the longer minor otherwise) · weak two 2D/2H/2S: a six-card
    suit and 5-10 · three-level preempt: a seven-card suit and 5-10 ·
    pass.

Responses to 1NT (:func:`over_1nt`)
    Jacoby transfers 2D (5+ hearts) and 2H (5+ spades) at any strength ·
    Stayman 2C with 8+ and a four-card major · 2NT 8-9 · 3NT 10-15 ·
    6NT 18+ · pass.  Opener completes the transfer and answers Stayman
    2H / 2S / 2D (no major); responder then places the contract: with a
    fit 3M invitational (8-9) or 4M (10+), without 2NT or 3NT; after a
    transfer 2NT or 3M (invitational, 5 or 6+ cards) or 3NT / 4M (game).
    Opener accepts invitations with 16-17, and corrects 3NT to 4M with three
    trumps.  Over 2NT the same with 3-level transfers and Stayman (3C).

Responses to a suit opening of one (:func:`respond_suit`)
    Major raise with three-card support: 2M 6-10, 3M 11-12 (limit), 4M 13+ ·
    a new suit at the one level with four cards (up the line, hearts before
    spades) and 6+ · a new suit at the two level with 11+ (five cards for 2H
    over 1S) · minor raises with five-card support: 2m 6-10, 3m 11-12 ·
    2NT 13-15 and 3NT 16-17 balanced · 1NT 6-10 otherwise · pass under 6.

Opener's rebid (:func:`opener_rebid`)
    After a raise: pass a minimum, invite with 15-17 (3M), game with 18+;
    accept a limit raise with 14+ · with four-card support of responder's
    major: 2 / 3 / 4 of it with 12-15 / 16-18 / 19+ · a six-card suit again
    (jumping with 16-18) · a second, lower four-card suit · 1NT 12-14 and
    2NT 18-19 balanced.

Responder's rebid and further bidding (:func:`place_contract`)
    Combined values are estimated from the ranges partner has shown; the
    side plays game with 25+ (4M with eight trumps between the hands, 3NT
    otherwise, 5m with a minor fit and no stoppers rule), invites with
    23-24, and otherwise stops in the known fit or passes.

Slams: Blackwood (:func:`blackwood`)
    With a major fit and 33+ combined, 4NT asks for aces; replies 5C (0 or
    4), 5D (1), 5H (2), 5S (3).  The asker bids 6M when at most one ace is
    missing, signs off in 5M otherwise, and bids 7 with all aces and 37+.

Competition (:func:`compete`)
    Overcalls: a five-card suit with 8-16 at the one level, 11-16 at the two
    level · 1NT overcall 15-18 balanced · takeout double: 12+ with at most
    two cards in the opened suit and three or more in each unbid major, or
    any 17+ · negative double by responder after an overcall: 6+ with four
    cards in an unbid major · advancing: raise partner's overcall with three
    trumps (8-10 single, 11+ to game in a major), answer a takeout double in
    the best unbid suit (jumping with 9-11, game with 12+, 1NT with 6-9 and
    the opened suit held).  Otherwise pass.

The system is deliberately small: no artificial two-over-one sequences,
no cue-bids or control-showing, no sacrifice logic.  It is the same for
both sides, so a duplicate arena between two bots measures card play and
the bidding's own accuracy, not misunderstandings.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from trumps.bots.base import Bot

__all__ = ["RULES", "Auction", "HandInfo", "SaycBot", "choose_call"]

SEATS = "NESW"
SUITS = "SHDC"  # high to low for display; auction order is C D H S NT
ORDER = ["C", "D", "H", "S", "NT"]
MAJORS = ("H", "S")
_HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}


@dataclass(frozen=True)
class HandInfo:
    """What the bidder counts in its own hand."""

    hcp: int
    length: dict[str, int]
    aces: int

    @classmethod
    def of(cls, cards: list[str]) -> HandInfo:
        length = dict.fromkeys(SUITS, 0)
        for c in cards:
            length[c[-1]] += 1
        points = sum(_HCP.get(c[0], 0) for c in cards)
        return cls(points, length, sum(1 for c in cards if c[0] == "A"))

    @property
    def balanced(self) -> bool:
        shape = sorted(self.length.values())
        return shape in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5])

    def longest(self, suits: str = SUITS) -> str:
        """The longest of ``suits`` (the higher ranking of equals)."""
        return max(suits, key=lambda s: (self.length[s], -SUITS.index(s)))


def _bid(text: str) -> tuple[int, int] | None:
    """``"3NT"`` -> (3, 4); ``None`` for P / X / XX."""
    if not text or not text[0].isdigit():
        return None
    return int(text[0]), ORDER.index(text[1:])


@dataclass
class Auction:
    """The auction from the bidder's side of the table."""

    me: int
    calls: list[tuple[int, str]]  # (seat, call) in order
    hand: HandInfo
    vulnerable: bool = False
    legal: list[str] = field(default_factory=list)

    @property
    def partner(self) -> int:
        return (self.me + 2) % 4

    def bids_of(self, seat: int) -> list[str]:
        return [c for s, c in self.calls if s == seat and _bid(c) is not None]

    def calls_of(self, seat: int) -> list[str]:
        return [c for s, c in self.calls if s == seat]

    @property
    def mine(self) -> list[str]:
        return self.bids_of(self.me)

    @property
    def partners(self) -> list[str]:
        return self.bids_of(self.partner)

    @property
    def opponents_bids(self) -> list[str]:
        return [c for s, c in self.calls if s % 2 != self.me % 2 and _bid(c) is not None]

    @property
    def opener(self) -> tuple[int, str] | None:
        for s, c in self.calls:
            if _bid(c) is not None:
                return s, c
        return None

    @property
    def we_opened(self) -> bool:
        o = self.opener
        return o is not None and o[0] % 2 == self.me % 2

    @property
    def last_bid(self) -> tuple[int, str] | None:
        for s, c in reversed(self.calls):
            if _bid(c) is not None:
                return s, c
        return None

    @property
    def rho_call(self) -> str | None:
        return self.calls[-1][1] if self.calls else None

    def partner_doubled(self) -> bool:
        return "X" in self.calls_of(self.partner)


def call(level: int, strain: str) -> str:
    return f"{level}{strain}"


def cheapest(a: Auction, strain: str) -> str:
    """The lowest legal bid of ``strain``."""
    last = a.last_bid
    if last is None:
        return call(1, strain)
    lv, st = _bid(last[1]) or (0, 0)
    level = lv if ORDER.index(strain) > st else lv + 1
    return call(level, strain)


# ----- openings -----------------------------------------------------------------
def open_bid(a: Auction) -> str | None:
    """Opening bids (no one at the table has bid yet)."""
    if a.opener is not None:
        return None
    h = a.hand
    two_longest = sum(sorted(h.length.values())[-2:])
    if h.hcp >= 22:
        return "2C"
    if 20 <= h.hcp <= 21 and h.balanced:
        return "2NT"
    if 15 <= h.hcp <= 17 and h.balanced:
        return "1NT"
    if h.hcp >= 12 or (h.hcp >= 11 and h.hcp + two_longest >= 20):
        if h.length["S"] >= 5 or h.length["H"] >= 5:
            return "1S" if h.length["S"] >= h.length["H"] else "1H"
        if h.length["D"] >= 4 and h.length["D"] >= h.length["C"]:
            return "1D"
        if h.length["C"] == h.length["D"] == 3:
            return "1C"
        return "1D" if h.length["D"] > h.length["C"] else "1C"
    if 5 <= h.hcp <= 10:
        for s in SUITS:
            if h.length[s] >= 7:
                return call(3, s)
        for s in ("S", "H", "D"):
            if h.length[s] == 6:
                return call(2, s)
    return None


# ----- 1NT and 2NT openings ---------------------------------------------------------
def over_1nt(a: Auction) -> str | None:
    """Responder's first call after partner's 1NT or 2NT (RHO passed)."""
    if a.mine or len(a.partners) != 1 or a.partners[0] not in ("1NT", "2NT") or a.opponents_bids:
        return None
    h = a.hand
    base = 1 if a.partners[0] == "1NT" else 2
    extra = 0 if base == 1 else 4  # a 2NT opener holds about four more
    if h.length["H"] >= 5 and h.length["H"] >= h.length["S"]:
        return call(base + 1, "D")
    if h.length["S"] >= 5:
        return call(base + 1, "H")
    if h.hcp + extra >= 8 and (h.length["H"] == 4 or h.length["S"] == 4):
        return call(base + 1, "C")
    if base == 1:
        if h.hcp >= 18:
            return "6NT"
        if h.hcp >= 10:
            return "3NT"
        if h.hcp >= 8:
            return "2NT"
        return None
    if h.hcp >= 14:
        return "6NT"
    return "3NT" if h.hcp >= 5 else None


def nt_opener_answers(a: Auction) -> str | None:
    """1NT/2NT opener: complete a transfer, answer Stayman."""
    if len(a.mine) != 1 or a.mine[0] not in ("1NT", "2NT") or len(a.partners) != 1:
        return None
    h = a.hand
    base = int(a.mine[0][0])
    ask = a.partners[0]
    if ask == call(base + 1, "D"):
        return call(base + 1, "H")
    if ask == call(base + 1, "H"):
        return call(base + 1, "S")
    if ask == call(base + 1, "C"):
        if h.length["H"] >= 4:
            return call(base + 1, "H")
        if h.length["S"] >= 4:
            return call(base + 1, "S")
        return call(base + 1, "D")
    return None


def nt_responder_places(a: Auction) -> str | None:
    """Responder's second call after Stayman or a transfer."""
    if len(a.partners) != 2 or a.partners[0] not in ("1NT", "2NT") or len(a.mine) != 1:
        return None
    h = a.hand
    base = int(a.partners[0][0])
    points = h.hcp + (0 if base == 1 else 4)
    first, answer = a.mine[0], a.partners[1]
    if first == call(base + 1, "C"):  # Stayman
        major = answer[1:] if answer[1:] in MAJORS else None
        if major and h.length[major] >= 4:
            return call(4, major) if points >= 10 else call(3, major)
        return "3NT" if points >= 10 else "2NT" if base == 1 else "3NT"
    if first in (call(base + 1, "D"), call(base + 1, "H")):  # transfer completed
        major = "H" if first[1] == "D" else "S"
        six = h.length[major] >= 6
        if points < 8:
            return None
        if points <= 9:
            return call(3, major) if six else ("2NT" if base == 1 else "3NT")
        return call(4, major) if six else "3NT"
    return None


def nt_opener_decides(a: Auction) -> str | None:
    """1NT opener after responder's invitation or choice of games."""
    if len(a.mine) != 2 or a.mine[0] != "1NT" or len(a.partners) != 2:
        return None
    h = a.hand
    last = a.partners[-1]
    transfer = {"2D": "H", "2H": "S"}.get(a.partners[0])
    if last == "2NT":
        if transfer and h.length[transfer] >= 3:
            return call(4, transfer) if h.hcp >= 16 else call(3, transfer)
        return "3NT" if h.hcp >= 16 else None
    if last == "3NT" and transfer and h.length[transfer] >= 3:
        return call(4, transfer)
    if last[0] == "3" and last[1:] in MAJORS:
        return call(4, last[1:]) if h.hcp >= 16 else None
    return None


# ----- suit openings of one -------------------------------------------------------------
def respond_suit(a: Auction) -> str | None:
    """Responder's first call after partner's one of a suit (RHO passed)."""
    if a.mine or len(a.partners) != 1 or a.opponents_bids:
        return None
    opening = a.partners[0]
    if opening[0] != "1" or opening == "1NT":
        return None
    s = opening[1]
    h = a.hand
    if h.hcp < 6:
        return None
    if s in MAJORS and h.length[s] >= 3:
        if h.hcp >= 13:
            return call(4, s)
        return call(3, s) if h.hcp >= 11 else call(2, s)
    for t in ("H", "S"):  # a major at the one level, hearts first
        if ORDER.index(t) > ORDER.index(s) and h.length[t] >= 4 and h.length[t] >= h.length[_other(t)]:
            return call(1, t)
    for t in ("H", "S"):
        if ORDER.index(t) > ORDER.index(s) and h.length[t] >= 4:
            return call(1, t)
    if s == "C" and h.length["D"] >= 4:
        return "1D"
    if h.hcp >= 11:
        for t in sorted(SUITS, key=lambda x: -h.length[x]):
            need = 5 if t == "H" and s == "S" else 4
            if t != s and ORDER.index(t) < ORDER.index(s) and h.length[t] >= need:
                return call(2, t)
    if s in "CD" and h.length[s] >= 5:
        return call(3, s) if h.hcp >= 11 else call(2, s)
    if h.balanced and 13 <= h.hcp <= 15:
        return "2NT"
    if h.balanced and 16 <= h.hcp <= 17:
        return "3NT"
    if h.hcp <= 10:
        return "1NT"
    return "2NT" if h.hcp <= 15 else "3NT"


def _other(major: str) -> str:
    return "S" if major == "H" else "H"


def opener_rebid(a: Auction) -> str | None:
    """Opener's second call after a one-level suit opening."""
    if len(a.mine) != 1 or a.mine[0][0] != "1" or a.mine[0] == "1NT" or len(a.partners) != 1:
        return None
    if a.opener is None or a.opener[0] != a.me:
        return None
    h = a.hand
    mine = a.mine[0][1]
    reply = a.partners[0]
    lv, st = _bid(reply) or (0, 0)
    rs = ORDER[st]
    if rs == mine:  # partner raised
        if lv == 2:
            return None if h.hcp <= 14 else call(3, mine) if h.hcp <= 17 else _game(mine)
        if lv == 3:
            return _game(mine) if h.hcp >= 14 else None
        return None
    if rs == "NT":
        if lv == 1:
            if h.length[mine] >= 6:
                return call(2, mine)
            return "2NT" if h.hcp >= 18 else None
        if lv == 2:
            return call(4, mine) if mine in MAJORS and h.length[mine] >= 6 else "3NT"
        return None
    # partner bid a new suit (forcing one round)
    if h.length[rs] >= 4 and rs in MAJORS:
        if h.hcp >= 19:
            return call(4, rs)
        return call(lv + 2 if h.hcp >= 16 else lv + 1, rs)
    if h.length[mine] >= 6:
        return call(3 if h.hcp >= 16 else 2, mine) if lv == 1 else call(3, mine)
    for t in SUITS:
        if t not in (mine, rs) and h.length[t] >= 4 and ORDER.index(t) < ORDER.index(mine):
            bid = cheapest(a, t)
            if bid[0] == "2" or (bid[0] == "1"):
                return bid
    if h.balanced:
        if h.hcp >= 18:
            return "2NT" if lv == 1 else "3NT"
        return "1NT" if lv == 1 else "2NT"
    if rs in SUITS and h.length[rs] >= 3 and lv == 2:
        return call(3, rs)
    return cheapest(a, mine)


def _game(strain: str) -> str:
    return {"NT": "3NT", "H": "4H", "S": "4S", "D": "5D", "C": "5C"}[strain]


# ----- placing the contract --------------------------------------------------------------
def shown(a: Auction, seat: int) -> tuple[int, dict[str, int]]:
    """The minimum points and suit lengths ``seat``'s bids have promised."""
    bids = a.bids_of(seat)
    lengths = dict.fromkeys(SUITS, 0)
    points = 0
    if not bids:
        return points, lengths
    first = bids[0]
    opened = a.opener is not None and a.opener[0] == seat
    if opened:
        points = {"2C": 22, "2NT": 20, "1NT": 15}.get(first, 12 if first[0] == "1" else 6)
    elif a.partner_doubled() and seat == a.me:
        points = 0
    else:
        points = 6
    if "NT" in first and opened:
        for s in SUITS:
            lengths[s] = 2
    for b in bids:
        lv, st = _bid(b) or (0, 0)
        strain = ORDER[st]
        if strain in SUITS:
            lengths[strain] = max(lengths[strain], 5 if strain in MAJORS and opened else 4)
        if not opened and lv >= 2 and strain != "NT" and b == bids[0]:
            points = max(points, 10)
    return points, lengths


def place_contract(a: Auction) -> str | None:
    """Any later call of our side: game with 25+ combined, the fit if any."""
    if not a.we_opened or not a.mine or not a.partners:
        return None
    h = a.hand
    p_points, p_len = shown(a, a.partner)
    total = h.hcp + p_points
    fit = [s for s in SUITS if h.length[s] + p_len[s] >= 8]
    major_fit = [s for s in fit if s in MAJORS]
    last = a.last_bid
    if last is None:
        return None
    lv, _ = _bid(last[1]) or (0, 0)
    if total >= 33 and major_fit:
        return "4NT" if "4NT" in a.legal and "4NT" not in a.mine else None
    if total >= 25:
        if major_fit:
            return call(4, major_fit[0])
        if lv <= 3:
            return "3NT"
        return None
    if total >= 23 and lv <= 2:
        if major_fit:
            return call(3, major_fit[0])
        return "2NT"
    if last[0] % 2 == a.me % 2 and last[0] != a.me:
        return None  # partner's call is a fine place to stop
    if fit:
        bid = cheapest(a, fit[0])
        return bid if int(bid[0]) <= 3 else None
    return None


def blackwood(a: Auction) -> str | None:
    """Answer 4NT with aces, and place the slam after the answer."""
    if a.partners and a.partners[-1] == "4NT" and a.rho_call in ("P", None):
        if "4NT" in a.mine:
            return None
        return {0: "5C", 1: "5D", 2: "5H", 3: "5S", 4: "5C"}[a.hand.aces]
    if a.mine and a.mine[-1] == "4NT" and a.partners and a.partners[-1][0] == "5":
        answer = a.partners[-1][1]
        partner_aces = {"C": 0, "D": 1, "H": 2, "S": 3}[answer]
        if answer == "C":  # none or all four: the asker's own aces tell which
            partner_aces = 0 if a.hand.aces >= 1 else 4
        aces = a.hand.aces + partner_aces
        p_points, p_len = shown(a, a.partner)
        fit = [s for s in MAJORS if a.hand.length[s] + p_len[s] >= 8] or ["NT"]
        strain = fit[0]
        if aces <= 2:
            return call(5, strain) if strain != "NT" else None
        if aces == 4 and a.hand.hcp + p_points >= 37:
            return call(7, strain)
        return call(6, strain)
    return None


# ----- competition ---------------------------------------------------------------------------
def compete(a: Auction) -> str | None:
    """Overcalls, takeout and negative doubles, and advancing partner."""
    h = a.hand
    if a.opener is None:
        return None
    if not a.we_opened:
        opened = a.opener[1]
        if a.partners and not a.mine:  # advancing partner's overcall or double
            return _advance(a, opened)
        if a.mine or a.partners:
            return None
        return _overcall(a, opened)
    # we opened: negative double by responder after RHO's overcall
    rho = _bid(a.rho_call or "")
    if not a.mine and len(a.partners) == 1 and a.rho_call and rho is not None and rho[0] <= 2:
        theirs = a.rho_call[1:]
        unbid = [m for m in MAJORS if m not in (theirs, a.partners[0][1:])]
        if h.hcp >= 6 and any(h.length[m] >= 4 for m in unbid):
            return "X"
        if h.hcp >= 6 and a.partners[0][1] in MAJORS and h.length[a.partners[0][1]] >= 3:
            return cheapest(a, a.partners[0][1])
    return None


def _overcall(a: Auction, opened: str) -> str | None:
    h = a.hand
    theirs = opened[1:]
    if opened[0] != "1" or len(a.opponents_bids) != 1:
        return None
    if 15 <= h.hcp <= 18 and h.balanced and theirs != "NT" and h.length.get(theirs, 0) >= 2:
        return "1NT"
    best = h.longest(SUITS)
    if best != theirs and h.length[best] >= 5:
        bid = cheapest(a, best)
        if (bid[0] == "1" and 8 <= h.hcp <= 16) or (bid[0] == "2" and 11 <= h.hcp <= 16):
            return bid
    if theirs in SUITS and (
        h.hcp >= 17
        or (h.hcp >= 12 and h.length[theirs] <= 2 and all(h.length[m] >= 3 for m in MAJORS if m != theirs))
    ):
        return "X"
    return None


def _advance(a: Auction, opened: str) -> str | None:
    h = a.hand
    theirs = opened[1:]
    if a.partner_doubled() and len(a.partners) == 0:
        if a.rho_call not in ("P", None):
            return None
        unbid = [s for s in ("S", "H", "D", "C") if s != theirs]
        best = max(unbid, key=lambda s: (h.length[s] + (1 if s in MAJORS else 0), -SUITS.index(s)))
        if h.hcp >= 12:
            return _game(best) if best in MAJORS else "3NT"
        if 6 <= h.hcp <= 9 and theirs in SUITS and h.length[theirs] >= 4:
            return "1NT"
        bid = cheapest(a, best)
        if h.hcp >= 9:
            return call(int(bid[0]) + 1, best)
        return bid
    if len(a.partners) == 1:
        p = a.partners[0]
        s = p[1:]
        if s in SUITS and h.length[s] >= 3 and h.hcp >= 8:
            if h.hcp >= 11 and s in MAJORS:
                return _game(s)
            return cheapest(a, s)
        if p == "1NT" and h.hcp >= 10:
            return "3NT"
    return None


def after_double(a: Auction) -> str | None:
    """Responder to partner's takeout double who has not bid yet (also when
    it is just our turn after the double with no call from RHO)."""
    if a.we_opened or a.mine or not a.partner_doubled() or a.partners:
        return None
    return _advance(a, a.opener[1] if a.opener else "")


def weak_and_preempt_responses(a: Auction) -> str | None:
    """Partner's weak two, preempt, or 2C: raise with a fit, answer 2C."""
    if a.mine or len(a.partners) != 1 or a.opponents_bids:
        return None
    p = a.partners[0]
    h = a.hand
    if p == "2C":
        return "2D" if h.hcp < 8 else cheapest(a, h.longest()) if max(h.length.values()) >= 5 else "2NT"
    lv, st = _bid(p) or (0, 0)
    s = ORDER[st]
    if s not in SUITS or lv not in (2, 3):
        return None
    if h.length[s] >= 3 and h.hcp >= 16 and s in MAJORS:
        return _game(s)
    if h.length[s] >= 3 and lv == 2 and h.hcp >= 6:
        return call(3, s)
    if h.hcp >= 16 and h.balanced:
        return "3NT"
    return None


def strong_two_continue(a: Auction) -> str | None:
    """The 2C opener keeps going to game."""
    if not a.mine or a.mine[0] != "2C" or not a.partners:
        return None
    h = a.hand
    last_lv = int(a.last_bid[1][0]) if a.last_bid else 2
    if len(a.mine) == 1:
        if h.balanced:
            return "2NT" if last_lv == 2 else "3NT"
        return cheapest(a, h.longest())
    p_len = shown(a, a.partner)[1]
    for s in MAJORS:
        if h.length[s] + p_len[s] >= 8:
            return call(4, s) if last_lv < 4 else None
    last = _bid(a.last_bid[1]) if a.last_bid else None
    return "3NT" if last is None or last < (3, 4) else None


#: The system, in the order the rules are tried.
RULES: list[tuple[str, Callable[[Auction], str | None]]] = [
    ("opening", open_bid),
    ("Blackwood", blackwood),
    ("1NT/2NT: transfers and Stayman", over_1nt),
    ("1NT/2NT opener: answers", nt_opener_answers),
    ("1NT/2NT responder: placement", nt_responder_places),
    ("1NT opener: decision", nt_opener_decides),
    ("responses to 2C, weak twos, preempts", weak_and_preempt_responses),
    ("2C opener", strong_two_continue),
    ("responses to one of a suit", respond_suit),
    ("opener's rebid", opener_rebid),
    ("competition", compete),
    ("advancing a takeout double", after_double),
    ("placing the contract", place_contract),
]


def choose_call(view: Mapping[str, Any], legal: list[str]) -> tuple[str, str]:
    """(call, name of the rule that made it); ``("P", "pass")`` when no rule fits."""
    seat = view["seat"]
    me = SEATS.index(seat)
    hand = HandInfo.of([str(c) for c in view["hands"][seat]])
    calls = [(SEATS.index(x["seat"]), str(x["call"])) for x in view.get("auction") or []]
    vul = str(view.get("vulnerable") or "None")
    a = Auction(me, calls, hand, vul in ("Both", "NS" if me % 2 == 0 else "EW"), list(legal))
    for name, rule in RULES:
        c = rule(a)
        if c is not None and c in legal:
            return c, name
    return ("P" if "P" in legal else legal[0]), "pass"


class SaycBot(Bot):
    """Bids by :func:`choose_call`; plays (when asked) like the rule bot."""

    name = "sayc"

    def __init__(self) -> None:
        from trumps.bots.bridge import BridgeRuleBot

        self._play = BridgeRuleBot()

    def searches(self, view: Mapping[str, Any], legal: Sequence[str]) -> bool:
        return False  # rules, answered in milliseconds

    def decide(self, view: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
        if str(view.get("phase", "")).upper() == "AUCTION":
            return choose_call(view, legal)[0]
        return self._play.choose(view, legal, rng)
