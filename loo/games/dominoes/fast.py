"""A fast simulator of Domino Loo hands with random-legal play, for the book's statistics.

:class:`loo.games.dominoes.hand.DominoHand` is written for clarity, explanations and take-back;
this module plays the same laws on integers (a tile is its index in
:func:`loo.tiles.full_set`) with tables built once, and no objects, checks or history.
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
from dataclasses import dataclass

from loo.core.tricks import VoidRule
from loo.games.dominoes.rules import DominoLoneOpponentRule, DominoRules, DominoScoring, Variant
from loo.rules import FirstLeadRule, WinnerLeadsTrump
from loo.tiles import full_set

__all__ = ["FastDominoResult", "play_random_domino_hand", "tile_of"]

TILES = full_set()
HIGH = tuple(t.high for t in TILES)
LOW = tuple(t.low for t in TILES)
DOUBLE = tuple(t.is_double for t in TILES)
_ALL = tuple(range(len(TILES)))


def _rank(i: int, suit: int) -> int:
    """DL-SUIT-01: the other end, the double highest."""
    return 7 if DOUBLE[i] else (LOW[i] if HIGH[i] == suit else HIGH[i])


def _carries(i: int, n: int) -> bool:
    return HIGH[i] == n or LOW[i] == n


# Tables by trump (and suit led): is a trump, rank among trumps, follows, power (DL-TRK-01), lead actions.
IS_TRUMP = tuple(tuple(_carries(i, t) for i in _ALL) for t in range(7))
TRUMP_RANK = tuple(tuple(_rank(i, t) if _carries(i, t) else -1 for i in _ALL) for t in range(7))
FOLLOWS = tuple(
    tuple(tuple(_carries(i, t) if led == t else _carries(i, led) and not _carries(i, t) for i in _ALL)
          for led in range(7))
    for t in range(7)
)  # fmt: skip
POWER = tuple(
    tuple(tuple(200 + _rank(i, t) if _carries(i, t) else 100 + _rank(i, led) if _carries(i, led) else 0 for i in _ALL)
          for led in range(7))
    for t in range(7)
)  # fmt: skip
LEADS = tuple(
    tuple(((i, -1),) if _carries(i, t) or DOUBLE[i] else ((i, HIGH[i]), (i, LOW[i])) for i in _ALL) for t in range(7)
)
LED = tuple(
    tuple(tuple(t if _carries(i, t) else HIGH[i] if DOUBLE[i] else s for s in range(-1, 7)) for i in _ALL)
    for t in range(7)
)  # LED[trump][tile][announced + 1]: the suit the lead calls for


def tile_of(index: int) -> str:
    """The canonical text of an integer tile: ``tile_of(27) == '6-6'``."""
    return str(TILES[index])


Step = tuple[int, str, object, tuple[object, ...]]


@dataclass(frozen=True, slots=True)
class FastDominoResult:
    """What one simulated hand did; with ``record=True`` also every step and the deal."""

    declared: tuple[str, ...]
    tricks_won: tuple[int, ...]
    payouts: tuple[int, ...]
    loos: tuple[int, ...]
    next_pool: int
    reason: str
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
    may_drop = seats >= 3
    for_pool = False
    in_play = 0
    miss_taker = -1
    for seat in rotation:
        options: list[tuple[str, object, int]] = [("declare", "stand", -1)]
        if taken < misses:
            options.append(("declare", "miss", -1))
        if may_drop:
            options.append(("declare", "throw", -1))
        pool_case = False
        if seat == dealer:
            pool_case = (
                seats == 4 and in_play == 1 and miss_taker >= 0 and taken == misses
                and rules.lone_opponent_rule is DominoLoneOpponentRule.DOMINO_FOR_POOL
            )  # fmt: skip
            if pool_case:
                options.append(("for-pool", True, -1))
            if rules.dealer_takes_turnup:
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
            miss_taker = seat
            in_play += 1
        elif value == "stand":
            declared[seat] = "stand"
            in_play += 1
        else:
            declared[seat] = "throw"
            hands[seat] = []
        if seat == rotation[-2] and in_play == 0:
            return _uncontested(rules, seats, dealer, pool, declared, "dealer-uncontested", steps, dealt, turnup, stock)
    if in_play == 1:
        lone = next(p for p in rotation if declared[p] not in ("", "throw"))
        return _uncontested(rules, seats, lone, pool, declared, "conceded", steps, dealt, turnup, stock)

    # ----- play (F.3) -----
    players = [p for p in rotation if declared[p] not in ("", "throw")]
    count = len(players)
    place = {p: i for i, p in enumerate(players)}
    trump_rank = TRUMP_RANK[trump]
    leads = LEADS[trump]
    led_of = LED[trump]
    any_first = rules.first_lead_rule is FirstLeadRule.ANY_TRUMP
    winner_rule = rules.winner_must_lead_trump
    void_rule = rules.void_rule
    simple_leads = any_first and winner_rule is WinnerLeadsTrump.ANY
    must_trump = void_rule is VoidRule.MUST_TRUMP
    free = void_rule is VoidRule.FREE
    won = [0] * seats
    winners = []
    leader = players[0]  # DL-LEAD-01
    for trick in range(5):
        start = place[leader]
        # the lead (DL-LEAD-02..05, AMB-47)
        hand = hands[leader]
        trumps = [x for x in hand if is_trump[x]]
        if simple_leads:
            allowed = trumps if trumps and (trick or len(trumps) >= 2) else hand
        else:
            allowed = hand
            if len(trumps) >= 2:
                allowed = trumps if any_first else [max(trumps, key=trump_rank.__getitem__)]
            if trick and trumps and winner_rule is not WinnerLeadsTrump.OFF:
                duty = trumps if winner_rule is WinnerLeadsTrump.ANY else [max(trumps, key=trump_rank.__getitem__)]
                allowed = [x for x in allowed if x in duty]
        options_play = [o for x in allowed for o in leads[x]]
        tile, suit = options_play[int(rand() * len(options_play))]
        if record:
            steps.append((leader, "play", ("play", tile, suit), tuple(("play", x, s) for x, s in options_play)))
        hand.remove(tile)
        led = led_of[tile][suit + 1]
        pw = POWER[trump][led]
        fol = FOLLOWS[trump][led]
        best = pw[tile]
        best_seat = leader
        for k in range(1, count):
            seat = players[(start + k) % count]
            hand = hands[seat]
            legal = [x for x in hand if fol[x]]
            if not legal:
                if free or led == trump:
                    legal = hand
                elif must_trump:
                    legal = [x for x in hand if is_trump[x]] or hand
                else:
                    legal = [x for x in hand if is_trump[x] and pw[x] > best] or hand
            tile = legal[int(rand() * len(legal))]
            if record:
                steps.append((seat, "play", ("play", tile, -1), tuple(("play", x, -1) for x in legal)))
            hand.remove(tile)
            p = pw[tile]
            if p > best:
                best = p
                best_seat = seat
        won[best_seat] += 1
        winners.append(best_seat)
        leader = best_seat

    # ----- settlement (F.4) -----
    pool_seat = dealer if for_pool else -1
    looed = [p for p in sorted(players) if won[p] == 0 and p != pool_seat]
    scoring = rules.domino_scoring
    zero = (0,) * seats
    if scoring is not DominoScoring.CHIPS:
        sign = -1 if scoring is DominoScoring.ROUNCE else 1
        points = [0] * seats
        for p in players:
            if p != pool_seat:
                points[p] = sign * won[p] - sign * 5 * (p in looed)
        return FastDominoResult(tuple(declared), tuple(won), zero, zero, pool, "played", tuple(points), tuple(steps),
                                dealt, turnup, tuple(stock))  # fmt: skip
    payouts = [0] * seats
    share, remainder = divmod(pool, 5)
    for i, w in enumerate(winners):
        if w != pool_seat:
            payouts[w] += share + (1 if i < remainder else 0)
    amount = rules.loo_for(pool, seats)
    loos = [0] * seats
    for p in looed:
        loos[p] = amount
    next_pool = pool - sum(payouts) + amount * len(looed)
    return FastDominoResult(tuple(declared), tuple(won), tuple(payouts), tuple(loos), next_pool, "played", None,
                            tuple(steps), dealt, turnup, tuple(stock))  # fmt: skip


def _uncontested(
    rules: DominoRules,
    seats: int,
    winner: int,
    pool: int,
    declared: list[str],
    reason: str,
    steps: list[Step],
    dealt: tuple[tuple[int, ...], ...],
    turnup: int,
    stock: list[int],
) -> FastDominoResult:
    """DL-DLR-02, AMB-49 (and DR-07's five for points scoring), as the engine settles them."""
    zero = (0,) * seats
    scoring = rules.domino_scoring
    if scoring is DominoScoring.CHIPS:
        payouts = [0] * seats
        payouts[winner] = pool
        return FastDominoResult(tuple(declared), zero, tuple(payouts), zero, 0, reason, None, tuple(steps), dealt,
                                turnup, tuple(stock))  # fmt: skip
    points = [0] * seats
    points[winner] = -5 if scoring is DominoScoring.ROUNCE else 5
    return FastDominoResult(tuple(declared), zero, zero, zero, pool, reason, tuple(points), tuple(steps), dealt,
                            turnup, tuple(stock))  # fmt: skip
