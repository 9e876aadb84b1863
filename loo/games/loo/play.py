"""Loo's laws of the declarations, the lead and the follow, and the power that wins a trick, written once.

Cards here are their :attr:`~loo.core.cards.Card.index` (``suit * 13 + rank - 2``: the two of clubs is 0,
the ace of spades 51), so that :class:`loo.games.loo.hand.LooHand` (which maps its cards to indices and back)
and the random-play driver of :mod:`loo.games.loo.simulate` ask the very same functions what is
allowed. ``pam`` is Pam's index at five-card Loo and -1 where there is no Pam. Each function returns
the choices together with the law (or :class:`~loo.core.tricks.Duty`) that narrowed them, which is
what the engine's explanations of a refusal are written from.

>>> from loo.games.loo.rules import Rules
>>> peel = Rules.preset("peel")
>>> lead_choices([3, 12, 30], 0, 0, -1, peel, 40)   # holding the ace of trumps (clubs): lead it
([12], 'L3-LEAD-03')
>>> follow_choices([15, 20, 30], 19, 108, 0, -1, False, True, peel.void_rule)  # 8D led: head it with 9D
([20], <Duty.HEAD: 'head'>)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import combinations
from typing import NamedTuple, TypeVar

from loo.core.tricks import Duty, FirstLeadRule, VoidRule, WinnerLeadsTrump, follower_choices
from loo.games.loo.rules import ClubLawMiss, LooMode, MissPosition, Rules

__all__ = [
    "ACE",
    "KING",
    "PLAYING",
    "STANDING",
    "PlayedOut",
    "conceded",
    "deal_rounds",
    "dealer_uncontested",
    "declaration_options",
    "exchange_choices",
    "first_leader",
    "follow_choices",
    "lead_choices",
    "loo_amount",
    "may_miss_when_all_play",
    "next_in_trick",
    "players_of",
    "power",
    "rotation",
    "settle_tricks",
    "suit_of",
    "top_trump",
    "trick_order",
    "uncontested_payouts",
]

P = TypeVar("P")

STANDING = frozenset(("stand", "miss"))  # declarations that play on one's own hand or the miss's
PLAYING = frozenset(("stand", "miss", "for-pool"))  # and the dealer's play of the miss for the pool

ACE = 12  # the ace's rank within a suit (index % 13)
KING = 11

_IN_SUIT = tuple(frozenset(range(13 * suit, 13 * suit + 13)).__contains__ for suit in range(4))  # index in suit?
_HIGHEST, _ANY_TRUMP = FirstLeadRule.HIGHEST, FirstLeadRule.ANY_TRUMP  # looked up once: a hot path
_LEAD_TRUMP_OFF, _LEAD_HIGHER, _LEAD_ANY = WinnerLeadsTrump.OFF, WinnerLeadsTrump.HIGHER, WinnerLeadsTrump.ANY
_STAND = ("stand",)
_STAND_MISS = ("stand", "miss")
_STAND_THROW = ("stand", "throw")
_STAND_MISS_THROW = ("stand", "miss", "throw")
_STAND_MISS_FOR_POOL = ("stand", "miss", "for-pool")


def suit_of(card: int, trump: int, pam: int) -> int:
    """The suit a card counts as: Pam is a trump for all purposes (AMB-25)."""
    return trump if card == pam else card // 13


def power(card: int, led: int, trump: int, pam: int) -> int:
    """A number such that the higher card wins the trick (L3-TRK-01, L5-RANK-01..04, L5-PLAY-04):
    Pam 300, a trump 200 and its rank, a card of the suit led 100 and its rank, a discard 0."""
    if card == pam:
        return 300
    suit = card // 13
    if suit == trump:
        return 202 + card % 13
    if suit == led:
        return 102 + card % 13
    return 0


def top_trump(trumps: Sequence[int], pam: int) -> int:
    """The highest of some trumps: Pam, else the highest rank."""
    return pam if pam in trumps else max(trumps)


def declaration_options(
    all_must_play: bool,
    miss_free: bool,
    may_miss_anyway: bool,
    last: bool,
    lone_peel: bool,
    miss_taken: bool,
) -> tuple[str, ...]:
    """What a player may declare, in a stable order: ``stand``, ``miss``, ``throw`` and the dealer's ``for-pool``.

    ``all_must_play``: Club Law, a Bold Stand, Must, the last round or a single (everyone plays);
    ``may_miss_anyway``: such a hand's miss is open to this player all the same (CF-13, L3-BOLD-02);
    ``miss_free``: the miss is in play and untaken; ``last``: the player is the (acting) dealer;
    ``lone_peel``: one other player stands and Peel's dealer rule holds (L3-DLR-02..04).
    """
    if all_must_play:
        return _STAND_MISS if miss_free and may_miss_anyway else _STAND
    if last and lone_peel:
        if not miss_taken:
            # L3-DLR-02/03: stand, take the miss, or play it for the pool; no concession
            return _STAND_MISS_FOR_POOL if miss_free else _STAND
        return _STAND_THROW  # L3-DLR-04: throwing up concedes the pool to the miss's holder
    return _STAND_MISS_THROW if miss_free else _STAND_THROW


def may_miss_when_all_play(rules: Rules, *, club_law: bool, bold_stand: bool, eldest: bool) -> bool:
    """Whether a hand everyone must play still offers this player the miss (CF-13, L3-BOLD-02)."""
    return (club_law and rules.club_law_miss is ClubLawMiss.AVAILABLE and not bold_stand) or (bold_stand and eldest)


def lead_choices(
    hand: list[int], trick_no: int, trump: int, pam: int, rules: Rules, turnup: int
) -> tuple[list[int], str | None]:
    """The cards a leader may lead, in hand order, and the law that narrowed them (None: a free lead,
    L3-LEAD-08): L3-LEAD-03..06 on the first trick, L3-LEAD-10 on the second."""
    if trick_no > 1 or not rules.three_card_leads:
        return hand, None
    trumps = [c for c in hand if c // 13 == trump or c == pam]
    if trick_no == 0:
        ace = trump * 13 + ACE
        if ace in hand:
            # L3-LEAD-03 comes first and is complete in itself (AMB-11): even where Pam outranks the
            # ace (five-card Loo under three-card lead rules), the ace is the card to lead.
            return [ace], "L3-LEAD-03"
        if rules.king_rule_when_ace_turned and turnup == ace and ace - 1 in hand:
            return [ace - 1], "L3-LEAD-04"
        if len(trumps) >= 2:
            if rules.first_lead_rule is _HIGHEST:
                return [top_trump(trumps, pam)], "L3-LEAD-05"
            if rules.first_lead_rule is _ANY_TRUMP:
                return trumps, "L3-LEAD-06"
        return hand, None
    rule = rules.winner_must_lead_trump
    if trumps and rule is not _LEAD_TRUMP_OFF:
        if rule is _LEAD_HIGHER:
            return [top_trump(trumps, pam)], "L3-LEAD-10"
        if rule is _LEAD_ANY:
            return trumps, "L3-LEAD-10"
    return hand, None


def follow_choices(
    hand: list[int],
    led_card: int,
    best: int,
    trump: int,
    pam: int,
    civil: bool,
    must_head: bool,
    void_rule: VoidRule,
) -> tuple[list[int], Duty]:
    """The cards a follower may play, in hand order, and the duty that chose them
    (:func:`loo.core.tricks.follower_choices` with Loo's suits and powers).

    ``led_card`` is the card led, ``best`` the power of the card winning the trick now, and
    ``civil`` says that Pam must be civil to the ace of trumps led (L5-RANK-05, CF-22, AMB-26):
    then Pam may not be played unless it is the last card held.
    """
    if len(hand) == 1:
        return hand, Duty.FREE  # a last card is always played, even Pam to a led ace (AMB-26)
    led = trump if led_card == pam else led_card // 13
    if civil and pam in hand:
        hand = [c for c in hand if c != pam]
    if pam < 0:  # no Pam: a card's suit is its own, and membership of a suit is a set's
        return follower_choices(
            hand,
            _IN_SUIT[led],
            _IN_SUIT[trump],
            lambda c: (202 + c % 13 if c // 13 == trump else 102 + c % 13 if c // 13 == led else 0) > best,
            must_head,
            void_rule,
        )
    return follower_choices(
        hand,
        lambda c: (trump if c == pam else c // 13) == led,
        lambda c: c == pam or c // 13 == trump,
        lambda c: power(c, led, trump, pam) > best,
        must_head,
        void_rule,
    )


def loo_amount(rules: Rules, pool: int, *, single: bool) -> int:
    """What a looed player pays (L3-LOO-02, UL-03/04, AMB-34; L3-SGL-06 in a single)."""
    if rules.loo_mode is LooMode.UNLIMITED:
        return pool
    if rules.loo_mode is LooMode.CAPPED:
        return min(pool, rules.loo_cap)
    return rules.single_loo if single else rules.loo_amount


def deal_rounds(
    pack: Sequence[P], top: int, order: Sequence[int], seats: int, size: int, with_miss: bool, position: MissPosition
) -> tuple[list[list[P] | None], list[P], int]:
    """Deal ``size`` rounds of one card each from ``pack[top:]`` to the seats of ``order`` (the eldest
    first, L3-DEAL-08, L5-GEN-01), with a card to the miss each round where the rules put it
    (L3-DEAL-10, CF-16). Returns each seat's hand (None for a seat not dealt in), the miss, and the
    position of the next card in the pack."""
    # One round of the deal, as the places its cards go to: the seats in order, and the miss (-1)
    # where the rules put it. Round after round repeats it, so each place's cards lie at one stride.
    places = list(order)
    if with_miss:
        if position is MissPosition.FIRST:
            places.insert(0, -1)
        elif position is MissPosition.BEFORE_DEALER:
            places.insert(len(places) - 1, -1)
        else:
            places.append(-1)
    stride = len(places)
    hands: list[list[P] | None] = [None] * seats
    miss: list[P] = []
    for offset, place in enumerate(places):
        cards = list(pack[top + offset : top + stride * size : stride])
        if place < 0:
            miss = cards
        else:
            hands[place] = cards
    return hands, miss, top + stride * size


def exchange_choices(hand: Sequence[P], room: int) -> list[tuple[P, ...]]:
    """What a stander may exchange (IRL-05, L5-DECL-02, AMB-28): any of his cards, none up to
    ``room`` of them (what the stock can replace), fewest first, each set in hand order."""
    out: list[tuple[P, ...]] = []
    for size in range(room + 1):
        out.extend(combinations(hand, size))
    return out


# ----- the order of turns ---------------------------------------------------------------------


def rotation(dealer: int, seats: int, dealt: Sequence[object | None]) -> tuple[int, ...]:
    """The seats dealt in (``dealt[seat]`` not None), clockwise from the dealer's left with the
    dealer (or the last seat dealt in, AMB-20) last: the order of the deal, the declarations and
    the exchanges (L3-DEAL-08, L3-DECL-01, AMB-28)."""
    return tuple([p for p in [(dealer + i) % seats for i in range(1, seats + 1)] if dealt[p] is not None])


def players_of(order: Sequence[int], declared: Sequence[str | None]) -> tuple[int, ...]:
    """The seats of ``order`` that play the hand: who stood, took the miss or plays it for the pool."""
    return tuple([p for p in order if declared[p] in PLAYING])


def dealer_uncontested(dealer_next: bool, standers: int, all_must_play: bool) -> bool:
    """L3-DLR-01, L5-DECL-05, IRL-06: the dealer is next to declare and everyone before him threw
    up, so the pool is his without play (unless this is a hand everyone must play)."""
    return dealer_next and standers == 0 and not all_must_play


def conceded(standers: int, for_pool: bool) -> bool:
    """L3-DLR-04, L3-DLR-05, L5-DECL-06, AMB-33: once all have declared, a lone stander (the dealer
    not playing the miss for the pool against him) takes the pool without play."""
    return standers == 1 and not for_pool


def first_leader(players: Sequence[int], miss_taker: int, for_pool: bool, miss_holder_leads: bool) -> int:
    """Who leads the first trick: the first player from the dealer's left (L3-LEAD-01, CF-01,
    AMB-31), or, where the rules say so, the player who took the miss (L3-LEAD-02; -1: nobody)."""
    if miss_holder_leads and miss_taker >= 0 and not for_pool:
        return miss_taker
    return players[0]


def trick_order(players: Sequence[int], leader: int) -> tuple[int, ...]:
    """The players in their turn to play a trick, from its leader round the table (L3-PLAY-01);
    the winner of a trick leads the next (L3-LEAD-09)."""
    i = players.index(leader)
    return (*players[i:], *players[:i])


def next_in_trick(players: Sequence[int], leader: int, played: int) -> int:
    """Who plays next to a trick of which ``played`` cards are down: the ``played``-th player of
    :func:`trick_order`, found without writing the order out."""
    return players[(players.index(leader) + played) % len(players)]


# ----- the end of a hand ----------------------------------------------------------------------


def uncontested_payouts(stake: int, seats: int, winner: int) -> list[int]:
    """What each seat takes from a pool won without play: all of it to ``winner`` (L3-DLR-01, L3-DLR-04/05)."""
    payouts = [0] * seats
    payouts[winner] = stake
    return payouts


class PlayedOut(NamedTuple):
    """How a played hand's tricks pay (:func:`settle_tricks`): per seat, tricks won, chips taken
    from the pool and chips paid as a loo; the looed seats in seat order; and the next pool."""

    won: tuple[int, ...]
    payouts: tuple[int, ...]
    looed: tuple[int, ...]
    loos: tuple[int, ...]
    next_pool: int


def settle_tricks(
    stake: int,
    winners: Sequence[int],
    seats: int,
    players: Sequence[int],
    pool_seat: int,
    offenders: Collection[int],
    loo: int,
) -> PlayedOut:
    """Share the pool ``stake`` among the tricks' ``winners`` and loo who took none.

    Each trick takes an equal share, the odd chips going to the earliest tricks (L3-DIV-01/03,
    L5-PAY-01); a trick won by the miss played for the pool (``pool_seat``, -1 if none: L3-DIV-04)
    or by an offender (L3-PEN-04) leaves its share in the pool. A player who took no trick is looed
    ``loo`` (L3-LOO-01/02, L5-PAY-02), as is an offender even if he took tricks (L3-LOO-03), once
    (AMB-16); the miss played for the pool is never looed. The next pool is what is left plus the loos.
    """
    won = [0] * seats
    payouts = [0] * seats
    share, remainder = divmod(stake, len(winners))
    for i, winner in enumerate(winners):
        won[winner] += 1
        if winner != pool_seat and winner not in offenders:
            payouts[winner] += share + 1 if i < remainder else share
    looed = sorted([p for p in players if (won[p] == 0 or p in offenders) and p != pool_seat])
    loos = [0] * seats
    for p in looed:
        loos[p] = loo
    taken = sum(payouts)
    return PlayedOut(tuple(won), tuple(payouts), tuple(looed), tuple(loos), stake - taken + loo * len(looed))
