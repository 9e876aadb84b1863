"""Three-card Loo, five-card Loo (Pam) and Irish Loo, as the rest of the project sees them.

Their descriptor (:class:`~loo.core.spec.GameSpec`): one for the three, whose rules differ by options.
"""

from __future__ import annotations

import random

from loo.core.spec import Kit, card_game
from loo.games.loo.rules import PRESETS, Game, Rules


def kit() -> Kit:
    """Loo's parts: its hand, bots, game of many hands and random play's fast path (three-card Loo's)."""
    from loo.games.loo.bots import BOTS, make_bot
    from loo.games.loo.game import LooGame
    from loo.games.loo.hand import LooHand
    from loo.games.loo.simulate import play_random_hand

    def fast(rules: Rules, rng: random.Random, seats: int, dealer: int, pool: int) -> tuple[str, tuple[int, ...]]:
        r = play_random_hand(rules, rng, seats=seats, dealer=dealer, pool=pool)
        return r.reason, tuple(p - loo for p, loo in zip(r.payouts, r.loos, strict=True))

    return Kit(
        read_rules=Rules.from_record,
        deal=lambda rules, rng, seats, dealer, pool, names=None: LooHand.deal(
            rules, rng, seats=seats, dealer=dealer, pool=pool, names=names
        ),
        pool=lambda rules, seats: int(rules.deal_price),
        make_bot=make_bot,
        bot_names=tuple(sorted(BOTS)),
        fast=fast,
        fast_for=lambda rules: rules.game is Game.THREE_CARD,
        new_game=lambda rules, players, rng, first: LooGame(rules, players, rng, first_dealer=first),
        max_seats=lambda rules: rules.game.max_seats,
    )


SPEC = card_game("loo.games.loo", Rules, PRESETS, kit, record="Record", thumb="ThumbBot")
