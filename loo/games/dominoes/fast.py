"""A fast simulator of Domino Loo hands with random-legal play, for the book's statistics.

:class:`loo.games.dominoes.hand.DominoHand` is written for clarity, explanations and take-back;
this module plays on integers (a tile is its index in :func:`loo.core.tiles.full_set`), with no
objects, checks or history, but it keeps no laws of its own: its tables are built once from the
suits' functions (:mod:`loo.games.dominoes.suits`), and the leader's duties
(:func:`~loo.games.dominoes.suits.lead_choices`), the follower's
(:func:`~loo.games.dominoes.suits.follower_tiles`, over :func:`loo.core.tricks.follower_choices`),
the trick's winner (:func:`loo.core.tricks.trick_winner`) and the settlement
(:func:`~loo.games.dominoes.settle.settle_play`) are the very functions the hand calls.
``tests/engine/dominoes/test_dominoes_fast.py`` keeps it honest: it replays every choice made here
through the checked engine and compares the legal actions at each step, and the settlement.

Each seat chooses uniformly among its legal actions, as the engine lists them: a lead of a
tile that is neither trump nor double is two actions (one per announced suit), and the
dealer's right to the turn-up is one action per tile he might discard.

>>> import random
>>> from loo.games.dominoes.rules import DominoRules
>>> result = play_random_domino_hand(DominoRules(), random.Random(1), seats=4, dealer=3, pool=25)
>>> sum(result.payouts) + result.next_pool - sum(result.loos) == 25
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from loo.core.fast import FastOutcome
from loo.core.reasons import Reason
from loo.core.tiles import full_set
from loo.core.tricks import trick_winner
from loo.games.dominoes.declare import declarations, may_play_for_pool, may_take_turnup
from loo.games.dominoes.rules import DominoRules, Variant
from loo.games.dominoes.settle import DominoSettlement, settle_play, settle_uncontested
from loo.games.dominoes.suits import follower_tiles, follows, lead_choices, led_suit, power, rank_in

__all__ = ["FastDominoResult", "play_random_domino_hand", "tile_of"]


def _or_none(suit: int | None) -> int:
    return -1 if suit is None else suit


def _beats(pw: tuple[int, ...], best: int) -> Callable[[int], bool]:
    """Would a tile beat the trick's best power so far (by the power table of the suit led)?"""
    return lambda x: pw[x] > best


def _power_in(pw: tuple[int, ...]) -> Callable[[int, int], int]:
    """The trick's power function for :func:`loo.core.tricks.trick_winner`, read off the table."""
    return lambda _, x: pw[x]


TILES = full_set()
HIGH = tuple(t.high for t in TILES)
LOW = tuple(t.low for t in TILES)
_ALL = tuple(range(len(TILES)))

# The laws of suits, tabled once from the functions the hand reads (loo.games.dominoes.suits), by
# trump (and suit led): is a trump, rank among trumps, follows, power (DL-TRK-01), lead actions.
IS_TRUMP = tuple(tuple(TILES[i].has(t) for i in _ALL) for t in range(7))
TRUMP_RANK = tuple(tuple(rank_in(TILES[i], t) if TILES[i].has(t) else -1 for i in _ALL) for t in range(7))
FOLLOWS = tuple(tuple(tuple(follows(TILES[i], led, t) for i in _ALL) for led in range(7)) for t in range(7))
POWER = tuple(tuple(tuple(power(TILES[i], led, t) for i in _ALL) for led in range(7)) for t in range(7))
POWER_OF = tuple(tuple(_power_in(POWER[t][led]) for led in range(7)) for t in range(7))
LEADS = tuple(
    tuple(((i, -1),) if TILES[i].has(t) or TILES[i].is_double else ((i, HIGH[i]), (i, LOW[i])) for i in _ALL)
    for t in range(7)
)  # the lead actions of each tile, as DominoHand.legal_actions lists them (DL-LEAD-04)
LED = tuple(
    tuple(tuple(_or_none(led_suit(TILES[i], t, None if s < 0 else s)) for s in range(-1, 7)) for i in _ALL)
    for t in range(7)
)  # LED[trump][tile][announced + 1]: the suit the lead calls for


DECLARE = tuple(
    tuple(tuple(("declare", d, -1) for d in declarations(seats=seats, misses_left=left)) for left in (0, 1))
    for seats in range(5)
)  # DECLARE[seats][a miss is left]: the declarations open, as (verb, value, suit)


def tile_of(index: int) -> str:
    """The canonical text of an integer tile: ``tile_of(27) == '6-6'``."""
    return str(TILES[index])


Step = tuple[int, str, object, tuple[object, ...]]


@dataclass(frozen=True, slots=True)
class FastDominoResult(FastOutcome):
    """What one simulated hand did (:class:`~loo.core.fast.FastOutcome`), its points at a game scored
    in points; with ``record=True`` also every step and the deal."""

    points: tuple[int, ...] | None = None
    steps: tuple[Step, ...] = ()  # (seat, kind, choice, legal choices); choices as (verb, value, suit)
    dealt: tuple[tuple[int, ...], ...] = ()
    turnup: int = -1
    stock: tuple[int, ...] = ()


def play_random_domino_hand(
    rules: DominoRules,
    rng: random.Random,
    *,
    seats: int,
    dealer: int,
    pool: int,
    record: bool = False,
) -> FastDominoResult:
    """Deal and play one hand of Domino Loo (not Rounce), every seat choosing uniformly among its legal actions."""
    if rules.game is not Variant.LOO:
        raise ValueError("the fast simulator plays Domino Loo only")
    if not 2 <= seats <= 4:
        raise ValueError(f"the domino games are for two to four players (DL-EQP-02), not {seats}")
    rand = rng.random
    tiles = sorted(_ALL, key=lambda _: rand())
    rotation = [(dealer + i) % seats for i in range(1, seats + 1)]
    hands: list[list[int]] = [[] for _ in range(seats)]
    for k, seat in enumerate(rotation):
        hands[seat] = tiles[5 * k : 5 * k + 5]
    top = 5 * seats
    turnup = tiles[top]
    stock = tiles[top + 1 :]
    dealt = tuple(tuple(h) for h in hands) if record else ()
    trump = HIGH[turnup]
    is_trump = IS_TRUMP[trump]
    steps: list[Step] = []

    # ----- declarations (F.2) -----
    misses = len(stock) // 5
    stock_pos = 0
    declared = [""] * seats
    taken = 0
    for_pool = False
    in_play = 0
    for seat in rotation:
        options: list[tuple[str, object, int]] = list(DECLARE[seats][misses > taken])
        pool_case = False
        if seat == dealer:
            before = [declared[p] or None for p in rotation[:-1]]
            pool_case = may_play_for_pool(rules, seats=seats, before_dealer=before, misses_left=misses - taken)
            if pool_case:
                options.append(("for-pool", True, -1))
            if may_take_turnup(rules, turnup_taken=False):
                options += [("take-turnup", x, -1) for x in hands[seat]]
        choice = options[int(rand() * len(options))]
        if record:
            steps.append((seat, "declare", choice, tuple(options)))
        verb, value = choice[0], choice[1]
        if verb == "take-turnup":
            hand = hands[seat]
            hand.remove(value)  # type: ignore[arg-type]
            hand.append(turnup)
            if pool_case:  # DL-DLR-04: having taken it, he still says for whom he plays
                options = [("declare", "stand", -1), ("for-pool", True, -1)]
                choice = options[int(rand() * 2)]
                if record:
                    steps.append((seat, "declare", choice, tuple(options)))
                verb, value = choice[0], choice[1]
            else:
                verb, value = "declare", "stand"
        if verb == "for-pool":
            declared[seat] = "for-pool"
            for_pool = True
            in_play += 1
        elif value == "miss":
            declared[seat] = "miss"
            hands[seat] = stock[stock_pos : stock_pos + 5]
            stock_pos += 5
            taken += 1
            in_play += 1
        elif value == "stand":
            declared[seat] = "stand"
            in_play += 1
        else:
            declared[seat] = "throw"
            hands[seat] = []
        if seat == rotation[-2] and in_play == 0:
            reason = Reason.DEALER_UNCONTESTED
            return _uncontested(rules, seats, dealer, pool, declared, reason, steps, dealt, turnup, stock)
    if in_play == 1:
        lone = next(p for p in rotation if declared[p] not in ("", "throw"))
        return _uncontested(rules, seats, lone, pool, declared, Reason.CONCEDED, steps, dealt, turnup, stock)

    # ----- play (F.3) -----
    players = [p for p in rotation if declared[p] not in ("", "throw")]
    count = len(players)
    place = {p: i for i, p in enumerate(players)}
    trump_of = is_trump.__getitem__
    rank_of = TRUMP_RANK[trump].__getitem__
    leads = LEADS[trump]
    power_of = POWER_OF[trump]
    led_of = LED[trump]
    first_rule = rules.first_lead_rule
    winner_rule = rules.winner_must_lead_trump
    void_rule = rules.void_rule
    winners = []
    leader = players[0]  # DL-LEAD-01
    for trick in range(5):
        start = place[leader]
        # the lead (DL-LEAD-02..05, AMB-47)
        hand = hands[leader]
        allowed = lead_choices(
            hand,
            is_trump=trump_of,
            trump_rank=rank_of,
            first_lead_rule=first_rule,
            winner_rule=winner_rule,
            after_a_trick=trick > 0,
        )
        options_play = [o for x in allowed for o in leads[x]]
        tile, suit = options_play[int(rand() * len(options_play))]
        if record:
            steps.append((leader, "play", ("play", tile, suit), tuple(("play", x, s) for x, s in options_play)))
        hand.remove(tile)
        led = led_of[tile][suit + 1]
        pw = POWER[trump][led]
        fol = FOLLOWS[trump][led].__getitem__
        best = pw[tile]
        plays = [(leader, tile)]
        for k in range(1, count):
            seat = players[(start + k) % count]
            hand = hands[seat]
            legal = follower_tiles(hand, follows=fol, is_trump=trump_of, beats=_beats(pw, best), void_rule=void_rule)
            tile = legal[int(rand() * len(legal))]
            if record:
                steps.append((seat, "play", ("play", tile, -1), tuple(("play", x, -1) for x in legal)))
            hand.remove(tile)
            plays.append((seat, tile))
            if pw[tile] > best:
                best = pw[tile]
        leader = trick_winner(plays, power_of[led])  # DL-TRK-01
        winners.append(leader)

    # ----- settlement (F.4) -----
    settlement = settle_play(
        rules, seats=seats, pool=pool, players=players, winners=winners, for_pool=dealer if for_pool else None
    )
    return _result(settlement, declared, steps, dealt, turnup, stock)


def _result(
    s: DominoSettlement,
    declared: list[str],
    steps: list[Step],
    dealt: tuple[tuple[int, ...], ...],
    turnup: int,
    stock: list[int],
) -> FastDominoResult:
    return FastDominoResult(
        tuple(declared),
        s.tricks_won,
        s.payouts,
        s.loos,
        s.next_pool,
        str(s.reason),
        s.points,
        tuple(steps),
        dealt,
        turnup,
        tuple(stock),
    )


def _uncontested(
    rules: DominoRules,
    seats: int,
    winner: int,
    pool: int,
    declared: list[str],
    reason: Reason,
    steps: list[Step],
    dealt: tuple[tuple[int, ...], ...],
    turnup: int,
    stock: list[int],
) -> FastDominoResult:
    """DL-DLR-02, AMB-49 (and DR-07's five for points scoring), settled as the hand settles them."""
    settlement = settle_uncontested(rules, seats=seats, pool=pool, winner=winner, reason=reason)
    return _result(settlement, declared, steps, dealt, turnup, stock)
