"""Bots of the outside engine `colver <https://pypi.org/project/colver/>`_
(Belote Contrée, Rust + Python, MIT) seated in trumps' coinche matches.

``bot_for("coinche", "colver:smart_ismcts")`` (and ``trumps arena coinche
--preset contree_exact --a strong --b colver:smart_ismcts``) gives a trumps
:class:`~trumps.bots.base.Bot` that asks a colver agent for every decision.
colver is a test/benchmark dependency only (``pip install trumps[arena]``)
and is imported lazily.

Agents (every one needs no downloaded weights; colver's bidder is its
rule-based ``improved_v2`` for all of them):

* ``heuristic``: colver's deterministic heuristic card play;
* ``ismcts``: colver's naive IS-MCTS (20 determinizations a move);
* ``smart_ismcts``: colver's belief-weighted IS-MCTS (20 determinizations);
* ``random``: a random legal action (drawn from the bot's ``rng``).

colver's IS-MCTS agents are not reproducible from their seed; the
heuristic is.

A suffix ``@N`` sets the determinizations (``colver:smart_ismcts@100``).

Information: a colver agent reads a colver ``Env``, which holds all four
hands.  The bot never gives it the real hidden hands: at each decision it
builds an ``Env`` from the seat's own view alone — its hand, the auction and
the cards played — with the hidden cards dealt at random consistently with
that view (hand sizes, and the card-play duties each past card reveals:
:func:`_forbidden`; the whole play is then replayed and checked legal in
trumps' engine, then in colver's), replays the auction and the play in colver (feeding the agent
every action as colver's ``Agent.observe`` expects) and asks the agent.  An
agent that peeks at the other hands of its ``Env`` therefore only sees one
random consistent world.

Every action is translated both ways and checked legal in both engines: a
past action colver refuses, or a chosen action trumps refuses, raises
:class:`ColverError`.

Seats: colver numbers seats 0-3 with ``(dealer + 1) % 4`` speaking first;
trumps' seats follow the match's ``direction`` (anticlockwise in
``contree_exact``), so seats are mapped by position in the playing order
(partnerships are kept: colver's teams are seats 0+2 and 1+3).
Cards: colver's card ``8 * suit + rank`` (suits ♠ ♥ ♦ ♣, ranks 7 8 9 J Q K
10 A) is trumps' ``rank + suit`` (``TS`` for 10♠).  Calls: colver's 0 is
``P``, ``1 + 4 * step + suit`` is ``80S`` ... ``160C``, ``37 + suit`` is
``CAPOT-S`` ..., 41 is ``X`` (coinche), 42 ``XX`` (surcoinche).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

from trumps.bots.base import Bot, BotError

__all__ = [
    "AGENTS",
    "ColverBot",
    "ColverError",
    "call_to_colver",
    "card_to_colver",
    "colver_to_call",
    "colver_to_card",
    "require_colver",
]

SUITS = "SHDC"
RANKS = "789JQKTA"

#: agent name -> (colver bid strategy, colver play method)
AGENTS: dict[str, tuple[str, str]] = {
    "heuristic": ("improved_v2", "heuristic"),
    "ismcts": ("improved_v2", "ismcts"),
    "smart_ismcts": ("improved_v2", "smart_ismcts"),
    "random": ("", "random"),  # a random legal action (drawn from the bot's rng)
}

DEFAULT_DETERMINIZATIONS = 20
SAMPLE_TRIES = 200


class ColverError(BotError):
    """colver is missing, or the two engines disagree on a deal."""


def require_colver() -> ModuleType:
    """The ``colver`` module, or :class:`ColverError` naming how to install it."""
    try:
        import colver
    except ImportError:
        raise ColverError(
            "the colver bots need the colver package: pip install trumps[arena] (or pip install colver)"
        ) from None
    return colver


# -- notation ----------------------------------------------------------------


def card_to_colver(card: str) -> int:
    """trumps' ``"TS"`` -> colver's card index (6)."""
    text = str(card).strip().upper()
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ColverError(f"not a coinche card: {card!r}")
    return 8 * SUITS.index(text[1]) + RANKS.index(text[0])


def colver_to_card(index: int) -> str:
    """colver's card index -> trumps' notation (``6`` -> ``"TS"``)."""
    if not 0 <= int(index) < 32:
        raise ColverError(f"not a colver card: {index!r}")
    suit, rank = divmod(int(index), 8)
    return RANKS[rank] + SUITS[suit]


def call_to_colver(call: str) -> int:
    """trumps' call (``P``, ``90H``, ``CAPOT-S``, ``X``, ``XX``) -> colver's bidding action."""
    text = str(call).strip().upper()
    if text == "P":
        return 0
    if text == "X":
        return 41
    if text == "XX":
        return 42
    if text.startswith("CAPOT-") and len(text) == 7 and text[6] in SUITS:
        return 37 + SUITS.index(text[6])
    value, suit = text[:-1], text[-1:]
    if suit in SUITS and value.isdigit() and int(value) % 10 == 0 and 80 <= int(value) <= 160:
        return 1 + 4 * ((int(value) - 80) // 10) + SUITS.index(suit)
    raise ColverError(f"call {call!r} has no colver equivalent")


def colver_to_call(action: int) -> str:
    """colver's bidding action -> trumps' call."""
    a = int(action)
    if a == 0:
        return "P"
    if 1 <= a <= 36:
        step, suit = divmod(a - 1, 4)
        return f"{80 + 10 * step}{SUITS[suit]}"
    if 37 <= a <= 40:
        return "CAPOT-" + SUITS[a - 37]
    if a == 41:
        return "X"
    if a == 42:
        return "XX"
    raise ColverError(f"not a colver bidding action: {action!r}")


def _card_of(action: str) -> str:
    return str(action).split(":")[0].split("+")[0]


# -- seats -------------------------------------------------------------------


def _seat_map(view: Mapping[str, Any]) -> dict[str, int]:
    """trumps seat name -> colver seat: the same position in the playing order."""
    seats = [str(s) for s in view["seats"]]
    if len(seats) != 4:
        raise ColverError("colver plays four-handed coinche only")
    direction = str(view.get("direction") or (view.get("options") or {}).get("direction") or "clockwise")
    sign = -1 if direction.lower().startswith("anti") else 1
    # seat order of play: seats[i] is followed by seats[i + sign]
    return {name: (sign * i) % 4 for i, name in enumerate(seats)}


# -- the bot -----------------------------------------------------------------


class ColverBot(Bot):
    """A trumps bot that asks colver's agent ``agent`` (see :data:`AGENTS`)."""

    name: ClassVar[str] = "colver"

    def __init__(self, agent: str = "smart_ismcts", determinizations: int | None = None) -> None:
        key = agent.strip().lower()
        if "@" in key:
            key, _, count = key.partition("@")
            if not count.isdigit() or int(count) < 1:
                raise ColverError(f"colver:{agent}: the determinizations after @ are a positive number")
            determinizations = int(count)
        if key not in AGENTS:
            raise ColverError(f"unknown colver agent {agent!r} (known: {', '.join(AGENTS)})")
        self.agent = key
        self.determinizations = determinizations or DEFAULT_DETERMINIZATIONS
        self.colver = require_colver()
        bid, play = AGENTS[key]
        self.spec = f'[bid]\nstrategy = "{bid}"\n\n[play]\nmethod = "{play}"\n'
        if play in ("ismcts", "smart_ismcts"):
            self.spec += f"determinizations = {self.determinizations}\n"
        self.label = f"colver:{key}" + (f"@{determinizations}" if determinizations else "")

    def __repr__(self) -> str:
        return f"ColverBot({self.agent!r}, determinizations={self.determinizations})"

    # the world the seat may know -------------------------------------------

    def _hidden_hands(self, view: Mapping[str, Any], rng: random.Random) -> dict[str, list[str]]:
        """Current hands of all seats: the seat's own, the others sampled."""
        seats = [str(s) for s in view["seats"]]
        me = str(view["seat"])
        own = [str(c) for c in view["hands"][me]]
        if str(view.get("phase", "")).upper() == "PLAY":
            from trumps.bots.pimc import world
            from trumps.bots.sampling import SamplingError

            forbidden = _forbidden(view)
            seen = set(own) | {card for _, card in self._history(view)[1]}
            pool = [r + s for s in SUITS for r in RANKS if r + s not in seen]
            need = {name: int(view["hand_sizes"][name]) for name in seats if name != me}
            why = "the cards do not fit the hands"
            for _ in range(SAMPLE_TRIES):
                placed = _place(pool, need, forbidden, rng)
                if placed is None:
                    continue
                placed[me] = own
                try:  # every past card legal in trumps' engine too
                    world(view, {i: placed[name] for i, name in enumerate(seats)})
                except SamplingError as exc:
                    why = str(exc)
                    continue
                return placed
            raise ColverError(f"no deal consistent with the view was found ({why})")
        if str(view.get("phase", "")).upper() != "AUCTION":
            raise ColverError(f"the colver bot plays the auction and the play, not {view.get('phase')!r}")
        deck = [r + s for s in SUITS for r in RANKS]
        unseen = [c for c in deck if c not in set(own)]
        rng.shuffle(unseen)
        out: dict[str, list[str]] = {me: own}
        for name in seats:
            if name != me:
                k = int(view["hand_sizes"][name])
                out[name], unseen = unseen[:k], unseen[k:]
        return out

    def _history(self, view: Mapping[str, Any]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        calls = [(str(c["seat"]), str(c["call"])) for c in view.get("auction") or []]
        cards: list[tuple[str, str]] = []
        for trick in view.get("tricks") or []:
            leader = str(trick["leader"])
            order = self._order(view, leader)
            cards.extend(zip(order, (str(c) for c in trick["cards"]), strict=False))
        cards.extend((str(p["seat"]), str(p["card"])) for p in view.get("trick") or [])
        return calls, cards

    @staticmethod
    def _order(view: Mapping[str, Any], leader: str) -> list[str]:
        seat_of = _seat_map(view)
        by_colver = {c: name for name, c in seat_of.items()}
        return [by_colver[(seat_of[leader] + k) % 4] for k in range(4)]

    def _build(self, view: Mapping[str, Any], rng: random.Random) -> tuple[Any, Any]:
        """A colver Env of a world consistent with ``view``, replayed to
        now, and the agent seated at the acting seat having observed it."""
        colver = self.colver
        seat_of = _seat_map(view)
        hands = self._hidden_hands(view, rng)
        calls, cards = self._history(view)
        start = {name: list(h) for name, h in hands.items()}
        for name, card in cards:
            start[name].append(card)
        by_colver = [[] for _ in range(4)]  # type: list[list[int]]
        for name, h in start.items():
            if len(h) != 8:
                raise ColverError(f"seat {name} would hold {len(h)} cards, not 8")
            by_colver[seat_of[name]] = sorted(card_to_colver(c) for c in h)
        env = colver.Env.deal_with_hands(seat_of[str(view["dealer"])], by_colver)
        agent = (
            None
            if self.agent == "random"
            else colver.Agent(self.spec, seat_of[str(view["seat"])], rng.getrandbits(32))
        )
        if agent is not None:
            agent.init_deal(env)
        contract = view.get("contract") or {}
        if contract and not calls:  # a fixed contract (a deal set up without an auction)
            bid = str(contract["bid"])
            value = 250 if bid.startswith("CAPOT") else int(bid[:-1])
            team = seat_of[str(contract["seat"])] % 2
            env.set_contract(
                SUITS.index(str(contract["denom"])), value, team, int(contract.get("level") or 0)
            )
            env.set_phase_playing()
        history = [(name, call_to_colver(call), call) for name, call in calls]
        history += [(name, card_to_colver(card), card) for name, card in cards]
        for name, action, text in history:
            _forced_passes(env, agent, seat_of[name])
            if env.current_player() != seat_of[name]:
                raise ColverError(
                    f"colver expects seat {env.current_player()} to act, trumps had {name} play {text}"
                )
            if action not in env.legal_actions():
                raise ColverError(f"{text} by {name} is legal in trumps but not in colver ({env.to_cfn()})")
            if agent is not None:
                agent.observe(env, action)
            env.step(action)
        _forced_passes(env, agent, seat_of[str(view["seat"])])
        if env.current_player() != seat_of[str(view["seat"])]:
            raise ColverError("colver and trumps disagree on who is to act")
        return env, agent

    def decide(self, view: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
        if not legal:
            raise ColverError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        env, agent = self._build(view, rng)
        in_colver = set(env.legal_actions())
        auction = env.phase() == 0
        translated = {(call_to_colver(a) if auction else card_to_colver(_card_of(a))): a for a in legal}
        if set(translated) != in_colver:
            raise ColverError(
                f"legal actions differ: trumps {sorted(legal)}, colver "
                f"{sorted(colver_to_call(a) if auction else colver_to_card(a) for a in in_colver)}"
            )
        if agent is None:  # colver's own random draw is not seeded: draw from ``rng``
            action = sorted(in_colver)[rng.randrange(len(in_colver))]
        else:
            action = int(agent.decide(env)["action"])
        if action not in in_colver:
            raise ColverError(f"colver's agent chose {action}, illegal in colver")
        if action not in translated:
            text = colver_to_call(action) if auction else colver_to_card(action)
            raise ColverError(f"colver's agent chose {text}, illegal in trumps ({legal})")
        return translated[action]


_TRUMP_ORDER = "78QKTA9J"
_PLAIN_ORDER = "789JQKTA"


def _forbidden(view: Mapping[str, Any]) -> dict[str, set[str]]:
    """Seat -> cards it cannot hold now, by the duties of ``contree_exact``
    card play (follow suit; trump, or overtrump, when an opponent is
    master; overtrump on a trump lead; a partner master frees a seat from
    trumping).  Each duty is tested one card at a time, which is exact for
    these rules: a card ``u`` is impossible for a seat when holding it would
    have made a card the seat played illegal."""
    trump = str((view.get("contract") or {}).get("denom") or view.get("trump") or "")
    seat_of = _seat_map(view)
    out: dict[str, set[str]] = {str(s): set() for s in view["seats"]}
    deck = [r + s for s in SUITS for r in RANKS]

    def beats(a: str, b: str, led: str) -> bool:  # does a beat b (b already winning)?
        if a[1] == trump and b[1] != trump:
            return True
        if a[1] != b[1]:
            return False
        order = _TRUMP_ORDER if a[1] == trump else _PLAIN_ORDER
        return order.index(a[0]) > order.index(b[0])

    tricks = [(str(t["leader"]), [str(c) for c in t["cards"]]) for t in view.get("tricks") or []]
    current = [(str(p["seat"]), str(p["card"])) for p in view.get("trick") or []]
    sequences = [list(zip(ColverBot._order(view, lead), cards, strict=False)) for lead, cards in tricks]
    sequences.append(current)
    for seq in sequences:
        for k in range(1, len(seq)):
            seat, card = seq[k]
            before = [c for _, c in seq[:k]]
            led = before[0][1]
            win = 0
            for j in range(1, k):
                if beats(before[j], before[win], led):
                    win = j
            partner_master = (seat_of[seq[win][0]] - seat_of[seat]) % 2 == 0
            high = max(
                (c for c in before if c[1] == trump), key=lambda c: _TRUMP_ORDER.index(c[0]), default=None
            )
            bad = out[seat]
            if card[1] != led:
                bad.update(c for c in deck if c[1] == led)
            if led == trump:
                if card[1] == trump and high is not None and not beats(card, high, led):
                    bad.update(c for c in deck if c[1] == trump and beats(c, high, led))
            elif card[1] != led and not partner_master:
                if high is None:
                    if card[1] != trump:
                        bad.update(c for c in deck if c[1] == trump)
                elif not beats(card, high, led):
                    bad.update(c for c in deck if c[1] == trump and beats(c, high, led))
    return out


def _place(
    pool: list[str], need: dict[str, int], forbidden: dict[str, set[str]], rng: random.Random
) -> dict[str, list[str]] | None:
    """The unseen cards dealt at random to the seats that may hold them."""
    cards = list(pool)
    rng.shuffle(cards)
    allowed = {c: [s for s in need if c not in forbidden.get(s, set())] for c in cards}
    cards.sort(key=lambda c: len(allowed[c]))  # most constrained first (stable: still random)
    left = dict(need)
    out: dict[str, list[str]] = {s: [] for s in need}
    for c in cards:
        open_seats = [s for s in allowed[c] if left[s] > 0]
        if not open_seats:
            return None
        s = rng.choices(open_seats, [left[x] for x in open_seats])[0]
        out[s].append(c)
        left[s] -= 1
    return out


def _forced_passes(env: Any, agent: Any, seat: int) -> None:
    """Step colver's forced passes until ``seat`` is to act.

    After a coinche, colver's auction goes on round the table and the
    coincher's partner gets a turn whose only legal action is a pass;
    trumps skips that seat (only the contract's side may surcoinche).  The
    auctions are otherwise the same, so the adapter plays the pass."""
    while env.phase() == 0 and env.current_player() != seat and list(env.legal_actions()) == [0]:
        if agent is not None:
            agent.observe(env, 0)
        env.step(0)


def colver_bot(game: str, agent: str) -> ColverBot:
    """The bot for ``colver:<agent>`` (coinche only)."""
    import trumps

    spec = trumps.game_spec(game)
    if "colver" not in spec.outside_engines:
        from trumps.core.registry import specs

        plays = [s.noun for s in specs() if "colver" in s.outside_engines]
        raise ColverError(f"colver plays {', '.join(plays) or 'no game here'}, not {spec.noun}")
    return ColverBot(agent)
