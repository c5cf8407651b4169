"""Cards and calls as German and French players write them, for the CLI.

The engine's notation (``QH``, ``7S``, ``3NT``, ``XX``, ``RJ:C``) is
language-neutral: records and the API keep it, and the CLI always accepts
it.  On screen, in German and French, a card's rank is written with the
players' letters and the suits keep their symbols:

======  ==========================  ============================
        German                      French
======  ==========================  ============================
ranks   A (Ass) K (König) D (Dame)  A (as) R (roi) D (dame)
        B (Bube) 10 9 ... 2          V (valet) 10 9 ... 2
jokers  RJ (roter) SJ (schwarzer)   JR (rouge) JN (noir)
bids    3SA (no trumps), 90TA       3SA, 90TA (tout atout)
======  ==========================  ============================

>>> card_label("QH", "de"), card_label("QH", "fr"), card_label("QH", "en"), card_label("TS", "fr")
('D♥', 'D♥', 'Q♥', '10♠')

Typed input (:func:`to_neutral`): **the neutral notation always wins** —
the CLI first hands the text to the engine; only when the engine cannot
read it is it read as a localized form, mapped to the neutral notation and
given to the engine again.  So ``KD`` is always the king of diamonds (never
"Karo-Dame"), ``AS`` the ace of spades.  The localized grammar
(case-insensitive, accents optional: ``coeur`` = ``cœur``, ``Koenig`` =
``König``)::

    input  := card | bid | call | card "+" "Belote" | joker [":" suit]
    card   := rank sep suit | suit sep rank             either order
    bid    := number sep denom | denom sep number
    rank   := 2..13 | A K Q J T | de: A K D B, Ass König Dame Bube
                                | fr: A R D V, as roi dame valet
    suit   := ♠ ♥ ♦ ♣ | de: Pik Herz Karo Kreuz (Treff)
                      | fr: pique cœur carreau trèfle (plurals too)
    denom  := suit | SA, Sans Atout, de: OT, Ohne Trumpf | TA, Tout Atout
    sep    := nothing, spaces or "-"; in French also "de" / "d'"
    call   := de: Passe, Kontra, Rekontra | fr: Passe, Contre, Surcontre
            | Coinche, Surcoinche | Misère | de: offene Misère | fr: misère ouverte
            | Capot sep denom | Générale sep denom
            | de: annehmen, ablehnen | fr: accepter, refuser   (a bridge claim)
    joker  := de: RJ, SJ, roter Joker, schwarzer Joker | fr: JR, JN, joker rouge, joker noir

Suit *letters* are never localized (German K could be Karo or Kreuz, French C
cœur or carreau, and ``KD`` would clash with the neutral king of diamonds):
a suit is its symbol or its word.

>>> to_neutral("D♥", "de"), to_neutral("Herz-Dame", "de"), to_neutral("dame de cœur", "fr")
('QH', 'QH', 'QH')
>>> to_neutral("Bube Pik", "de"), to_neutral("V♠", "fr"), to_neutral("as de trèfle", "fr")
('JS', 'JS', 'AC')
>>> to_neutral("7 Herz", "de"), to_neutral("3 sans atout", "fr"), to_neutral("80 Tout Atout", "de")
('7H', '3NT', '80AT')
>>> to_neutral("Kontra", "de"), to_neutral("Rekontra", "de"), to_neutral("surcontre", "fr")
('X', 'XX', 'XX')
>>> to_neutral("Passe", "fr"), to_neutral("offene Misère", "de"), to_neutral("Capot cœur", "fr")
('P', 'OMIS', 'CAPOT-H')
>>> to_neutral("roi de cœur + belote", "fr"), to_neutral("JR:trèfle", "fr"), to_neutral("SJ", "de")
('KH+BELOTE', 'RJ:C', 'BJ')
>>> to_neutral("DH", "de") is None, to_neutral("D♥", "en") is None, to_neutral("Dame", "de") is None
(True, True, True)
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "EXAMPLES",
    "LOCALIZED",
    "card_label",
    "contract_label",
    "denom_label",
    "joker_label",
    "rank_label",
    "to_neutral",
]

#: The languages with their own card letters and input words.
LOCALIZED = ("de", "fr")

_RANK_LETTERS = {
    "de": {"K": "K", "Q": "D", "J": "B", "A": "A"},
    "fr": {"K": "R", "Q": "D", "J": "V", "A": "A"},
}
_JOKERS = {"de": {"RJ": "RJ", "BJ": "SJ"}, "fr": {"RJ": "JR", "BJ": "JN"}}
_DENOMS = {"de": {"NT": "SA", "AT": "TA"}, "fr": {"NT": "SA", "AT": "TA"}}
_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

#: What the help of the interactive CLI shows as examples of the localized input.
EXAMPLES = {
    "de": "D♥, Dame Herz, Herz-Dame, 10 Pik, 7 Herz, 3 SA, Passe, Kontra, Rekontra",
    "fr": "D♥, dame de cœur, V♠, 10 pique, 7 cœur, 3 SA, passe, contre, surcontre",
}


def rank_label(code: str, lang: str) -> str:
    """A rank code as written on screen: ``T`` -> ``10``, ``Q`` -> ``D`` in German.

    >>> rank_label("T", "en"), rank_label("J", "de"), rank_label("K", "fr"), rank_label("13", "fr")
    ('10', 'B', 'R', '13')
    """
    if code == "T":
        return "10"
    return _RANK_LETTERS.get(lang, {}).get(code, code)


def joker_label(code: str, lang: str) -> str:
    """``RJ`` / ``BJ`` as written on screen (``SJ`` is the German black joker)."""
    return _JOKERS.get(lang, {}).get(code, code)


def denom_label(code: str, lang: str) -> str:
    """A bid's denomination: ``NT`` -> ``SA`` (sans atout), ``AT`` -> ``TA`` in German and French."""
    return _DENOMS.get(lang, {}).get(code, code)


def card_label(card: str, lang: str) -> str:
    """A card's notation as written on screen, plain (the CLI's render adds colours)."""
    if card in ("RJ", "BJ"):
        return joker_label(card, lang)
    m = re.fullmatch(r"(10|1[123]|[2-9TJQKA])([SHDC])", card)
    if not m:
        return card
    return rank_label(m.group(1), lang) + _SYMBOL[m.group(2)]


def contract_label(contract: str, lang: str) -> str:
    """A bridge or coinche contract as written on screen in German and French
    (``3NTX`` -> ``3SAX``, ``4S`` -> ``4♠``); the notation itself otherwise.

    >>> contract_label("3NTX", "de"), contract_label("4S", "fr"), contract_label("4S", "en")
    ('3SAX', '4♠', '4S')
    """
    if lang not in LOCALIZED:
        return contract
    m = re.fullmatch(r"(\d+)(S|H|D|C|NT|AT)(X{0,2})", contract)
    if not m:
        return contract
    level, denom, risk = m.groups()
    return level + (_SYMBOL.get(denom) or denom_label(denom, lang)) + risk


# ----- reading the localized forms ------------------------------------------------------
def _fold(text: str) -> str:
    """Lower case, accents and ligatures gone, one space between words: ``Cœur`` -> ``coeur``."""
    t = text.casefold().replace("œ", "oe").replace("æ", "ae").replace("’", "'").replace("ß", "ss")
    t = "".join(c for c in unicodedata.normalize("NFD", t) if not unicodedata.combining(c))
    return " ".join(t.split())


_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_SUIT_WORDS = {
    "de": {"pik": "S", "herz": "H", "karo": "D", "kreuz": "C", "treff": "C"},
    "fr": {
        "pique": "S", "piques": "S", "coeur": "H", "coeurs": "H",
        "carreau": "D", "carreaux": "D", "trefle": "C", "trefles": "C",
    },
}  # fmt: skip
_NT_WORDS = {"sa", "sans atout", "sans-atout", "sansatout"}
_NT_WORDS_DE = {"ot", "ohne trumpf", "ohne-trumpf", "ohnetrumpf"}
_AT_WORDS = {"ta", "tout atout", "tout-atout", "toutatout", "alles trumpf"}
_RANK_WORDS = {
    "de": {
        "a": "A", "k": "K", "d": "Q", "b": "J",
        "ass": "A", "as": "A", "koenig": "K", "konig": "K", "dame": "Q", "bube": "J", "zehn": "T",
    },
    "fr": {"a": "A", "r": "K", "d": "Q", "v": "J", "as": "A", "roi": "K", "dame": "Q", "valet": "J", "dix": "T"},
}  # fmt: skip
_NEUTRAL_RANKS = {"a": "A", "k": "K", "q": "Q", "j": "J", "t": "T"}
_CALLS = {
    "de": {
        "passe": "P", "kontra": "X", "rekontra": "XX", "re": "XX", "coinche": "X", "surcoinche": "XX",
        "misere": "MIS", "offene misere": "OMIS", "annehmen": "ACCEPT", "ablehnen": "REJECT",
    },
    "fr": {
        "passe": "P", "contre": "X", "surcontre": "XX", "coinche": "X", "surcoinche": "XX",
        "misere": "MIS", "misere ouverte": "OMIS", "accepter": "ACCEPT", "refuser": "REJECT",
    },
}  # fmt: skip
_JOKER_WORDS = {
    "de": {"rj": "RJ", "sj": "BJ", "roter joker": "RJ", "schwarzer joker": "BJ", "joker rot": "RJ",
           "joker schwarz": "BJ"},
    "fr": {"jr": "RJ", "jn": "BJ", "joker rouge": "RJ", "joker noir": "BJ"},
}  # fmt: skip


def _suit(token: str, lang: str) -> str | None:
    return _SUIT_SYMBOLS.get(token) or _SUIT_WORDS[lang].get(token)


def _denom(token: str, lang: str) -> str | None:
    """A bid's denomination: a suit, no trumps or all trumps."""
    if token in _NT_WORDS or (lang == "de" and token in _NT_WORDS_DE):
        return "NT"
    if token in _AT_WORDS:
        return "AT"
    return _suit(token, lang)


def _rank(token: str, lang: str) -> str | None:
    if token.isascii() and token.isdigit():
        return str(int(token)) if 2 <= int(token) <= 13 else None
    return _RANK_WORDS[lang].get(token) or _NEUTRAL_RANKS.get(token)


def _split(t: str, lang: str) -> list[tuple[str, str]]:
    """Every way to read ``t`` as two tokens: ``(first, second)`` with the
    separators (space, ``-``; French ``de``/``d'``) removed."""
    out = []
    for i in range(1, len(t)):
        a, b = t[:i].strip(" -"), t[i:].strip(" -")
        if lang == "fr":
            for joiner in (" de", " d'"):
                if a.endswith(joiner):
                    a = a[: -len(joiner)].strip(" -")
            if b.startswith("d'"):
                b = b[2:].strip()
        if a and b:
            out.append((a, b))
    return out


def _pair(t: str, lang: str) -> str | None:
    """A card (``QH``) or a bid (``7H``, ``3NT``): rank/number and suit/denomination in either order."""
    for a, b in _split(t, lang):
        for first, second in ((a, b), (b, a)):
            denom = _denom(second, lang)
            if denom is None:
                continue
            if first.isascii() and first.isdigit():
                return f"{int(first)}{denom}"  # a bid level or a card rank: the engine knows which
            rank = _rank(first, lang)
            if rank is not None and denom in _SYMBOL:
                return rank + denom
    return None


def to_neutral(text: str, lang: str) -> str | None:
    """The engine's notation of a localized card or call typed in ``lang``,
    or None when ``text`` is not one (see the module doc for the grammar).
    Use it only after the engine failed to read ``text`` itself."""
    if lang not in LOCALIZED:
        return None
    t = _fold(text)
    if not t:
        return None
    if t in _CALLS[lang]:
        return _CALLS[lang][t]
    if t in _JOKER_WORDS[lang]:
        return _JOKER_WORDS[lang][t]
    if "+" in t:  # coinche: a card announced with the belote
        head, _sep, tail = t.partition("+")
        card = to_neutral(head, lang) if tail.strip() == "belote" else None
        return f"{card}+BELOTE" if card and re.fullmatch(r"(?:[2-9TJQKA]|1[0-3])[SHDC]", card) else None
    if ":" in t:  # 500: a joker led in no trumps, with the suit it asks for
        head, _sep, tail = t.partition(":")
        joker = _JOKER_WORDS[lang].get(head.strip()) or head.strip().upper()
        suit = _suit(tail.strip(), lang) or (
            tail.strip().upper() if tail.strip() in ("s", "h", "d", "c") else None
        )
        return f"{joker}:{suit}" if joker in ("RJ", "BJ") and suit else None
    for word, kind in (("capot", "CAPOT"), ("generale", "GENERALE")):
        if t.startswith(word):
            denom = _denom(t[len(word) :].strip(" -"), lang)
            return f"{kind}-{denom}" if denom else None
    return _pair(t, lang)
