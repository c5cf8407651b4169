"""Reinforcement-learning environments for the trumps games (optional extras).

``trumps.envs.env("coinche", preset="ffb_2016")`` is a PettingZoo AEC
environment (``pip install trumps[rl]``); :func:`trumps.envs.openspiel_game.register`
registers the games with OpenSpiel (``pip install trumps[openspiel]``);
:class:`trumps.envs.vector.VectorEnv` steps N games in one call, observations
as one numpy array, for training loops.
The core package never imports numpy, PettingZoo or OpenSpiel.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TypedDict, Unpack

if TYPE_CHECKING:
    from trumps.envs.pettingzoo_env import OrderEnforcing, TrumpsAECEnv

__all__ = ["EnvOptions", "env", "raw_env"]

_HINT = "trumps.envs needs the 'rl' extra: pip install trumps[rl] (pettingzoo, gymnasium, numpy)"


class EnvOptions(TypedDict, total=False):
    """The keyword arguments of :class:`~trumps.envs.pettingzoo_env.TrumpsAECEnv`."""

    reward: str
    episode: str
    render_mode: str | None
    check_observations: bool


def _require() -> None:
    try:
        import gymnasium  # noqa: F401
        import numpy  # noqa: F401
        import pettingzoo  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise ImportError(f"{_HINT} ({exc})") from exc


def raw_env(
    game: str,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    **kw: Unpack[EnvOptions],
) -> TrumpsAECEnv:
    """The bare AEC environment (keyword arguments: ``reward``, ``episode``,
    ``render_mode``)."""
    _require()
    from trumps.envs.pettingzoo_env import TrumpsAECEnv

    return TrumpsAECEnv(game, preset, options, **kw)


def env(
    game: str,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    **kw: Unpack[EnvOptions],
) -> OrderEnforcing:
    """The AEC environment wrapped in PettingZoo's order-enforcing wrapper
    (a subclass of it whose ``last()`` costs one call, not seven)."""
    e = raw_env(game, preset, options, **kw)
    from trumps.envs.pettingzoo_env import OrderEnforcing

    return OrderEnforcing(e)
