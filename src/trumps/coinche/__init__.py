"""Belote Coinche (belote contrée): the seed game and the federation
variants of ``coinche.md``, every preset exact to the card and the point."""

from trumps.coinche.calls import COINCHE, PASS, SURCOINCHE, Call, Contract
from trumps.coinche.deal import BelotePlay, CoincheDeal
from trumps.coinche.game import Coinche
from trumps.coinche.melds import Declaration, Meld
from trumps.coinche.options import PRESETS, SCHEMA, resolve_options
from trumps.coinche.play import TrickRules, rules_for
from trumps.coinche.scoring import DealScore, game_end, score, score_deal

__all__ = [
    "COINCHE",
    "PASS",
    "PRESETS",
    "SCHEMA",
    "SURCOINCHE",
    "BelotePlay",
    "Call",
    "Coinche",
    "CoincheDeal",
    "Contract",
    "DealScore",
    "Declaration",
    "Meld",
    "TrickRules",
    "game_end",
    "resolve_options",
    "rules_for",
    "score",
    "score_deal",
]
