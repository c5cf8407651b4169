"""Contract bridge: the auction and play, rubber, Chicago and duplicate
scoring (matchpoints, IMPs, cross-IMPs), PBN and LIN files, and a
double-dummy adapter (``bridge.md``).

Public API:

* ``trumps.new_game("bridge", options={"scoring": "duplicate", "board": 5})``
  (also ``"rubber"``, ``"chicago"``; ``claims``: ``off``/``consent``/``verify``);
* :func:`score` (duplicate score of a contract result), :func:`imps`,
  :func:`board_dealer`, :func:`board_vulnerability`;
* :class:`RubberSheet`, :class:`ChicagoSheet`, :func:`score_rubber`;
* :func:`matchpoints`, :func:`cross_imps`, :func:`butler_imps`,
  :func:`team_imps`, :func:`session_summary`;
* :func:`read_pbn`, :func:`write_pbn`, :func:`read_lin`, :func:`write_lin`;
* :mod:`trumps.bridge.dd` (``dd_table``, ``par``, ``lead_analysis``: DDS
  through ``endplay`` where the ``dds`` extra is installed, imported only when
  called; else trumps' own solver and :mod:`trumps.bridge.par`).

>>> import trumps.bridge as b
>>> b.score("3NTX", vulnerable=False, tricks=9), b.imps(750)
(550, 13)
"""

from trumps.bridge.calls import DOUBLE, PASS, REDOUBLE, Call, Contract, bid_index
from trumps.bridge.duplicate import (
    BoardResult,
    butler_imps,
    cross_imps,
    matchpoints,
    neuberg,
    session_summary,
    team_imps,
)
from trumps.bridge.game import Bridge
from trumps.bridge.lin import read_lin, write_lin
from trumps.bridge.options import SCHEMA
from trumps.bridge.pbn import PbnError, PbnRecord, read_pbn, read_pbn_file, write_pbn
from trumps.bridge.rubber import ChicagoSheet, RubberSheet, back_score_units, score_rubber
from trumps.bridge.scoring import board_dealer, board_vulnerability, deal_score, honors, imps, score

__all__ = [
    "DOUBLE",
    "PASS",
    "REDOUBLE",
    "SCHEMA",
    "BoardResult",
    "Bridge",
    "Call",
    "ChicagoSheet",
    "Contract",
    "PbnError",
    "PbnRecord",
    "RubberSheet",
    "back_score_units",
    "bid_index",
    "board_dealer",
    "board_vulnerability",
    "butler_imps",
    "cross_imps",
    "deal_score",
    "honors",
    "imps",
    "matchpoints",
    "neuberg",
    "read_lin",
    "read_pbn",
    "read_pbn_file",
    "score",
    "score_rubber",
    "session_summary",
    "team_imps",
    "write_lin",
    "write_pbn",
]
