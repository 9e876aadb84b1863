"""How a hand ended: every settlement's ``reason``, one enumeration for all the games.

A :class:`Reason` is a string enumeration, so a record writes it, and a reader compares it, as the
plain words it always was (``"played"``); code names it by member and a type checker knows the
set.

>>> Reason.PLAYED == "played", f"{Reason.DEALER_UNCONTESTED}"
(True, 'dealer-uncontested')
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Reason"]


class Reason(StrEnum):
    """Why a hand was settled as it was."""

    PLAYED = "played"  # the tricks were played (or, at Nap, until the call was decided)
    DEALER_UNCONTESTED = "dealer-uncontested"  # everyone before the dealer threw (L3-DLR-01, DL-DLR-02, DR-07)
    CONCEDED = "conceded"  # one player stood and the rest gave him the pool (L3-DLR-04/05, AMB-49)
    SINGLE = "single"  # Peel's single: the pool goes by the deal, no card played (L3-SGL)
    FLUSH = "flush"  # five-card Loo: a flush shown takes the pool (L5-FL)
    REDEAL = "redeal"  # Nap: no call, or a wrong count found early (AMB-36, NAP-WRG-05)
    CALLER_REVOKE = "caller-revoke"  # Nap: the caller revoked and loses the call at once (NAP-REV-06)
    MISDEAL = "misdeal"  # Nap: a misdeal claimed before the hands were looked at (NAP-MISD-01/02)
