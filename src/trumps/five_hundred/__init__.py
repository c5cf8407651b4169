"""500 (Five Hundred): American and Australian, four and six players, every
house rule of ``five_hundred.md``."""

from trumps.five_hundred.calls import BREACH, MIS, OMIS, PASS, Call, bid_value, rank_key
from trumps.five_hundred.game import FiveHundred
from trumps.five_hundred.options import AMERICAN, AUSTRALIAN, SCHEMA, resolve_options
from trumps.five_hundred.play import JokerLead, TrickRules
from trumps.five_hundred.scoring import contract_points, contract_value, score

__all__ = [
    "AMERICAN",
    "AUSTRALIAN",
    "BREACH",
    "MIS",
    "OMIS",
    "PASS",
    "SCHEMA",
    "Call",
    "FiveHundred",
    "JokerLead",
    "TrickRules",
    "bid_value",
    "contract_points",
    "contract_value",
    "rank_key",
    "resolve_options",
    "score",
]
