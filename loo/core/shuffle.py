"""The engine's shuffle: the pack of 52 in the order a seeded generator gives it.

Randomness is always injected: pass a ``random.Random``, never rely on the global generator, so
every example, test and classroom deal can be repeated exactly. The Loo games deal from this
(:mod:`loo.games.loo.dealing`); Nap and the domino games shuffle their own pack or set.
"""

from __future__ import annotations

import random

from loo.core.cards import CARDS, Card

# The steps of the shuffle, from the last place: (place, places to draw from, bits to draw).
_STEPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(51, 0, -1))


def shuffled_pack(rng: random.Random) -> list[Card]:
    """The 52 cards shuffled by ``rng`` (L3-DEAL-07: shuffled before every deal).

    The very permutation ``rng.shuffle`` makes of the unshuffled pack, so that a seed always gives
    the same deal; for a plain ``random.Random`` its steps are written out here (a draw of
    ``getrandbits`` for each place, from the last, redrawn while out of range), which saves a
    call per card; any other generator is asked to shuffle.
    """
    pack = list(CARDS)
    if type(rng) is not random.Random:
        rng.shuffle(pack)
        return pack
    getrandbits = rng.getrandbits
    for i, n, k in _STEPS:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        pack[i], pack[j] = pack[j], pack[i]
    return pack
