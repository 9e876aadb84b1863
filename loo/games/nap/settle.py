"""How a hand of Nap pays: :class:`NapSettlement`, and :func:`settle_stakes`, the one reckoning of
stakes and pool that the checked hand and the fast simulator both call (NAP-SET-01..05,
NAP-WEL-01/03, NAP-MIS-05, NAP-POOL-05..07; at a teaching table NAP-REV-04..06 and NAP-WRG-02..04).

>>> from loo.games.nap.rules import NapRules
>>> settle_stakes(NapRules(), seats=3, caller=0, call="2", made=True, pool=0, pool_paid=[0, 0, 0])
([4, -2, -2], [0, 0, 0], [0, 0, 0], 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from loo.core.hand import Trick
from loo.core.reasons import Reason
from loo.games.nap.rules import NapRules


@dataclass(frozen=True)
class NapSettlement:
    """How a finished Nap hand pays: a value, like python-chess's ``Outcome``.

    ``stakes`` are chips paid between players (they add up to zero); ``pool_paid`` chips each
    seat paid into the pool during the hand (peeps, purchases, knaves and fives, a failed Nap's
    doubling); ``pool_taken`` what a successful Nap took out of it. :meth:`net` is each seat's
    gain, the ``settlement`` list of a record. ``next_pool`` is the pool the next hand starts with,
    before the next deal's feeds.
    """

    reason: Reason
    caller: int | None
    call: str | None
    made: bool | None
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    stakes: tuple[int, ...]
    pool_paid: tuple[int, ...]
    pool_taken: tuple[int, ...]
    next_pool: int
    kitty: bool
    offender: int | None = None
    wrong_count: tuple[int, ...] = ()

    def net(self) -> tuple[int, ...]:
        """Each seat's gain this hand: stakes received less paid, less what it put into the pool, plus what it took."""
        return tuple(s - p + t for s, p, t in zip(self.stakes, self.pool_paid, self.pool_taken, strict=True))

    @property
    def settlement(self) -> tuple[int, ...]:
        return self.net()

    def to_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "reason": self.reason,
            "caller": self.caller,
            "call": self.call,
            "made": self.made,
            "tricks": [t.to_record() for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "settlement": list(self.net()),
        }
        if self.kitty:
            out["next_pool"] = self.next_pool
        return out


def settle_stakes(
    rules: NapRules,
    *,
    seats: int,
    caller: int,
    call: str,
    made: bool,
    pool: int,
    pool_paid: Sequence[int],
    caller_revoked: bool = False,
    offender: int | None = None,
    wrong_count: Sequence[int] = (),
) -> tuple[list[int], list[int], list[int], int]:
    """The money of a hand whose ``call`` by ``caller`` was ``made`` or not: (stakes paid between the
    players, what each seat paid into the pool, what each took out of it, the pool left).

    ``pool`` is what the pool held as the hand was dealt and ``pool_paid`` what each seat put in
    during it. At a teaching table, a caller who revoked loses his call (``caller_revoked``,
    NAP-REV-06); an opponent who revoked (``offender``) pays for everyone (NAP-REV-04/05, AMB-44);
    seats found with the wrong number of cards (``wrong_count``) change who pays (NAP-WRG-02/03).
    """
    win, lose = rules.call_values(call)
    stakes = [0] * seats
    paid = list(pool_paid)
    taken = [0] * seats
    opponents = [p for p in range(seats) if p != caller]
    if caller_revoked:
        receives, pays = False, True
    elif offender is not None:
        receives, pays = made, False  # NAP-REV-04/05: the offender pays for everyone; the caller pays nothing
    elif wrong_count:
        if caller in wrong_count:
            receives, pays = False, not made  # NAP-WRG-03
        else:
            receives, pays = made, False  # NAP-WRG-02
    else:
        receives, pays = made, not made  # NAP-SET-02/03
    if offender is not None and not caller_revoked:
        if made:
            stakes[offender] -= win * len(opponents)  # NAP-REV-04, AMB-44
            stakes[caller] += win * len(opponents)
        else:
            for p in opponents:
                if p != offender:
                    stakes[p] += lose  # NAP-REV-05, AMB-44
                    stakes[offender] -= lose
    else:
        for p in opponents:
            if receives:
                stakes[p] -= win
                stakes[caller] += win
            elif pays:
                stakes[p] += lose
                stakes[caller] -= lose
    in_pool = pool + sum(paid)
    if rules.kitty and call in ("nap", "wellington"):
        if receives:
            taken[caller] = in_pool  # NAP-POOL-05, NAP-WEL-03
        elif pays and rules.failed_nap_doubles_pool:
            paid[caller] += in_pool  # NAP-POOL-07 (NAP-POOL-06 without the option)
    return stakes, paid, taken, pool + sum(paid) - sum(taken)
