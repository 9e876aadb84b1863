"""What the pool games' fast simulators (Loo's and the dominoes') say of one hand they played out.

Those simulators play a hand with integer pieces and no checks, many thousand times a second, for the
bots' estimates and the studies; each game's result adds its own fields (its steps, its deal) to these.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FastOutcome:
    """A simulated hand of a pool game: each seat's declaration ("" for none), tricks won, payout
    from the pool and loo paid; the pool the next hand starts with; and why the hand ended."""

    declared: tuple[str, ...]
    tricks_won: tuple[int, ...]
    payouts: tuple[int, ...]
    loos: tuple[int, ...]
    next_pool: int
    reason: str
