"""Property tests: random valid option sets and random legal play, checked
against an independent reference implementation of five_hundred.md §4, §8,
§9, §11 and §12 written here from the spec (it shares no code with the
engine beyond card parsing)."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trumps
from trumps.core.decks import deck_500
from trumps.core.errors import IllegalAction, WrongSeat

# ----- reference rules ----------------------------------------------------------------------
PARTNER_SUIT = {"S": "C", "C": "S", "H": "D", "D": "H"}
NATURAL = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "11", "12", "13", "J", "Q", "K", "A"]


def split(card: str) -> tuple[str, str | None]:
    """(rank, suit); jokers have no suit."""
    if card in ("RJ", "BJ"):
        return card, None
    return card[:-1], card[-1]


def eff_suit(card: str, trump: str | None) -> str | None:
    rank, suit = split(card)
    if suit is None:
        return trump  # a joker is a trump, or has no suit in no trumps
    if trump is not None and rank == "J" and suit == PARTNER_SUIT[trump]:
        return trump  # left bower
    return suit


def trump_power(card: str, trump: str) -> int:
    rank = split(card)[0]
    order = ["BJ", "RJ", "J" + trump, "J" + PARTNER_SUIT[trump]]
    if card in order:
        return 100 - order.index(card)
    return NATURAL.index(rank)


def ref_winner(cards: list[str], led: str, trump: str | None, joker_low: bool) -> int:
    """Index of the winning card (§8.4)."""
    best, best_i = -10, -1
    for i, c in enumerate(cards):
        e = eff_suit(c, trump)
        if trump is not None and e == trump:
            p = 1000 + trump_power(c, trump)
        elif c in ("RJ", "BJ"):  # no trumps: the joker
            p = (0 if i == 0 else -5) if joker_low else 2000 + (1 if c == "BJ" else 0)
        elif e == led:
            p = 10 + NATURAL.index(split(c)[0])
        else:
            p = -5
        assert p != best
        if p > best:
            best, best_i = p, i
    return best_i


def ref_legal(
    hand: list[str], trick: list[str], led: str | None, trump: str | None, void: set[str], restrict: bool
) -> set[str]:
    if not trick:
        if trump is not None:
            return set(hand)
        suits = ["S", "H", "D", "C"]
        if restrict:
            suits = [s for s in suits if s not in void] or suits
        out = set()
        for c in hand:
            if c in ("RJ", "BJ"):
                out |= {f"{c}:{s}" for s in suits}
            else:
                out.add(c)
        return out
    same = [c for c in hand if eff_suit(c, trump) == led]
    return set(same or hand)


def ref_value(contract: str, o: Any) -> int:
    if contract == "MIS":
        return int(o.nullo_points)
    if contract == "OMIS":
        return int(o.open_nullo_points)
    level = level_of(contract)
    denom = contract[len(str(level)) :]
    return 100 * (level - 6) + 40 + 20 * ["S", "C", "D", "H", "NT"].index(denom)


def level_of(contract: str) -> int:
    return 10 if contract.startswith("10") else int(contract[0])


DENOMS = ["S", "C", "D", "H", "NT"]
SUIT_BIDS = [f"{level}{d}" for level in range(6, 11) for d in DENOMS]


def ref_key(call: str, o: Any) -> int:
    """§5.2 rank_key."""
    if call == "MIS":
        return 2305 if o.nullo_points == 250 and o.eight_spades_overbids_nullo else 10 * o.nullo_points + 5
    if call == "OMIS":
        return 10 * o.open_nullo_points + 5
    return 10 * ref_value(call.lstrip("i"), o)


def ref_calls(o: Any, calls: list[str], banned: bool) -> set[str]:
    """The legal calls after ``calls`` (§5.3-§5.5)."""
    if banned:
        return {"P"}
    real = [c for c in calls if c != "P" and not c.startswith("i")]
    every = [c for c in calls if c != "P"]
    seen = [level_of(c) for c in real if c not in ("MIS", "OMIS")]
    out = {"P"}
    if o.variation == "american":
        floor_calls = every if o.inkles_must_outrank else real
        floor = ref_key(floor_calls[-1], o) if floor_calls else -1
        if len(calls) < o.inkle_seats:
            inkle_floor = ref_key(every[-1], o) if every and o.inkles_must_outrank else -1
            out |= {f"i6{d}" for d in DENOMS if ref_key(f"6{d}", o) > inkle_floor}
        candidates = [c for c in SUIT_BIDS if level_of(c) >= 7]
    else:
        floor = ref_key(every[-1], o) if every else -1
        candidates = list(SUIT_BIDS)
    out |= {c for c in candidates if ref_key(c, o) > floor}
    if o.nullo_mode != "off":
        if (o.nullo_mode == "anytime" or any(x >= 7 for x in seen)) and ref_key("MIS", o) > floor:
            out.add("MIS")
        if (not o.open_nullo_after_8 or any(x >= 8 for x in seen)) and ref_key("OMIS", o) > floor:
            out.add("OMIS")
    return out


def ref_out(score: int, inclusive: bool) -> bool:
    return score >= 500 or score <= -500 if inclusive else score > 500 or score < -500


def ref_game_end(o: Any, s: list[int], bidders: int | None) -> tuple[bool, int | None]:
    inclusive = bool(o.win_threshold_inclusive)
    if not any(ref_out(x, inclusive) for x in s):
        return False, None
    reached = bidders is not None and ref_out(s[bidders], inclusive) and s[bidders] > 0
    if o.simultaneous_out_rule == "bidders_win" and reached:
        return True, bidders
    top = [t for t in range(len(s)) if s[t] == max(s)]
    if len(top) == 1:
        return True, top[0]
    if bidders in top:
        return True, bidders
    return False, None


# ----- option sets ----------------------------------------------------------------------------
@st.composite
def option_sets(draw: Any) -> dict[str, Any]:
    b = st.booleans()
    variation = draw(st.sampled_from(["american", "australian"]))
    players = draw(st.sampled_from(["2v2", "2v2", "2v2v2", "3v3"]))
    nullo_mode = draw(st.sampled_from(["off", "after_7", "anytime"]))
    o: dict[str, Any] = {
        "variation": variation,
        "players": players,
        "kitty_size": draw(st.sampled_from([3, 5, 6])),
        "must_bid_to_win": draw(b),
        "nullo_mode": nullo_mode,
        "nullo_points": draw(st.sampled_from([210, 230, 250])),
        "eight_spades_overbids_nullo": draw(b),
        "nullo_plays": "own_hand" if players == "3v3" else draw(st.sampled_from(["own_hand", "both_hands"])),
        "open_nullo_points": draw(st.sampled_from([330, 430, 500, 520])),
        "open_nullo_after_8": draw(b) if nullo_mode == "after_7" else False,
        "inkles_must_outrank": draw(b),
        "inkle_seats": 2 if players == "2v2" else draw(st.sampled_from([2, 3])),
        "all_pass_action": draw(st.sampled_from(["redeal", "play_no_trumps"])),
        "joker_lead_suit_restriction": draw(b),
        "joker_low_in_misere": draw(b),
        "open_misere_expose": draw(st.sampled_from(["before_lead", "after_first_trick"])),
        "end_hand_when_decided": draw(b),
        "first_lead": draw(st.sampled_from(["contractor", "eldest"])),
        "misere_defender_points": draw(st.sampled_from(["per_trick", "none"])),
        "breach_enabled": draw(b),
        "breach_value": draw(st.sampled_from([50, 100, 200])),
        "breach_ban_any_level": draw(b),
        "win_threshold_inclusive": draw(b),
        "simultaneous_out_rule": draw(st.sampled_from(["highest_score_then_bidders", "bidders_win"])),
    }
    if variation == "australian":
        o["raise_own_bid"] = draw(b)
        o["raise_reopens_on_denomination_change"] = draw(b) if o["raise_own_bid"] else False
    return o


# ----- the checker ----------------------------------------------------------------------------
CARD_LIKE = {str(c) for c in deck_500(6, 6)} | {str(c) for c in deck_500(4, 6)}


def card_tokens(view: dict[str, Any]) -> list[str]:
    """Every card named anywhere in a view (calls excluded: ``7H`` the bid,
    in the auction, the contract, the results and the legal calls, is not
    the card)."""
    out: list[str] = []
    auction_phase = view["phase"] in ("AUCTION", "BREACH")

    def walk(x: Any, key: str | None) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                walk(k, None)
                if k in ("call", "contract", "auction", "options") or (k == "legal" and auction_phase):
                    continue
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str):
            token = x.split(":")[0] if ":" in x and len(x) <= 5 else x
            if token in CARD_LIKE:
                out.append(token)

    walk(view, None)
    # and the raw text, quoted tokens only, outside the auction
    text = json.dumps(
        {k: v for k, v in view.items() if k not in ("auction", "contract", "options", "legal", "results")}
    )
    for c in CARD_LIKE:
        if f'"{c}"' in text or f'"{c}:' in text:
            out.append(c)
    return out


class Checker:
    def __init__(self, g: Any, views: bool) -> None:
        self.g = g
        self.o = g.options
        self.views = views
        self.team = [g.team_of(s) for s in range(g.players)]
        self.totals = [0] * (max(self.team) + 1)
        self.expected_bans: set[int] = set()
        self.new_deal()

    def new_deal(self) -> None:
        self.d = self.g.deal
        self.void: dict[int, set[str]] = {s: set() for s in range(self.g.players)}
        self.breacher: int | None = None
        self.trick_actions: list[str] = []
        assert {
            s for s in range(self.g.players) if self.g.deal.banned and s in self.g.deal.banned
        } == self.expected_bans

    # the contract as the reference sees it
    def trump(self) -> str | None:
        c = self.d.contract
        if c is None or c.is_misere:
            return None
        return None if c.denom is None else c.denom.code

    def partners(self) -> set[int]:
        d = self.d
        if d.contractor is None:
            return set()
        return {
            s for s in range(self.g.players) if self.team[s] == self.team[d.contractor] and s != d.contractor
        }

    def expected_exposed(self) -> set[int]:
        d, o = self.d, self.o
        c = d.contract
        if c is None or not c.is_misere or d.phase not in ("PLAY", "DONE"):
            return set()
        out = set(self.partners()) if o.nullo_plays == "both_hands" else set()
        if c.kind == "OMIS" and (o.open_misere_expose == "before_lead" or d.tricks):
            out.add(d.contractor)
        return out

    def active(self) -> list[int]:
        c = self.d.contract
        if c is not None and c.is_misere and self.o.nullo_plays == "own_hand":
            return [s for s in range(self.g.players) if s not in self.partners()]
        return list(range(self.g.players))

    # invariants of the current state
    def check_state(self) -> None:
        g, d = self.g, self.d
        if g.is_over:
            assert g.to_act_index is None and g.legal_actions() == []
        deck = Counter(str(c) for c in g.deck)
        held = [str(c) for h in d.hands for c in h]
        played = [str(c) for _, cards, _, _ in d.tricks for c in cards] + [str(c) for c in d.trick]
        kitty_out = d.phase == "AUCTION" or (d.phase == "BREACH" and d.breach_window == 1) or d.thrown_in
        rest = [str(c) for c in d.kitty] if kitty_out else [str(c) for c in d.discards]
        if d.phase == "KITTY":
            assert len(d.discards) < len(d.kitty)
        elif not kitty_out:
            assert len(d.discards) == len(d.kitty)
        assert Counter(held + played + rest) == deck
        assert max(Counter(held + played + rest).values()) == 1
        assert sum(d.won) == len(d.tricks)
        assert sum(d.team_tricks()) == len(d.tricks)
        assert set(d.exposed) == self.expected_exposed()
        if d.phase == "PLAY" and not g.is_over:
            self.check_turn()
        if d.phase == "AUCTION" and not g.is_over:
            calls = [str(c) for _, c in d.auction.calls]
            expected = ref_calls(self.o, calls, g.to_act_index in self.expected_bans)
            assert {str(a) for a in g.legal_actions()} == expected, calls
        if self.views:
            self.check_views()

    def check_turn(self) -> None:
        d, o = self.d, self.o
        seat = d.hand_to_play
        active = self.active()
        assert sorted(d.active) == active
        if d.trick:
            last = d.trick_seats[-1]
            i = active.index(last)
            assert seat == active[(i + 1) % len(active)]
        elif d.tricks:
            assert seat == d.tricks[-1][2]
        else:
            if d.no_contract or o.first_lead == "eldest":
                lead = (d.dealer + 1) % self.g.players
                while lead not in active:
                    lead = (lead + 1) % self.g.players
            else:
                lead = d.contractor
            assert seat == lead
        partner_hand = d.contract is not None and d.contract.is_misere and seat in self.partners()
        assert self.g.to_act_index == (d.contractor if partner_hand else seat)
        hand = [str(c) for c in d.hands[seat]]
        trump = self.trump()
        led = None
        if self.trick_actions:
            first = self.trick_actions[0]
            led = first.split(":")[1] if ":" in first else eff_suit(first, trump)
        restrict = bool(o.joker_lead_suit_restriction)
        expected = ref_legal(hand, self.trick_actions, led, trump, self.void[seat], restrict)
        assert {str(a) for a in self.g.legal_actions()} == expected

    def allowed_cards(self, viewer: int | None) -> set[str]:
        d = self.d
        ok = {str(c) for _, cards, _, _ in d.tricks for c in cards} | {str(c) for c in d.trick}
        for s in self.expected_exposed():
            ok |= {str(c) for c in d.hands[s]}
        if viewer is not None:
            ok |= {str(c) for c in d.hands[viewer]}
            took = d.phase in ("KITTY", "PLAY", "DONE") or (d.phase == "BREACH" and d.breach_window == 2)
            if viewer == d.contractor and took:
                ok |= {str(c) for c in d.kitty} | {str(c) for c in d.discards}
        return ok

    def check_views(self) -> None:
        g = self.g
        for viewer in [None, *range(g.players)]:
            v = g.view(viewer)
            json.dumps(v)
            # a finished deal's kitty and discards are public: they must be that
            # deal's own (checked here), and are left out of the scan of this deal
            for i, r in enumerate(v["results"]):
                assert sorted(r.pop("kitty")) == sorted(g.deal_records[i]["kitty"])
                discards = r.pop("discards")
                assert len(discards) in (0, len(r_kitty := g.deal_records[i]["kitty"]))
                assert all(f"'{c}'" in str(g.deal_records[i]) for c in discards), r_kitty
            leaked = set(card_tokens(v)) - self.allowed_cards(viewer)
            assert not leaked, (g.phase, viewer, leaked)
            if viewer is not None:
                assert v["hands"][g.seat_name(viewer)] is not None
                if viewer == g.to_act_index:
                    assert v["legal"] == [str(a) for a in g.legal_actions()]
                else:
                    assert v["legal"] == []

    # one action
    def step(self, action: Any) -> None:
        g, d = self.g, self.d
        deals_before = len(g.results)
        tricks_before = len(d.tricks)
        text = str(action)
        actor = g.to_act_index
        phase = d.phase
        if phase == "AUCTION":
            if actor in d.banned:
                assert [str(a) for a in g.legal_actions()] == ["P"]
            reopens = d.o.raise_reopens_on_denomination_change  # passed players may re-enter
            if d.o.variation == "australian" and not d.auction.raise_turn and not reopens:
                assert actor not in {s for s, c in d.auction.calls if str(c) == "P"}
        if phase == "BREACH" and text == "BREACH":
            self.breacher = actor
        if phase == "PLAY":
            seat = d.hand_to_play
            if self.trick_actions:
                first = self.trick_actions[0]
                led = first.split(":")[1] if ":" in first else eff_suit(first, self.trump())
                if eff_suit(text, self.trump()) != led:
                    self.void[seat].add(led)
            self.trick_actions.append(text)
        g.apply(action)
        if phase == "AUCTION" and d.phase != "AUCTION":
            self.check_auction_end(d)
        if phase == "PLAY" and len(d.tricks) > tricks_before:
            self.check_trick(d.tricks[-1])
        if len(g.results) > deals_before:
            self.check_result(d, g.results[-1])
            if not g.is_over:
                self.new_deal()
        self.check_state()

    def check_auction_end(self, d: Any) -> None:
        """§5.4.5 / §5.5.4: who won the auction and when it ended."""
        calls = [(s, str(c)) for s, c in d.auction.calls]
        n = self.g.players
        real = [(s, c) for s, c in calls if c != "P" and not c.startswith("i")]
        if self.o.variation == "american":
            assert [s for s, _ in calls] == [(d.dealer + 1 + k) % n for k in range(n)]
        else:
            assert calls[0][0] == (d.dealer + 1) % n
            passers = {s for s, c in calls if c == "P"}
            if not real:
                assert len(calls) == n and passers == set(range(n))
            elif not self.o.raise_reopens_on_denomination_change:
                assert passers | {real[-1][0]} == set(range(n)) and len(passers) >= n - 1
        if real:
            assert (d.contractor, str(d.contract)) == real[-1]
        else:
            assert d.contract is None
            assert d.thrown_in is (self.o.all_pass_action == "redeal")

    def check_trick(self, trick: Any) -> None:
        leader, cards, winner, _ = trick
        actions = self.trick_actions
        self.trick_actions = []
        assert [str(c) for c in cards] == [a.split(":")[0] for a in actions]
        first = actions[0]
        trump = self.trump()
        led = first.split(":")[1] if ":" in first else eff_suit(first, trump)
        joker_low = (
            bool(self.o.joker_low_in_misere) and self.d.contract is not None and self.d.contract.is_misere
        )
        i = ref_winner([str(c) for c in cards], led, trump, joker_low)
        active = self.active()
        seats = [active[(active.index(leader) + k) % len(active)] for k in range(len(active))]
        assert len(cards) == len(active)
        assert winner == seats[i]

    def check_result(self, d: Any, r: dict[str, Any]) -> None:
        o = self.o
        n_teams = len(self.totals)
        old = list(self.totals)
        if d.thrown_in:
            assert d.contract is None and o.all_pass_action == "redeal"
            assert r["points"] == [0] * n_teams and r["scores"] == old
            self.expected_bans = set()
            return
        tricks = [0] * n_teams
        for _, _, winner, _ in d.tricks:
            tricks[self.team[winner]] += 1
        assert r["tricks"] == tricks
        c = None if d.contract is None else str(d.contract)
        bt = None if d.contractor is None else self.team[d.contractor]
        misere = c in ("MIS", "OMIS")
        # how many tricks were played
        if misere and o.end_hand_when_decided:
            need = 3 if self.breacher is not None else 1
            ends = [
                k + 1
                for k in range(len(d.tricks))
                if sum(1 for _, _, w, _ in d.tricks[: k + 1] if self.team[w] == bt) >= need
            ]
            assert len(d.tricks) == (ends[0] if ends else 10)
        else:
            assert len(d.tricks) == 10
        new = list(old)
        for t in range(n_teams):
            if c is not None and t == bt:
                v = ref_value(c, o)
                made = tricks[t] == 0 if misere else tricks[t] >= level_of(c)
                pts = (max(v, 250) if (not misere and tricks[t] == 10) else v) if made else -v
                new[t] = old[t] + pts
                assert r["made"] is made
            else:
                pts = 0 if (misere and o.misere_defender_points == "none") else 10 * tricks[t]
                new[t] = max(old[t], min(old[t] + pts, 490)) if o.must_bid_to_win else old[t] + pts
        assert r["points"] == [new[t] - old[t] for t in range(n_teams)]
        before = list(new)
        bans: set[int] = set()
        if self.breacher is not None:
            assert c is not None and (misere or level_of(c) >= 7) and o.breach_enabled
            assert self.team[self.breacher] != bt
            success = tricks[bt] >= 3 if misere else level_of(c) - tricks[bt] >= 2
            delta = o.breach_value if success else -o.breach_value
            bteam = self.team[self.breacher]
            s = new[bteam]
            inside = (-500 < s < 500) if o.win_threshold_inclusive else (-500 <= s <= 500)
            limit = 490 if o.win_threshold_inclusive else 500
            new[bteam] = min(max(s + delta, -limit), limit) if inside else s + delta
            assert (
                r["breach"]["seat"] == self.g.seat_name(self.breacher) and r["breach"]["succeeded"] is success
            )
            if success:
                if o.breach_ban_any_level or (not misere and level_of(c) == 7):
                    bans.add(d.contractor)
            else:
                bans.add(self.breacher)
        else:
            assert r.get("breach") is None
        assert r["scores"] == new == self.g.totals
        self.totals = new
        self.expected_bans = bans
        over, winner = ref_game_end(o, before, bt)
        single = self.g._single
        assert self.g.is_over is (over or single)
        if over:
            assert self.g.winner == winner


def pick(rng: random.Random, g: Any) -> Any:
    """A random legal action, biased so auctions often pass out, misère is
    often the contract and games last several deals."""
    legal = g.legal_actions()
    names = [str(a) for a in legal]
    if g.phase == "AUCTION" and len(legal) > 1:
        roll = rng.random()
        if roll < 0.55:
            return legal[0]  # P
        for special in ("MIS", "OMIS"):
            if special in names and roll < 0.7:
                return legal[names.index(special)]
        return rng.choice(legal[1 : 1 + 8])  # one of the lowest bids
    if g.phase == "BREACH":
        return legal[1] if rng.random() < 0.3 else legal[0]
    return rng.choice(legal)


def try_illegal(rng: random.Random, g: Any) -> None:
    """A rejected action raises a ValueError and changes nothing."""
    before = g.to_json()
    legal = {str(a) for a in g.legal_actions()}
    others = [s for s in range(g.players) if s != g.to_act_index]
    if rng.random() < 0.3:
        attempt, seat = rng.choice(sorted(legal)), rng.choice(others)
        expected: type[Exception] = WrongSeat
    else:
        pool = (
            [str(c) for c in g.deck]
            if g.phase in ("PLAY", "KITTY")
            else ["P", "7S", "8NT", "10NT", "MIS", "OMIS", "BREACH", "i6S"]
        )
        pool = [
            x
            for x in pool
            if x not in legal and not (x in ("RJ", "BJ") and any(a.startswith(x + ":") for a in legal))
        ]
        if not pool:
            return
        attempt, seat, expected = rng.choice(pool), g.to_act_index, IllegalAction
    try:
        g.apply(attempt, seat)
    except expected:
        pass
    else:
        raise AssertionError(f"{attempt} by {seat} was accepted in {g.phase}")
    assert g.to_json() == before


def run(options: dict[str, Any], seed: int, max_deals: int, view_deals: int) -> Any:
    rng = random.Random(seed)
    g = trumps.new_game("500", options=options, seed=seed)
    checker = Checker(g, views=True)
    checker.check_state()
    while not g.is_over and g.deal_number < max_deals:
        checker.views = g.deal_number < view_deals
        assert g.legal_actions()
        if rng.random() < 0.05:
            try_illegal(rng, g)
        checker.step(pick(rng, g))
    return g


# ----- the properties ---------------------------------------------------------------------------
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(options=option_sets(), seed=st.integers(0, 2**31))
def test_random_games_follow_the_rules(options: dict[str, Any], seed: int) -> None:
    run(options, seed, max_deals=6, view_deals=2)


@SETTINGS
@given(options=option_sets(), seed=st.integers(0, 2**31), cut=st.integers(0, 400))
def test_records_replay_and_clones(options: dict[str, Any], seed: int, cut: int) -> None:
    rng = random.Random(seed)
    g = trumps.new_game("500", options=options, seed=seed)
    for _ in range(cut):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()), g.to_act_index, time=0.5 if rng.random() < 0.1 else None)
    record = g.to_json()
    text = json.dumps(record)
    # JSON round trip
    again = trumps.load_game(text)
    assert again.to_json() == record
    assert again.view(None) == g.view(None)
    for s in range(g.players):
        assert again.view(s) == g.view(s)
        assert [str(a) for a in again.legal_actions()] == [str(a) for a in g.legal_actions()]
    # replay from the action log alone
    replay = trumps.new_game("500", options=options, seed=seed, dealer=g.first_dealer)
    for seat, action in g.history():
        replay.apply(action, seat)
    assert replay.to_json() == {
        **record,
        "actions": [{k: v for k, v in a.items() if k != "time"} for a in record["actions"]],
    }
    # clones are independent both ways
    c = g.clone()
    steps = rng.randrange(1, 60)
    for _ in range(steps):
        if c.is_over:
            break
        c.apply(rng.choice(c.legal_actions()))
    assert g.to_json() == record
    snapshot = c.to_json()
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    assert c.to_json() == snapshot


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    contract=st.sampled_from(["7H", "8NT", "6S", "10D", "MIS", "OMIS"]),
    players=st.sampled_from(["2v2", "2v2v2", "3v3"]),
)
def test_single_deal_mode_random(seed: int, contract: str, players: str) -> None:
    options: dict[str, Any] = {"players": players}
    rng = random.Random(seed)
    g = trumps.new_game(
        "500",
        options=options,
        seed=seed,
        contract=contract,
        declarer=rng.randrange(6 if players != "2v2" else 4),
    )
    checker = Checker(g, views=True)
    checker.check_state()
    while not g.is_over:
        checker.step(rng.choice(g.legal_actions()))
    assert len(g.results) == 1 and g.results[0]["contract"] == contract
    assert trumps.load_game(json.dumps(g.to_json())).to_json() == g.to_json()
