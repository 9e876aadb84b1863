"""The book's studies (chapter 13, *What the numbers say*): the sources' advice put to many seeded deals.

Each study is a plain function of its sample size and seed that returns a frozen result holding
the estimate, its 95% interval, the sample size and the seed, so the book glues its numbers from
here and the tests check their properties. Nothing here reads the clock or draws unseeded
randomness: the same arguments give the same result on every machine.

- :func:`eldest_miss_study`: is the eldest hand wrong to take the miss (L3-ADV-01)? Every deal is
  played twice, once with the eldest hand taking the miss and once with it following the rule of
  thumb (:class:`loo.games.loo.bots.ThumbBot`: stand on a good hand, else throw up), the other seats played
  by the rule of thumb in both; the paired difference of the eldest hand's chips is the answer.
- :func:`pool_growth_study`: whole games of many hands under limited and unlimited loos (UL-02,
  UL-03), the pool recorded at every hand.
- :func:`nap_study`: how often a Nap called on a hand the three-handed advice approves
  (NAP-STR-01..03) is made, against the rule of thumb's defence.

The players are the engine's rule-of-thumb bots, played through their fast paths (the
unchecked playouts of :mod:`loo.games.loo.bots` and :mod:`loo.games.nap.bots`, which the Monte Carlo bots use);
the random-play simulators of :mod:`loo.games.loo.simulate` and :mod:`loo.games.nap.fast` are faster still, but a
player who declares at random says nothing about the advice. ``bench/studies.py`` times each
study at the sizes the book uses (:data:`BOOK`).

Intervals are 95%: the normal approximation for a mean (:func:`mean_interval`), Wilson's score
interval for a proportion (:func:`wilson_interval`), and for a median the distribution-free
interval between two order statistics (:func:`median_interval`).

>>> wilson_interval(0, 10).low
0.0
>>> round(mean_interval([1.0, 2.0, 3.0]).estimate, 6)
2.0
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from loo.core.actions import Action
from loo.core.cards import Card, Rank, Suit, full_pack
from loo.games.loo.bots import ThumbBot, playout
from loo.games.loo.game import LooGame
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import FirstDealMode, LooMode, Rules
from loo.games.loo.state import Settlement
from loo.games.nap.bots import playout as nap_playout
from loo.games.nap.bots import three_handed_nap
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import NapRules

Z95 = 1.959963984540054
"""The standard normal's 97.5th percentile: a 95% interval is the estimate give or take this many standard errors."""

DEAL_STRIDE = 1_000_000
"""Deal *i* of a study with seed *s* is dealt from ``random.Random(s * DEAL_STRIDE + i)``."""


@dataclass(frozen=True)
class BookSizes:
    """The sample sizes and seeds the book's chapter uses (and ``bench/studies.py`` times).

    Chosen so that the whole page runs in well under a minute on one core.
    """

    eldest_deals: int = 3000
    eldest_presets: tuple[str, ...] = ("enquire-within", "peel")
    eldest_pools: tuple[int, ...] = (3, 6, 9, 12, 15, 18, 21, 24, 27, 30)
    eldest_seed: int = 13
    pool_games: int = 200
    pool_hands: int = 40
    pool_seed: int = 14
    nap_hands: tuple[tuple[int, int], ...] = ((3, 2000), (4, 1000), (5, 1000))  # (players, Nap calls)
    nap_seed: int = 15


BOOK = BookSizes()


def deal_seed(seed: int, i: int) -> int:
    """The seed of deal ``i`` of a study run with ``seed``: a book page deals it again with this number.

    >>> deal_seed(13, 42)
    13000042
    """
    if not 0 <= i < DEAL_STRIDE:
        raise ValueError(f"a study has at most {DEAL_STRIDE:,} deals, not {i + 1:,}")
    return seed * DEAL_STRIDE + i


# ----- intervals ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """An estimate with its 95% interval ``low`` to ``high``, from ``n`` observations by ``method``."""

    estimate: float
    low: float
    high: float
    n: int
    method: str  # "normal" (a mean), "wilson" (a proportion) or "order statistics" (a median)

    @property
    def half_width(self) -> float:
        """Half the interval's width: the "give or take" of the estimate."""
        return (self.high - self.low) / 2


def mean_interval(xs: Sequence[float]) -> Estimate:
    """The mean of ``xs`` with the normal approximation's 95% interval, mean ± 1.96 standard errors.

    >>> e = mean_interval([0.0, 2.0, 4.0, 6.0])
    >>> e.estimate, round(e.low, 3), round(e.high, 3)
    (3.0, 0.47, 5.53)
    """
    n = len(xs)
    if n < 2:
        raise ValueError(f"an interval for a mean needs at least two observations, not {n}")
    mean = statistics.fmean(xs)
    half = Z95 * statistics.stdev(xs) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, "normal")


def wilson_interval(successes: int, n: int) -> Estimate:
    """The proportion ``successes / n`` with Wilson's 95% score interval (sound near 0 and 1).

    >>> e = wilson_interval(8, 10)
    >>> e.estimate, round(e.low, 3), round(e.high, 3)
    (0.8, 0.49, 0.943)
    """
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"a proportion needs 0 <= successes <= n and n >= 1, not {successes} of {n}")
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Estimate(p, low, high, n, "wilson")


def median_interval(xs: Sequence[float]) -> Estimate:
    """The median of ``xs`` with a distribution-free 95% interval between two order statistics.

    The number of observations below the true median is binomial (n, 1/2); the interval runs
    between the order statistics 1.96 of its standard deviations either side of the middle.

    >>> e = median_interval(list(range(101)))
    >>> e.estimate, e.low, e.high
    (50, 40, 60)
    """
    n = len(xs)
    if n < 10:
        raise ValueError(f"an interval for a median needs at least ten observations, not {n}")
    ordered = sorted(xs)
    spread = Z95 * math.sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - spread))
    hi = min(n - 1, math.ceil(n / 2 + spread) - 1)
    return Estimate(statistics.median(ordered), ordered[lo], ordered[hi], n, "order statistics")


# ----- 1. the eldest hand and the miss (L3-ADV-01) -----------------------------------------------

ARMS = ("miss", "rule")
"""The eldest hand's two ways of declaring: always take the miss, or follow the rule of thumb."""


def eldest_hand(seed: int, arm: str, *, preset: str = "enquire-within", seats: int = 5, pool: int = 3) -> LooHand:
    """One deal from ``seed`` (dealt as :func:`widgets.book.play_hand` deals it), played to the end.

    The dealer is the last seat, so seat 0 is the eldest hand. Under ``arm="miss"`` it takes the
    miss; under ``arm="rule"`` it declares by the rule of thumb like every other seat. Everyone else,
    and the eldest hand's play of the cards, is the rule of thumb (:class:`loo.games.loo.bots.ThumbBot`).
    """
    if arm not in ARMS:
        raise ValueError(f"unknown arm {arm!r}; the arms are {', '.join(ARMS)}")
    rules = Rules.preset(preset)
    hand = LooHand.deal(rules, random.Random(seed), seats=seats, dealer=seats - 1, pool=pool)
    if arm == "miss":
        hand.push(Action(hand.eldest, "declare", "miss"))
    playout(hand, ThumbBot(), random.Random(0))  # the rule of thumb draws no random numbers
    return hand


@dataclass(frozen=True)
class EldestDeal:
    """One deal of :func:`eldest_miss_study`, played both ways and priced at the study's pool."""

    seed: int  # the deal's own seed (see deal_seed)
    strong: bool  # the rule of thumb stood on the eldest hand's own cards (else it threw up)
    miss_net: int  # the eldest hand's chips this hand when it took the miss
    rule_net: int  # the same, following the rule of thumb
    miss_tricks: int  # tricks the eldest hand took with the miss
    miss_looed: bool  # the eldest hand stood with the miss and took no trick (L3-LOO-01)

    @property
    def difference(self) -> int:
        return self.miss_net - self.rule_net


@dataclass(frozen=True)
class PairedEstimate:
    """The mean paired difference, miss less rule, in the eldest hand's chips per deal, with its interval.

    ``miss`` and ``rule`` are each arm's mean on its own; ``weak`` and ``strong`` the paired
    difference on the deals whose own cards the rule throws up or stands on; ``looed`` the share
    of deals in which the miss was looed (Wilson). All intervals are 95%.
    """

    estimate: float
    low: float
    high: float
    n: int
    seed: int
    preset: str
    seats: int
    pool: int
    miss: Estimate
    rule: Estimate
    weak: Estimate
    strong: Estimate
    looed: Estimate
    deals: tuple[EldestDeal, ...]

    @property
    def difference(self) -> Estimate:
        return Estimate(self.estimate, self.low, self.high, self.n, "normal")


def net_at_pool(settlement: Settlement, seat: int, pool: int) -> int:
    """What ``seat`` nets from a limited-Loo hand's ``settlement`` had the same play been for ``pool`` chips.

    The play does not depend on the pool at limited Loo (unless the Bold Stand is in force), so one
    playing prices every pool: each trick takes its third of the pool, the first tricks the odd
    chips (L3-DIV-01), a lone winner without play takes it all, and a loo costs the same.
    """
    if settlement.reason == "played":
        share, odd = divmod(pool, len(settlement.tricks))
        won = sum(share + (i < odd) for i, t in enumerate(settlement.tricks) if t.winner == seat)
        return won - settlement.loos[seat]
    if settlement.reason in ("dealer-uncontested", "conceded"):
        return pool if settlement.payouts[seat] else 0
    raise ValueError(f"cannot price a hand settled as {settlement.reason!r} at another pool")


def eldest_miss_sweep(
    deals: int, seed: int, pools: Sequence[int], *, preset: str = "enquire-within", seats: int = 5
) -> tuple[PairedEstimate, ...]:
    """:func:`eldest_miss_study` at each of ``pools``, every deal played once per arm and priced at each pool.

    Both arms play the same ``deals`` deals (common random numbers: deal *i* comes from
    :func:`deal_seed`), so the difference is paired deal by deal and its interval is the normal
    approximation for the mean of the ``deals`` differences.
    """
    if deals < 10:
        raise ValueError(f"the study needs at least ten deals, not {deals}")
    if not pools:
        raise ValueError("name at least one pool")
    rules = Rules.preset(preset)
    if rules.loo_mode is not LooMode.LIMITED or rules.first_deal_mode is FirstDealMode.BOLD_STAND:
        raise ValueError(f"the study prices limited Loo whose play does not depend on the pool; not {preset!r}")
    played: list[tuple[int, Settlement, Settlement, bool]] = []
    for i in range(deals):
        s = deal_seed(seed, i)
        took = eldest_hand(s, "miss", preset=preset, seats=seats, pool=pools[0])
        ruled = eldest_hand(s, "rule", preset=preset, seats=seats, pool=pools[0])
        assert took.settlement is not None and ruled.settlement is not None
        played.append((s, took.settlement, ruled.settlement, ruled.declared(ruled.eldest) == "stand"))
    out = []
    for pool in pools:
        rows = tuple(
            EldestDeal(
                seed=s,
                strong=strong,
                miss_net=net_at_pool(a, 0, pool),
                rule_net=net_at_pool(b, 0, pool),
                miss_tricks=a.tricks_won[0] if a.tricks_won else 0,
                miss_looed=0 in a.looed,
            )
            for s, a, b, strong in played
        )
        total = mean_interval([float(d.difference) for d in rows])
        out.append(
            PairedEstimate(
                estimate=total.estimate,
                low=total.low,
                high=total.high,
                n=deals,
                seed=seed,
                preset=preset,
                seats=seats,
                pool=pool,
                miss=mean_interval([float(d.miss_net) for d in rows]),
                rule=mean_interval([float(d.rule_net) for d in rows]),
                weak=mean_interval([float(d.difference) for d in rows if not d.strong]),
                strong=mean_interval([float(d.difference) for d in rows if d.strong]),
                looed=wilson_interval(sum(1 for d in rows if d.miss_looed), deals),
                deals=rows,
            )
        )
    return tuple(out)


def eldest_miss_study(
    deals: int, seed: int, *, preset: str = "enquire-within", seats: int = 5, pool: int = 3
) -> PairedEstimate:
    """L3-ADV-01 tested: the eldest hand's chips taking the miss against following the rule of thumb.

    Both arms play the same ``deals`` deals (common random numbers), so the estimate is the mean
    paired difference with the normal approximation's 95% interval. ``pool`` is the pool each deal
    is played for: 3 is the dealer's stake alone.
    """
    return eldest_miss_sweep(deals, seed, (pool,), preset=preset, seats=seats)[0]


# ----- 2. how the pool grows, limited and unlimited (UL-02, UL-03) --------------------------------

PLAYER_NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Guy", "Hal")


@dataclass(frozen=True)
class PoolGrowth:
    """The pool played for at every hand of ``games`` games of ``hands`` hands, under one loo mode.

    ``pools[g][k]`` is the pool of hand *k* (from 0) of game *g*, the dealer's stake included;
    ``loos[g][k]`` the chips paid in loos at that hand. ``median``, ``low`` and ``high`` are, hand
    by hand, the median and the 10th and 90th percentiles over the games.
    """

    mode: str
    games: int
    hands: int
    seed: int
    preset: str
    seats: int
    pools: tuple[tuple[int, ...], ...]
    loos: tuple[tuple[int, ...], ...]
    median: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    final: Estimate  # the median pool at the last hand, with its order-statistics interval
    loo_free: Estimate  # the share of played hands in which nobody was looed (Wilson)

    def at(self, hand: int) -> tuple[int, ...]:
        """Every game's pool at hand number ``hand`` (from 0)."""
        return tuple(p[hand] for p in self.pools)

    def share_above(self, hand: int, amount: int) -> Estimate:
        """The share of games whose pool at ``hand`` exceeded ``amount`` chips, with Wilson's interval."""
        return wilson_interval(sum(1 for p in self.at(hand) if p > amount), self.games)

    @property
    def peaks(self) -> tuple[int, ...]:
        """The largest pool of each game."""
        return tuple(max(p) for p in self.pools)

    def share_ever_above(self, amount: int) -> Estimate:
        """The share of games whose pool exceeded ``amount`` chips at some hand, with Wilson's interval."""
        return wilson_interval(sum(1 for p in self.peaks if p > amount), self.games)


def play_game(rules: Rules, hands: int, seed: int, *, seats: int = 5) -> tuple[list[int], list[int], int]:
    """One game of ``hands`` hands played by the rule of thumb at every seat, the pool carried over.

    Returns the pool played for at each hand, the loos paid at each, and how many hands were
    played out and nobody looed.
    """
    game = LooGame(rules, list(PLAYER_NAMES[:seats]), random.Random(seed), first_dealer=0)
    thumb = ThumbBot()
    choices = random.Random(0)
    pools: list[int] = []
    loos: list[int] = []
    free = 0
    for _ in range(hands):
        hand = game.next_hand()
        pools.append(hand.pool)
        if not hand.is_over:
            playout(hand, thumb, choices)
            game.settle()
        settlement = hand.settlement
        assert settlement is not None
        loos.append(sum(settlement.loos))
        free += settlement.loo_free
    return pools, loos, free


def pool_growth_study(
    games: int, hands: int, seed: int, *, mode: str = "limited", preset: str = "peel", seats: int = 5
) -> PoolGrowth:
    """``games`` games of ``hands`` hands each with loos ``mode`` (``limited`` or ``unlimited``).

    Game *g* deals from ``random.Random(deal_seed(seed, g))``. The rule of thumb never looks at the
    pool, so the two modes play the very same cards and declarations game for game: only what a
    loo costs differs (a paired comparison). Real players grow shy of a large unlimited pool
    (UL-06); these do not.
    """
    if games < 10 or hands < 1:
        raise ValueError(f"the study needs at least ten games of one hand or more, not {games} of {hands}")
    loo_mode = LooMode(mode)
    rules = Rules.preset(preset)
    if loo_mode is not rules.loo_mode:
        rules = dataclasses.replace(rules, loo_mode=loo_mode)
    all_pools: list[tuple[int, ...]] = []
    all_loos: list[tuple[int, ...]] = []
    free = 0
    played = 0
    for g in range(games):
        pools, loos, f = play_game(rules, hands, deal_seed(seed, g), seats=seats)
        all_pools.append(tuple(pools))
        all_loos.append(tuple(loos))
        free += f
        played += hands
    median: list[float] = []
    low: list[float] = []
    high: list[float] = []
    for k in range(hands):
        column = sorted(p[k] for p in all_pools)
        deciles = statistics.quantiles(column, n=10, method="inclusive")
        median.append(statistics.median(column))
        low.append(deciles[0])
        high.append(deciles[-1])
    return PoolGrowth(
        mode=mode,
        games=games,
        hands=hands,
        seed=seed,
        preset=preset,
        seats=seats,
        pools=tuple(all_pools),
        loos=tuple(all_loos),
        median=tuple(median),
        low=tuple(low),
        high=tuple(high),
        final=median_interval([float(p[-1]) for p in all_pools]),
        loo_free=wilson_interval(free, played),
    )


def limited_bound(rules: Rules, seats: int) -> int:
    """The most a pool can grow in one hand of limited Loo: the next deal's stake and every other player looed.

    >>> limited_bound(Rules.preset("peel"), 5)
    27
    """
    return rules.deal_price + (seats - 1) * max(rules.loo_amount, rules.single_loo)


# ----- 3. a three-handed Nap on the advice's hands (NAP-STR-01..03) -------------------------------

NAP_KINDS = {
    "one-suit": "NAP-STR-01",
    "two-suit": "NAP-STR-02",
    "side-aces": "NAP-STR-03",
}
"""The kinds of hand the three-handed advice calls a Nap on, with the law that names each."""


def nap_kind(cards: Sequence[Card]) -> str | None:
    """Which of :data:`NAP_KINDS` a five-card hand is, if any (the engine's :func:`three_handed_nap` decides).

    *one-suit*: all five cards of one suit, the highest an honour (knave or better).
    *two-suit*: four of one suit headed by an honour, and an ace, king or queen of another.
    *side-aces*: three or four suits, the longest headed by an honour and every other card an ace or king.

    >>> from loo.core.cards import parse_cards
    >>> [nap_kind(parse_cards(h)) for h in ("JS 7S 5S 3S 2S", "QH 9H 4H 2H AC", "AS 2S 9H 3D KC")]
    ['one-suit', 'two-suit', None]
    """
    if len(cards) != 5 or not three_handed_nap(cards):
        return None
    suits = len({c.suit for c in cards})
    return "one-suit" if suits == 1 else "two-suit" if suits == 2 else "side-aces"


@functools.cache
def nap_hands(kind: str) -> tuple[tuple[Card, ...], ...]:
    """Every five-card hand of ``kind`` (each once, cards in pack order), for drawing one uniformly.

    >>> len(nap_hands("one-suit")) == 4 * (math.comb(13, 5) - math.comb(9, 5))
    True
    """
    if kind not in NAP_KINDS:
        raise ValueError(f"unknown kind of Nap hand {kind!r}; the kinds are {', '.join(NAP_KINDS)}")
    order = {c: i for i, c in enumerate(full_pack())}
    found: set[frozenset[Card]] = set()
    high = [Rank.ACE, Rank.KING] if kind == "side-aces" else [Rank.ACE, Rank.KING, Rank.QUEEN]
    for suit in Suit:
        main = [Card(rank, suit) for rank in Rank]
        side = [Card(rank, s) for s in Suit if s is not suit for rank in high]
        sizes = {"one-suit": (5,), "two-suit": (4,), "side-aces": (1, 2, 3)}[kind]
        for k in sizes:
            for trumps in itertools.combinations(main, k):
                for rest in itertools.combinations(side, 5 - k):
                    cards = (*trumps, *rest)
                    if nap_kind(cards) == kind:
                        found.add(frozenset(cards))
    return tuple(sorted((tuple(sorted(h, key=order.__getitem__)) for h in found), key=lambda h: [order[c] for c in h]))


@dataclass(frozen=True)
class NapStudy:
    """How often a Nap called on a hand of ``kind`` was made at a table of ``seats``, with Wilson's interval."""

    kind: str
    seats: int
    n: int
    seed: int
    made: int
    rate: Estimate
    hands: tuple[tuple[Card, ...], ...]  # the caller's five cards in each trial
    tricks: tuple[int, ...]  # tricks the caller took before the hand stopped (NAP-PLAY-06)


def nap_trial(cards: Sequence[Card], rest: Sequence[Card], *, seats: int, preset: str = "hoffmann") -> NapHand:
    """A Nap called by the eldest hand (seat 0) on ``cards``, the others dealt ``rest`` in turn, played out.

    Nobody can overcall a Nap at the default rules (no Wellington), so the others pass; then every
    seat plays by the rule of thumb (:class:`loo.games.nap.bots.NapThumbBot`: the caller leads trumps from
    the top, the defence leads trumps only when he needs one more trick).
    """
    rules = NapRules.preset(preset)
    others = [list(rest[5 * i : 5 * i + 5]) for i in range(seats - 1)]
    hand = NapHand(rules, hands=[list(cards), *others], dealer=seats - 1)
    hand.push(Action(0, "call", "nap"))
    nap_playout(hand, random.Random(0))
    return hand


def nap_study(hands: int, seed: int, *, kind: str = "one-suit", seats: int = 3, preset: str = "hoffmann") -> NapStudy:
    """``hands`` Nap calls on hands of ``kind`` drawn uniformly, at a table of ``seats``.

    Trial *i* draws the caller's hand and shuffles the rest of the pack from
    ``random.Random(deal_seed(seed, i))``; the defenders take the shuffled cards in order, so the
    same seed gives the same caller's hands at every size of table (a paired comparison).
    """
    if hands < 10:
        raise ValueError(f"the study needs at least ten hands, not {hands}")
    if not 2 <= seats <= 10:
        raise ValueError(f"Nap is for 2 to 10 players here, not {seats}")
    pool = nap_hands(kind)
    pack = full_pack()
    made = 0
    dealt: list[tuple[Card, ...]] = []
    tricks: list[int] = []
    for i in range(hands):
        rng = random.Random(deal_seed(seed, i))
        cards = pool[int(rng.random() * len(pool))]
        rest = [c for c in pack if c not in cards]
        rng.shuffle(rest)
        hand = nap_trial(cards, rest, seats=seats, preset=preset)
        settlement = hand.settlement
        assert settlement is not None
        made += bool(settlement.made)
        dealt.append(cards)
        tricks.append(settlement.tricks_won[0])
    return NapStudy(
        kind=kind,
        seats=seats,
        n=hands,
        seed=seed,
        made=made,
        rate=wilson_interval(made, hands),
        hands=tuple(dealt),
        tricks=tuple(tricks),
    )


__all__ = [
    "ARMS",
    "BOOK",
    "NAP_KINDS",
    "BookSizes",
    "EldestDeal",
    "Estimate",
    "NapStudy",
    "PairedEstimate",
    "PoolGrowth",
    "deal_seed",
    "eldest_hand",
    "eldest_miss_study",
    "eldest_miss_sweep",
    "limited_bound",
    "mean_interval",
    "median_interval",
    "nap_hands",
    "nap_kind",
    "nap_study",
    "nap_trial",
    "net_at_pool",
    "pool_growth_study",
    "wilson_interval",
]
