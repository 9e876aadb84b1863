"""The dominoes' words for the hints (:mod:`loo.hints`): the source's advice behind a choice, with its law."""

from __future__ import annotations

from loo.core.actions import Action
from loo.core.spec import Advice, fixed_words
from loo.core.tiles import NUMBER_PLURALS, Tile
from loo.games.dominoes.bots import _is_strong
from loo.games.dominoes.state import DominoView
from loo.games.dominoes.suits import follows

# The advice that does not depend on the position, by verb (and value).
WORDS = {
    "declare miss": "A weak hand is worth changing for the miss (DL-DECL-02).",
    "declare throw": "A weak hand is likely to be looed, and dropping out costs nothing (DL-DECL-05).",
    "for-pool": "Against a lone miss a weak dealer plays for the pool: he cannot be looed (DL-DLR-03).",
    "take-turnup": "The turn-up is a trump: taking it for your weakest tile makes a playing hand (DL-DLR-01).",
    "exchange": "From a dummy keep the five best tiles and discard the weakest (AMB-52).",
}


def reason(view: DominoView, choice: Action) -> str | None:
    trump = view.trump
    if choice.verb == "declare" and choice.value == "stand":
        if _is_strong(view.hand, trump):
            return (
                f"Two trumps, a high trump or a trump with a high double should take a trick: "
                f"play your tiles ({NUMBER_PLURALS[trump]} are trumps, DL-DECL-01)."
            )
        return "You may not drop out here, so you must play your tiles."
    if choice.verb == "play" and isinstance(choice.value, Tile):
        if not view.current:
            return "Lead the tile that the fewest unseen tiles can beat, calling its strongest suit (DL-LEAD-04)."
        return "Win as cheaply as you can, else play your weakest tile: nobody must beat the trick (DL-PLAY-04)."
    return fixed_words(WORDS, choice)


def followers(view: DominoView) -> int | None:
    if not view.current or view.hand is None or view.led is None:
        return None
    return sum(1 for t in view.hand if follows(t, view.led, view.trump))


ADVICE = Advice(reason=reason, followers=followers, follow_law=lambda view: "DL-PLAY-01")
