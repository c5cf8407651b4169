"""A rule-based 500 player that decides from its seat's view alone.

Bidding counts the tricks a hand should take in each denomination (trumps
with the bowers and jokers, side aces and guarded kings, ruffing values,
partner's and the kitty's likely help, what partner and the opponents bid)
and bids the call with the best expected score, or passes; misère is bid only
with a genuinely low hand.  The kitty exchange keeps trumps and aces and
voids short suits (for misère: throws the joker and the cards most likely to
be forced to win).  Card play follows cheaply, wins cheaply when it matters
(fourth hand with its lowest winner, never overtaking partner's sure
winner), draws trumps as contractor, cashes masters, and in misère plays
under and sheds high cards when that is safe.

Everything it knows comes from the view: its hand, the auction, the cards
played, exposed hands.  Unseen cards are the deck minus what it has seen.

>>> import random, trumps
>>> g = trumps.new_game("500", seed=4)
>>> v = g.view(g.to_act)
>>> FiveHundredRuleBot().choose(v, v["legal"], random.Random(0)) in v["legal"]
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from trumps.bots.base import Bot
from trumps.core.cards import Card, Suit
from trumps.core.decks import deck_500
from trumps.five_hundred.calls import Call
from trumps.five_hundred.play import NO_SUIT, TrickRules

__all__ = ["FiveHundredRuleBot", "misere_danger", "nt_tricks", "suit_tricks"]

_SUIT_INDEX = {"S": 0, "H": 1, "D": 2, "C": 3}
_NT_RULES = TrickRules(None)


# ----------------------------------------------------------------------------
# hand evaluation
# ----------------------------------------------------------------------------
def _natural(cards: Iterable[Card], suit: Suit) -> list[Card]:
    """Cards of printed suit ``suit``, high to low."""
    return sorted((c for c in cards if c.suit is suit), key=lambda c: -c.rank)


def suit_tricks(hand: Sequence[Card], trump: Suit, deck: Sequence[Card]) -> float:
    """Tricks ``hand`` should take by itself with ``trump`` as trumps."""
    rules = TrickRules(trump)
    t = int(trump)
    power = rules.power
    eff = rules.eff
    mine = set(hand)
    deck_trumps = sorted((c for c in deck if eff[c.index] == t), key=lambda c: -power[c.index])
    est = 0.0
    held = 0
    higher_out = 0
    for c in deck_trumps:
        if c not in mine:
            higher_out += 1
            continue
        # this is my ``held``-th trump from the top; ``higher_out`` trumps above it are elsewhere
        if higher_out == 0:
            est += 1.0
        elif higher_out == 1 and held >= 1:
            est += 0.7
        elif higher_out <= 2 and held >= 2:
            est += 0.45
        elif held >= 3:
            est += 0.75  # long trumps win ruffs and the last rounds
        elif held >= 2:
            est += 0.25
        held += 1
    n_trumps = held
    for s in Suit:
        if s is trump:
            continue
        cards = [c for c in _natural(hand, s) if eff[c.index] == int(s)]
        length = len(cards)
        ranks = [c.rank for c in cards]
        if 17 in ranks:
            est += 0.95 if length <= 4 else 0.75
            if 16 in ranks:
                est += 0.75 if length <= 4 else 0.5
        elif 16 in ranks and length >= 2:
            est += 0.4
        if n_trumps >= 4 and 17 not in ranks:
            if length == 0:
                est += 0.8
            elif length == 1:
                est += 0.4
    return est


def nt_tricks(hand: Sequence[Card], deck: Sequence[Card]) -> float:
    """Tricks ``hand`` should take by itself in no trumps."""
    est = 0.0
    mine = set(hand)
    for c in hand:
        if c.is_joker:
            est += 1.0
    for s in Suit:
        cards = _natural(hand, s)
        suit_deck = _natural(deck, s)
        higher_out = 0
        held = 0
        for c in suit_deck:
            if c not in mine:
                higher_out += 1
                continue
            if higher_out == 0:
                est += 1.0
            elif higher_out == 1 and held >= 1:
                est += 0.5
            held += 1
        if len(cards) >= 5 and cards and cards[0].rank >= 16:
            est += 0.6 * (len(cards) - 4)
        stopped = bool(cards) and (cards[0].rank == 17 or (cards[0].rank == 16 and len(cards) >= 2))
        if not stopped:
            est -= 0.8
    return est


def misere_danger(
    hand: Sequence[Card], deck: Sequence[Card], opponents: int = 2, joker_low: bool = False
) -> float:
    """How many cards of ``hand`` are likely to be forced to win a trick in
    misère.  Two tests per suit: a card is exposed when many lower cards of
    its suit are out and too few rounds will have drawn them; and a card is
    exposed when no outstanding card above it is left to cover it (long
    suits headed by high cards)."""
    danger = 0.0
    mine = set(hand)
    for c in hand:
        if c.is_joker and not joker_low:
            danger += 1.0
    for s in Suit:
        suit_deck = sorted((c for c in deck if c.suit is s), key=lambda c: c.rank)
        held = [c for c in suit_deck if c in mine]
        if not held:
            continue
        out = [c for c in suit_deck if c not in mine]
        i = 0
        for p, c in enumerate(suit_deck):
            if c not in mine:
                continue
            x = p - i - opponents * i
            if x >= 3:
                danger += 1.0
            elif x == 2:
                danger += 0.5
            elif x == 1:
                danger += 0.25
            i += 1
        # cover each of our cards, highest first, by a distinct higher outstanding card
        k = len(out) - 1
        for c in reversed(held):
            if k >= 0 and out[k].rank > c.rank:
                k -= 1
            else:
                danger += 0.75
    return danger


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


# ----------------------------------------------------------------------------
# the table as the view shows it
# ----------------------------------------------------------------------------
class _Table:
    """What the acting seat knows, read from its view."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view
        opts = view.get("options") or {}
        self.options = opts
        self.players = int(view.get("players") or 4)
        self.seats: list[str] = list(view.get("seats") or [])
        self.seat: str = view.get("seat") or ""
        self.hand_seat: str = view.get("hand_to_play") or self.seat
        self.team_of: dict[str, int] = {}
        for t, team in enumerate(view.get("teams") or []):
            for s in team:
                self.team_of[s] = t
        self.my_team = self.team_of.get(self.seat, 0)
        self.deck = deck_500(self.players, int(opts.get("kitty_size", 3)))
        hands = view.get("hands") or {}
        self.hand = [Card(c) for c in hands.get(self.hand_seat) or []]
        self.known: dict[str, list[Card]] = {
            s: [Card(c) for c in h] for s, h in hands.items() if h is not None
        }
        contract = view.get("contract")
        self.call: Call | None = Call(contract["call"]) if contract else None
        self.contractor: str | None = contract["seat"] if contract else None
        self.bidding_team: int | None = contract["team"] if contract else None
        if self.call is None:
            self.rules = _NT_RULES
        elif self.call.is_misere:
            self.rules = TrickRules(None, joker_low=bool(opts.get("joker_low_in_misere", False)))
        else:
            self.rules = TrickRules(self.call.denom)
        self.trump = -1 if self.rules.trump is None else int(self.rules.trump)
        self.sitting_out = set(view.get("sitting_out") or [])
        self.active = [s for s in self.seats if s not in self.sitting_out]
        self.trick = [(e["seat"], Card(e["card"])) for e in view.get("trick") or []]
        led = view.get("led_suit")
        self.led = _SUIT_INDEX.get(led or "", NO_SUIT)
        self.joker_led = bool(self.trick) and self.trick[0][1].is_joker
        # cards seen played; voids shown
        self.played: set[Card] = set()
        self.voids: dict[str, set[int]] = {s: set() for s in self.seats}
        eff = self.rules.eff
        for t in view.get("tricks") or []:
            order = self._order_from(t["leader"])
            cards = [Card(c) for c in t["cards"]]
            tled = _SUIT_INDEX.get(t.get("led_suit") or "", NO_SUIT)
            for s, c in zip(order, cards, strict=False):
                self.played.add(c)
                if tled != NO_SUIT and eff[c.index] != tled:
                    self.voids[s].add(tled)
        for s, c in self.trick:
            self.played.add(c)
            if self.led != NO_SUIT and eff[c.index] != self.led and s != self.trick[0][0]:
                self.voids[s].add(self.led)
        seen = set(self.played)
        for cards in self.known.values():
            seen.update(cards)
        seen.update(Card(c) for c in view.get("discards") or [])
        self.unseen = [c for c in self.deck if c not in seen]

    def _order_from(self, leader: str) -> list[str]:
        if leader not in self.active:
            return []
        i = self.active.index(leader)
        return self.active[i:] + self.active[:i]

    def partner_suits(self) -> set[int]:
        """Suits our partners bid (inkles included): their hint for our leads."""
        out: set[int] = set()
        for entry in self.view.get("auction") or []:
            seat = entry.get("seat")
            if seat == self.seat or not self.partner(seat):
                continue
            call = Call(entry["call"])
            if call.kind == "BID" and call.denom is not None:
                out.add(int(call.denom))
        return out

    def partner(self, seat: str) -> bool:
        return self.team_of.get(seat) == self.my_team

    def still_to_play(self) -> list[str]:
        """Seats that play to this trick after the hand to play."""
        if not self.trick:
            order = self._order_from(self.hand_seat)
            return order[1:]
        order = self._order_from(self.trick[0][0])
        return order[len(self.trick) + 1 :]

    def winning(self, extra: Card | None = None) -> tuple[str, Card]:
        cards = [c for _, c in self.trick]
        seats = [s for s, _ in self.trick]
        if extra is not None:
            cards.append(extra)
            seats.append(self.hand_seat)
        i = self.rules.winner(cards, self.led, self.joker_led)
        return seats[i], cards[i]

    def higher_unseen(self, card: Card) -> list[Card]:
        eff, power = self.rules.eff, self.rules.power
        e = eff[card.index]
        return [c for c in self.unseen if eff[c.index] == e and power[c.index] > power[card.index]]

    def unseen_in(self, suit: int) -> list[Card]:
        eff = self.rules.eff
        return [c for c in self.unseen if eff[c.index] == suit]

    def opponents_after_me(self) -> list[str]:
        return [s for s in self.still_to_play() if not self.partner(s)]


def _parse_legal(legal: Sequence[str]) -> list[tuple[str, Card, int | None]]:
    out: list[tuple[str, Card, int | None]] = []
    for text in legal:
        head, sep, tail = text.partition(":")
        out.append((text, Card(head), _SUIT_INDEX[tail] if sep else None))
    return out


# ----------------------------------------------------------------------------
# the bot
# ----------------------------------------------------------------------------
class FiveHundredRuleBot(Bot):
    """Bids by counting tricks, exchanges and plays by simple sound rules."""

    name = "rules"

    #: team tricks ~ share_weight * (the team's fair share of 10) + own_weight * own
    #: tricks + kitty_help per kitty card (fitted on self-play deals)
    share_weight = 0.9
    own_weight = 0.62
    kitty_help = 0.15
    #: spread of the trick estimate (for the chance of making a contract)
    spread = 1.1
    #: defenders lead the suit partner bid; nobody leads into a known ruff
    lead_partners_suit = True
    avoid_ruffs = True

    def searches(self, view: Mapping[str, Any], legal: Sequence[str]) -> bool:
        return False  # rules, answered in milliseconds

    def decide(self, view: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        phase = view.get("phase")
        if phase == "AUCTION":
            return self._bid(view, legal)
        if phase == "BREACH":
            return self._breach(view, legal)
        if phase == "KITTY":
            return self._discard(_Table(view), legal)
        if phase == "PLAY":
            return self._play(_Table(view), legal)
        return legal[0]

    # ----- auction --------------------------------------------------------------
    def _estimates(self, view: Mapping[str, Any]) -> tuple[dict[Suit | None, float], float]:
        """Expected team tricks per denomination (``None`` = no trumps), and
        the misère danger of the hand."""
        players = int(view.get("players") or 4)
        opts = view.get("options") or {}
        deck = deck_500(players, int(opts.get("kitty_size", 3)))
        seat = view.get("seat") or ""
        hand = [Card(c) for c in (view.get("hands") or {}).get(seat) or []]
        teams = view.get("teams") or [[seat]]
        my_team = next((t for t in teams if seat in t), [seat])
        partners = [s for s in my_team if s != seat]
        # team tricks ~ share * a + b * own tricks (fitted on self-play deals), plus the kitty
        share = 10 * len(my_team) / players
        base = self.share_weight * share + self.kitty_help * (len(deck) - 10 * players)
        b = self.own_weight
        est: dict[Suit | None, float] = {s: base + b * suit_tricks(hand, s, deck) for s in Suit}
        est[None] = base + b * nt_tricks(hand, deck) - 0.8
        for entry in view.get("auction") or []:
            call = Call(entry["call"])
            if call.kind != "BID":
                continue
            if entry["seat"] in partners:
                est[call.denom] += 1.0 if call.denom is None else 1.2
            elif entry["seat"] != seat:
                est[call.denom] -= 0.6
        own = 0 if opts.get("nullo_plays") == "both_hands" else len(partners)
        opponents = players - 1 - own
        danger = misere_danger(hand, deck, opponents, bool(opts.get("joker_low_in_misere")))
        return est, danger

    def _expected(
        self, call: Call, est: dict[Suit | None, float], danger: float, opts: dict[str, Any]
    ) -> float:
        """The expected score of ``call`` as our contract."""
        if call.kind == "BID":
            value = call.value
            p = _phi((est[call.denom] - call.level + 0.25) / self.spread)
        elif call.kind == "MIS":
            value = int(opts.get("nullo_points", 250))
            p = 0.66 if danger <= 1.0 else 0.6 if danger <= 2.0 else 0.45 if danger <= 3.0 else 0.2
        else:
            value = int(opts.get("open_nullo_points", 500))
            p = 0.6 if danger <= 0.0 else 0.3
        if call.is_misere and opts.get("nullo_plays") == "both_hands":
            p *= 0.5  # partner's unseen hand must lose every trick too
        return value * (2 * p - 1)

    def _bid(self, view: Mapping[str, Any], legal: list[str]) -> str:
        if legal == ["P"]:
            return "P"
        est, danger = self._estimates(view)
        opts = view.get("options") or {}
        calls = {text: Call(text) for text in legal}
        seat = view.get("seat") or ""
        partners = {s for t in view.get("teams") or [] if seat in t for s in t if s != seat}
        auction = view.get("auction") or []
        high: tuple[str, Call] | None = None
        for entry in auction:
            c = Call(entry["call"])
            if c.is_bid and not c.inkle:
                high = (entry["seat"], c)
        partner_high = high is not None and high[0] in partners
        american = opts.get("variation", "american") == "american"
        real = [(t, c) for t, c in calls.items() if c.is_bid and not c.inkle]
        scored = [(self._expected(c, est, danger, opts), t, c) for t, c in real]
        good = [x for x in scored if x[0] > 25]
        if partner_high and high is not None:
            # only take over from partner with a clearly better contract
            mine = self._expected(high[1], est, danger, opts)
            good = [x for x in good if x[0] > mine + 60 and x[2].kind == "BID"]
        if good:
            if american or not auction or high is None:
                # one chance to speak (or opening): the best expected contract
                best = max(good, key=lambda x: (x[0], -x[2].value))
                if american:
                    return best[1]
                # Australian opening: start at the cheapest safe bid in that denomination
                same = [x for x in good if x[2].kind == best[2].kind and x[2].denom == best[2].denom]
                return min(same, key=lambda x: legal.index(x[1]))[1]
            # Australian: the cheapest good bid in our best denomination, else any cheapest good bid
            best = max(good, key=lambda x: x[0])
            same = [x for x in good if x[2].kind == best[2].kind and x[2].denom == best[2].denom]
            return min(same, key=lambda x: legal.index(x[1]))[1]
        inkles = [(t, c) for t, c in calls.items() if c.inkle]
        if inkles and not partner_high:
            scored_inkles = [(est[c.denom], t) for t, c in inkles if est[c.denom] >= 5.6]
            if scored_inkles:
                return max(scored_inkles)[1]
        return "P"

    def _breach(self, view: Mapping[str, Any], legal: list[str]) -> str:
        if "BREACH" not in legal:
            return legal[0]
        table = _Table(view)
        call = table.call
        if call is None:
            return "P"
        hand = table.hand
        if call.is_misere:
            return "P"
        if call.denom is None:
            mine = nt_tricks(hand, table.deck)
        else:
            mine = suit_tricks(hand, call.denom, table.deck)
        need = 12 - call.level  # defenders' tricks for a breach (four players)
        return "BREACH" if mine + 1.5 >= need + 0.5 else "P"

    # ----- kitty exchange ---------------------------------------------------------
    def _discard(self, table: _Table, legal: list[str]) -> str:
        hand = [Card(t) for t in legal]
        call = table.call
        if call is not None and call.is_misere:
            opts = table.options
            own = 0 if opts.get("nullo_plays") == "both_hands" else 1
            opponents = table.players - 1 - own * (len(self._team_seats(table)) - 1)
            joker_low = bool(opts.get("joker_low_in_misere"))
            base = misere_danger(hand, table.deck, opponents, joker_low)
            best: tuple[float, int, str] | None = None
            for c in hand:
                rest = [x for x in hand if x is not c]
                gain = base - misere_danger(rest, table.deck, opponents, joker_low)
                key = (gain, c.rank, str(c))
                if best is None or key > best:
                    best = key
            assert best is not None
            return best[2]
        rules = table.rules
        eff, power = rules.eff, rules.power
        trump = table.trump

        def keep_value(c: Card) -> float:
            e = eff[c.index]
            if e == trump or c.is_joker:
                return 1000 + power[c.index]
            same = [x for x in hand if eff[x.index] == e]
            ranks = {x.rank for x in same}
            v = float(c.rank)
            if c.rank == 17:
                v += 100
            elif c.rank == 16 and (17 in ranks or len(same) >= 2):
                v += 45 if trump >= 0 else 60
            elif c.rank == 15 and {16, 17} <= ranks:
                v += 30
            v += (6 if trump >= 0 else 9) * len(same)  # short suits go first: voids to ruff
            return v

        return str(min(hand, key=lambda c: (keep_value(c), str(c))))

    @staticmethod
    def _team_seats(table: _Table) -> list[str]:
        return [s for s, t in table.team_of.items() if t == table.my_team]

    # ----- card play ----------------------------------------------------------------
    def _play(self, table: _Table, legal: list[str]) -> str:
        options = _parse_legal(legal)
        call = table.call
        if call is not None and call.is_misere:
            if table.bidding_team == table.my_team:
                return self._misere_contractor(table, options)
            return self._misere_defender(table, options)
        if not table.trick:
            return self._lead(table, options)
        return self._follow(table, options)

    def _throw_value(self, table: _Table, c: Card) -> float:
        """How much we would rather keep ``c`` (lowest is thrown first)."""
        eff, power = table.rules.eff, table.rules.power
        e = eff[c.index]
        v = float(power[c.index] % 100 if e == table.trump else power[c.index])
        if c.is_joker:
            return 10_000.0
        if e == table.trump:
            v += 300
        if not table.higher_unseen(c):
            v += 120  # a master
        length = sum(1 for x in table.hand if eff[x.index] == e)
        v += 3 * length
        return v

    def _lowest(self, table: _Table, options: list[tuple[str, Card, int | None]]) -> str:
        return min(options, key=lambda o: (self._throw_value(table, o[1]), o[0]))[0]

    def _secure(self, table: _Table, c: Card) -> bool:
        """``c`` wins the trick whatever the seats after us hold (as far as we know)."""
        after = table.opponents_after_me()
        if not after:
            return True
        eff = table.rules.eff
        if table.higher_unseen(c):
            return False
        e = eff[c.index]
        if table.trump >= 0 and e != table.trump and table.unseen_in(table.trump):
            # a non-trump may be ruffed by an opponent who has shown out of the led suit
            led = table.led if table.trick else e
            if any(led in table.voids[s] for s in after):
                return False
        if table.trump < 0 and not c.is_joker:
            jokers = [x for x in table.unseen if x.is_joker]
            led = table.led if table.trick else e
            if jokers and any(led in table.voids[s] for s in after):
                return False
        return True

    def _follow(self, table: _Table, options: list[tuple[str, Card, int | None]]) -> str:
        power = table.rules.power
        win_seat, win_card = table.winning()
        after_opps = table.opponents_after_me()
        if table.partner(win_seat):
            sure = not after_opps or self._secure_for(table, win_card)
            if sure:
                return self._lowest(table, options)
            masters = [
                o for o in options if table.winning(o[1])[0] == table.hand_seat and self._secure(table, o[1])
            ]
            if masters:
                return min(masters, key=lambda o: power[o[1].index])[0]
            return self._lowest(table, options)
        winners = [o for o in options if table.winning(o[1])[0] == table.hand_seat]
        if not winners:
            return self._lowest(table, options)
        cheapest = min(winners, key=lambda o: (power[o[1].index], o[0]))
        if not after_opps:
            return cheapest[0]  # last to play for our side: win as cheaply as possible
        secure = [o for o in winners if self._secure(table, o[1])]
        if secure:
            return min(secure, key=lambda o: (power[o[1].index], o[0]))[0]
        eff = table.rules.eff
        if table.trump >= 0 and eff[cheapest[1].index] == table.trump and table.led != table.trump:
            return cheapest[0]  # ruff
        if len(table.trick) >= 2 or len(after_opps) == 0:
            return cheapest[0]  # third hand high(ish)
        # second hand low unless a cheap winner would be high enough to hold
        higher = table.higher_unseen(cheapest[1])
        if len(higher) <= 1:
            return cheapest[0]
        return self._lowest(table, options)

    def _secure_for(self, table: _Table, card: Card) -> bool:
        """Partner's ``card`` (winning now) will hold against the seats after us."""
        if table.higher_unseen(card):
            return False
        after = table.opponents_after_me()
        eff = table.rules.eff
        return not (
            table.trump >= 0
            and eff[card.index] != table.trump
            and table.unseen_in(table.trump)
            and any(table.led in table.voids[s] for s in after)
        )

    def _lead(self, table: _Table, options: list[tuple[str, Card, int | None]]) -> str:
        eff, power = table.rules.eff, table.rules.power
        trump = table.trump
        hand = table.hand
        plain = [o for o in options if o[2] is None]
        declaring = table.bidding_team == table.my_team
        opponents = [s for s in table.active if not table.partner(s)]
        if trump >= 0:
            my_trumps = sorted(
                (o for o in plain if eff[o[1].index] == trump), key=lambda o: -power[o[1].index]
            )
            opp_may_have = table.unseen_in(trump) and any(trump not in table.voids[s] for s in opponents)
            drawer = declaring and (table.hand_seat == table.contractor or len(my_trumps) >= 3)
            if drawer and my_trumps and opp_may_have:
                top = my_trumps[0]
                if not table.higher_unseen(top[1]):
                    return top[0]
                if len(my_trumps) >= 4:
                    return my_trumps[-1][0]

        # cash a master in a side suit (longest suit first)
        def length(c: Card) -> int:
            return sum(1 for x in hand if eff[x.index] == eff[c.index])

        masters = [
            o
            for o in plain
            if not o[1].is_joker
            and eff[o[1].index] != trump
            and not table.higher_unseen(o[1])
            and self._secure(table, o[1])
        ]
        if masters:
            return max(masters, key=lambda o: (length(o[1]), power[o[1].index], o[0]))[0]
        side = [o for o in plain if eff[o[1].index] != trump and not o[1].is_joker]
        if self.avoid_ruffs and trump >= 0 and side:
            # do not lead into an opponent who has shown out of a suit while trumps are out
            rufflers = [s for s in opponents if trump not in table.voids[s]] if table.unseen_in(trump) else []
            safe = [o for o in side if not any(eff[o[1].index] in table.voids[s] for s in rufflers)]
            side = safe or side
        if self.lead_partners_suit and not declaring and side:
            wanted = table.partner_suits()
            ours = [o for o in side if eff[o[1].index] in wanted]
            if ours:
                suit = eff[ours[0][1].index]
                cards = sorted((o for o in ours if eff[o[1].index] == suit), key=lambda o: -power[o[1].index])
                top = cards[0]
                if top[1].rank == 17 or len(cards) <= 2:
                    return top[0]  # the ace, or top of a doubleton
                return cards[-1][0]
        if trump >= 0 and not declaring and side and any(eff[c.index] == trump for c in hand):
            singles = [o for o in side if length(o[1]) == 1 and o[1].rank < 16]
            if singles:
                return min(singles, key=lambda o: power[o[1].index])[0]
        if side:
            # low from the longest suit, avoiding leading away from a lone king or queen
            def lead_key(o: tuple[str, Card, int | None]) -> tuple[int, int, float, str]:
                c = o[1]
                same = [x for x in hand if eff[x.index] == eff[c.index]]
                top = max(x.rank for x in same)
                bare_honour = 1 if top in (15, 16) and len(same) <= 2 else 0
                return (bare_honour, -len(same), power[c.index], o[0])

            longest = min(side, key=lead_key)
            suit_cards = [o for o in side if eff[o[1].index] == eff[longest[1].index]]
            return min(suit_cards, key=lambda o: (power[o[1].index], o[0]))[0]
        jokers = [o for o in options if o[2] is not None]
        if jokers:
            # lead the joker naming our longest suit
            return max(
                jokers,
                key=lambda o: (sum(1 for x in hand if x.suit is not None and int(x.suit) == o[2]), o[0]),
            )[0]
        return min(options, key=lambda o: (power[o[1].index], o[0]))[0]

    # ----- misère ----------------------------------------------------------------------
    def _misere_contractor(self, table: _Table, options: list[tuple[str, Card, int | None]]) -> str:
        eff, power = table.rules.eff, table.rules.power
        if not table.trick:
            opponents = [s for s in table.active if not table.partner(s)]

            def risk(o: tuple[str, Card, int | None]) -> tuple[float, int, int, str]:
                c = o[1]
                if c.is_joker:
                    return (1000.0 if power[c.index] > 0 else -1.0, 0, 0, o[0])
                e = eff[c.index]
                suit_unseen = table.unseen_in(e)
                lower = sum(1 for x in suit_unseen if power[x.index] < power[c.index])
                higher = len(suit_unseen) - lower
                r = float(lower)
                if higher == 0:
                    r += 100
                if all(e in table.voids[s] for s in opponents):
                    r += 200
                # prefer shedding a short suit (a void lets us throw high cards later)
                length = sum(1 for x in table.hand if eff[x.index] == e)
                return (r, length, -power[c.index], o[0])

            return min(options, key=risk)[0]
        losers = [o for o in options if table.winning(o[1])[0] != table.hand_seat]
        if losers:
            # shed the highest card that still loses
            return max(losers, key=lambda o: (self._danger_rank(table, o[1]), o[0]))[0]
        if not table.still_to_play():
            # we take this trick anyway: throw the highest
            return max(options, key=lambda o: (power[o[1].index], o[0]))[0]
        return min(options, key=lambda o: (power[o[1].index], o[0]))[0]

    @staticmethod
    def _danger_rank(table: _Table, c: Card) -> float:
        """Higher for cards we most want to be rid of."""
        if c.is_joker:
            return -1.0 if table.rules.power[c.index] > 0 else 500.0
        lower = sum(1 for x in table.unseen_in(table.rules.eff[c.index]) if x.rank < c.rank)
        return lower * 20 + c.rank

    def _misere_defender(self, table: _Table, options: list[tuple[str, Card, int | None]]) -> str:
        eff, power = table.rules.eff, table.rules.power
        contractor = table.contractor or ""
        played = dict(table.trick)
        if not table.trick:
            known = table.known.get(contractor)
            plain = [o for o in options if o[2] is None and not o[1].is_joker]
            if not plain:
                return options[0][0]
            if known:
                # a suit where the contractor cannot get under our lowest card
                for o in sorted(plain, key=lambda o: power[o[1].index]):
                    e = eff[o[1].index]
                    theirs = [x for x in known if eff[x.index] == e]
                    if theirs and min(power[x.index] for x in theirs) > power[o[1].index]:
                        return o[0]
            live = [o for o in plain if eff[o[1].index] not in table.voids.get(contractor, set())]
            pool = live or plain
            return min(pool, key=lambda o: (power[o[1].index], o[0]))[0]
        if contractor in played:
            win_seat, _ = table.winning()
            if win_seat == contractor:
                unders = [o for o in options if table.winning(o[1])[0] == contractor]
                if unders:
                    return max(unders, key=lambda o: (power[o[1].index], o[0]))[0]
            # the trick is lost for the contractor: dump our highest card
            return max(
                (o for o in options if not (o[1].is_joker and power[o[1].index] > 0)),
                key=lambda o: (power[o[1].index], o[0]),
                default=options[0],
            )[0]
        # contractor still to play: play low so the contractor must go over
        following = [o for o in options if eff[o[1].index] == table.led]
        if following:
            return min(following, key=lambda o: (power[o[1].index], o[0]))[0]
        # void: throw a high card, keeping low cards to duck later
        return max(
            (o for o in options if not o[1].is_joker),
            key=lambda o: (power[o[1].index], o[0]),
            default=options[0],
        )[0]
