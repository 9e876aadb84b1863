"""Napoleon (Nap), as the rest of the project sees it (:class:`~loo.core.spec.GameSpec`)."""

from __future__ import annotations

import random

from loo.core.actions import Action
from loo.core.spec import Kit, card_game
from loo.games.nap.rules import PRESETS, KittyMode, NapRules

# The actions only some of Nap's rules play, and the option of NapRules that plays each.
OPTIONAL_VERBS = {"peep": "peep", "garnet": "sir_garnet", "purchase": "purchase"}
OPTIONAL_CALLS = {"misery": "misery", "wellington": "wellington"}


def kit() -> Kit:
    """Nap's parts: its hand, bots, game of many hands and random play's fast path."""
    from loo.games.nap.bots import BOTS, make_bot
    from loo.games.nap.fast import play_random_nap
    from loo.games.nap.game import NapGame
    from loo.games.nap.hand import NapHand

    def pool(rules: NapRules, seats: int) -> int:  # one deal's feeds (NAP-POOL-02/03, AMB-40)
        if rules.kitty_mode is KittyMode.DEALER:
            return int(rules.unit)
        if rules.kitty_mode is KittyMode.DEALER_AND_PLAYERS:
            return int(rules.unit) * (seats + 2)
        return 0

    def fast(rules: NapRules, rng: random.Random, seats: int, dealer: int, p: int) -> tuple[str, tuple[int, ...]]:
        r = play_random_nap(rules, rng, seats=seats, dealer=dealer, pool=p)
        return r.reason, r.settlement

    return Kit(
        read_rules=NapRules.from_record,
        deal=lambda rules, rng, seats, dealer, p, names=None: NapHand.deal(
            rules, rng, seats=seats, dealer=dealer, pool=p, names=names
        ),
        pool=pool,
        make_bot=make_bot,
        bot_names=tuple(sorted(BOTS)),
        fast=fast,
        fast_for=lambda rules: not (rules.peep or rules.sir_garnet or rules.purchase),
        new_game=lambda rules, players, rng, first: NapGame(rules, players, rng, first_dealer=first),
        max_seats=lambda rules: rules.max_seats(),
    )


def offered(rules: NapRules, action: Action) -> bool:
    """Misery, Wellington, the peep, Sir Garnet and purchase only where ``rules`` play them."""
    option = OPTIONAL_VERBS.get(str(action.verb)) or (
        OPTIONAL_CALLS.get(str(action.value)) if action.verb == "call" else None
    )
    return option is None or bool(getattr(rules, option))


SPEC = card_game("loo.games.nap", NapRules, PRESETS, kit, record="NapRecord", thumb="NapThumbBot", offered=offered)
