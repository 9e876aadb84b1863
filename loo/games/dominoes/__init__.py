"""Domino Loo and Domino Rounce (catalogue group F): the whole API, importable from here.

The package is split by what each part owns: the rules in force (:mod:`.rules`), the
declarations (:mod:`.declare`), the suits and the duties of play (:mod:`.suits`), the values of a
hand and a seat's view (:mod:`.state`), the settlement (:mod:`.settle`), what is allowed and why
(:mod:`.explain`), a hand in progress (:mod:`.hand`), records (:mod:`.record`), games of many
hands (:mod:`.game`), the computer players (:mod:`.bots`) and the fast simulator (:mod:`.fast`).

Records are ``loo-record/1`` (docs/records.md) with ``game`` ``domino-loo`` or ``domino-rounce``
and a deal of ``hands`` (five tiles a seat), the ``turnup`` and the ``stock`` (the boneyard, top
first, from which misses are drawn and Rounce's dummies laid out), or ``{"seed": N}``.

>>> from loo.games.dominoes import DominoRecord
>>> rec = DominoRecord.from_json({"format": "loo-record/1", "game": "domino-loo",
...     "seats": ["Ann", "Ben", "Cat", "Dan"], "dealer": 3, "pool": 25, "deal": {"seed": 7}, "actions": []})
>>> hand = rec.start()
>>> hand.to_act, str(hand.turnup), hand.trump
(0, '2-0', 2)
>>> DominoRecord.from_json(rec.to_json()) == rec
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from loo.games.dominoes.bots import BOTS, DominoSamplingBot, DominoThumbBot, determinize
    from loo.games.dominoes.fast import FastDominoResult, play_random_domino_hand
    from loo.games.dominoes.game import DominoGame, DominoHandResult
    from loo.games.dominoes.hand import DominoHand, deal_tiles
    from loo.games.dominoes.record import RECORD_TYPE, DominoRecord
    from loo.games.dominoes.rules import (
        PRESETS,
        DominoFirstDealMode,
        DominoLoneOpponentRule,
        DominoRules,
        DominoScoring,
        Variant,
    )
    from loo.games.dominoes.settle import DominoSettlement, DominoTrick
    from loo.games.dominoes.state import DominoAction, DominoView, dummy_sizes
    from loo.games.dominoes.suits import follows, led_suit, power, rank_in

# Each name's module here. They are imported on first use, so that reading a domino rule (as
# loo.options does) does not load the hand, the bots and the simulator with it.
_HOMES = {
    "BOTS": "bots",
    "DominoSamplingBot": "bots",
    "DominoThumbBot": "bots",
    "determinize": "bots",
    "FastDominoResult": "fast",
    "play_random_domino_hand": "fast",
    "DominoGame": "game",
    "DominoHandResult": "game",
    "DominoHand": "hand",
    "deal_tiles": "hand",
    "DominoRecord": "record",
    "RECORD_TYPE": "record",
    "DominoFirstDealMode": "rules",
    "DominoLoneOpponentRule": "rules",
    "DominoRules": "rules",
    "DominoScoring": "rules",
    "PRESETS": "rules",
    "Variant": "rules",
    "DominoSettlement": "settle",
    "DominoTrick": "settle",
    "DominoAction": "state",
    "DominoView": "state",
    "dummy_sizes": "state",
    "follows": "suits",
    "led_suit": "suits",
    "power": "suits",
    "rank_in": "suits",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


__all__ = [
    "BOTS",
    "PRESETS",
    "RECORD_TYPE",
    "DominoAction",
    "DominoFirstDealMode",
    "DominoGame",
    "DominoHand",
    "DominoHandResult",
    "DominoLoneOpponentRule",
    "DominoRecord",
    "DominoRules",
    "DominoSamplingBot",
    "DominoScoring",
    "DominoSettlement",
    "DominoThumbBot",
    "DominoTrick",
    "DominoView",
    "FastDominoResult",
    "Variant",
    "deal_tiles",
    "determinize",
    "dummy_sizes",
    "follows",
    "led_suit",
    "play_random_domino_hand",
    "power",
    "rank_in",
]
