"""Deal rewards per team: the deal score, tricks, card points, IMPs vs par."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trumps.core.protocol import Deal, Match

__all__ = ["REWARDS", "checked_probe", "deal_rewards"]

REWARDS = ("score", "tricks", "card_points", "imps")


def _team_tricks(
    game: str, result: Mapping[str, object], teams: Sequence[Sequence[int]], seat_names: Sequence[str]
) -> list[float]:
    tricks = result.get("tricks")
    if isinstance(tricks, list):
        return [float(t) for t in tricks]
    out = [0.0] * len(teams)
    declarer = result.get("declarer")
    if declarer is None or not isinstance(tricks, int):
        return out
    d = list(seat_names).index(str(declarer))
    for i, t in enumerate(teams):
        out[i] = float(tricks) if d in t else float(13 - int(tricks))
    return out


def checked_probe(
    game: str, preset: str | None, options: Mapping[str, object], reward: str, episode: str
) -> Match[Deal]:
    """A game of the environment's settings (seed 0, read for its shape),
    once ``reward`` and ``episode`` are checked: what every environment's
    constructor starts with.  Raises ``ValueError`` for a setting not offered."""
    import trumps

    if reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r} (one of {', '.join(REWARDS)})")
    if episode not in ("deal", "game"):
        raise ValueError("episode is 'deal' or 'game'")
    probe = trumps.new_game(game, preset=preset, options=options, seed=0)
    offered = trumps.game_spec(probe.game).reward_scales
    if reward != "score" and reward not in offered:
        raise ValueError(f"reward {reward!r} is not offered by {probe.game} (it offers {', '.join(offered)})")
    return probe


def _offered(game: str) -> tuple[str, ...]:
    """The rewards ``game`` offers (its spec's ``reward_scales``)."""
    import trumps

    return tuple(trumps.game_spec(game).reward_scales)


def deal_rewards(
    game: str,
    kind: str,
    result: Mapping[str, object],
    teams: Sequence[Sequence[int]],
    seat_names: Sequence[str],
    par_ns: int | None = None,
) -> list[float]:
    """One value per team for a finished deal's result record."""
    if kind == "score":
        return _floats(result["points"])
    if kind == "tricks":
        return _team_tricks(game, result, teams, seat_names)
    if kind in REWARDS and kind not in _offered(game):
        raise ValueError(f"reward {kind!r} is not offered by {game} (it offers {', '.join(_offered(game))})")
    if kind == "card_points":
        return _floats(result["card_points"])
    if kind == "imps":
        if par_ns is None:
            raise ValueError("reward 'imps' is measured against the double-dummy par (par_ns)")
        from trumps.bridge.scoring import imps

        pts = [int(p) for p in _floats(result["points"])]
        return [float(imps(pts[0] - par_ns)), float(imps(pts[1] + par_ns))]
    raise ValueError(f"unknown reward {kind!r} (one of {', '.join(REWARDS)})")


def _floats(values: object) -> list[float]:
    """A result's per-team numbers (a list of numbers in the record)."""
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"a deal result's per-team values are a list, not {values!r}")
    return [float(v) for v in values]


def bridge_par(m: Match[Deal]) -> int:
    """North-South's double-dummy par score of the current bridge deal."""
    from trumps.bridge.dd import par
    from trumps.bridge.deal import BridgeDeal

    d = m.deal
    if not isinstance(d, BridgeDeal):
        raise TypeError(f"the par score is a bridge deal's, not {m.game}'s")
    vul = d.vulnerable
    text = {(False, False): "None", (True, False): "NS", (False, True): "EW", (True, True): "Both"}[
        (bool(vul[0]), bool(vul[1]))
    ]
    return int(par([list(h) for h in d.hands], vulnerable=text, dealer=m.dealer).score)
