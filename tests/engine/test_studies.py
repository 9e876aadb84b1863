"""The book's studies (loo.analysis.studies): properties, not numbers.

The same seed gives the same result; the two arms of the eldest-hand study play the very same
deals; an interval holds its estimate and narrows as the sample grows; a limited pool grows no
faster than the stakes allow while an unlimited one can; every Nap hand meets its definition.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import pytest

from loo.analysis.studies import (
    NAP_KINDS,
    Estimate,
    deal_seed,
    eldest_hand,
    eldest_miss_study,
    eldest_miss_sweep,
    limited_bound,
    mean_interval,
    median_interval,
    nap_hands,
    nap_kind,
    nap_study,
    net_at_pool,
    pool_growth_study,
    wilson_interval,
)
from loo.core.cards import Rank, full_pack
from loo.games.loo.rules import Rules
from loo.games.nap.bots import three_handed_nap
from widgets.book import play_hand


def holds(e: Estimate) -> bool:
    return e.low <= e.estimate <= e.high


# ----- intervals ------------------------------------------------------------------------------------


def test_mean_interval_holds_its_mean_and_narrows() -> None:
    rng = random.Random(1)
    xs = [rng.gauss(0.0, 1.0) for _ in range(4000)]
    small, large = mean_interval(xs[:100]), mean_interval(xs)
    assert holds(small) and holds(large)
    assert large.half_width < small.half_width
    assert large.half_width == pytest.approx(small.half_width * math.sqrt(100 / 4000), rel=0.2)
    assert large.method == "normal" and large.n == 4000


def test_wilson_interval_stays_in_zero_to_one_and_narrows() -> None:
    for k, n in [(0, 10), (10, 10), (3, 7), (500, 1000)]:
        e = wilson_interval(k, n)
        assert 0.0 <= e.low <= e.estimate <= e.high <= 1.0
    assert wilson_interval(0, 10).low == 0.0 and wilson_interval(10, 10).high == 1.0
    assert wilson_interval(5000, 10000).half_width < wilson_interval(50, 100).half_width
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_median_interval_is_between_order_statistics() -> None:
    xs = [float(x) for x in random.Random(2).sample(range(10_000), 999)]
    e = median_interval(xs)
    assert holds(e) and e.low in xs and e.high in xs
    below = sum(1 for x in xs if x < e.low)
    above = sum(1 for x in xs if x > e.high)
    assert abs(below - above) <= 2 and below > 400


# ----- 1. the eldest hand and the miss --------------------------------------------------------------


def test_eldest_study_same_seed_same_result_and_seeds_differ() -> None:
    a = eldest_miss_study(60, 5)
    b = eldest_miss_study(60, 5)
    c = eldest_miss_study(60, 6)
    assert a == b
    assert a.deals != c.deals
    assert [d.seed for d in a.deals] == [deal_seed(5, i) for i in range(60)]


def test_eldest_arms_play_the_same_deals() -> None:
    study = eldest_miss_study(40, 7, pool=3)
    for d in study.deals[:15]:
        took = eldest_hand(d.seed, "miss")
        ruled = eldest_hand(d.seed, "rule")
        # the same cards were dealt, to the same seats, with the same miss and turn-up
        assert took.dealt == ruled.dealt and took.miss == ruled.miss and took.turnup == ruled.turnup
        assert took.declared(0) == "miss"
        assert ruled.declared(0) == ("stand" if d.strong else "throw")
        assert took.settlement is not None and ruled.settlement is not None
        assert (took.settlement.net()[0], ruled.settlement.net()[0]) == (d.miss_net, d.rule_net)


def test_eldest_hand_is_the_book_s_example_hand() -> None:
    """A deal of the study shown in the book through widgets.book.play_hand ends the same way."""
    for i in range(8):
        seed = deal_seed(13, i)
        for arm, actions in [("miss", [{"seat": 0, "declare": "miss"}]), ("rule", [])]:
            shown = play_hand("three-card-loo", "enquire-within", seed=seed, seats=5, pool=3, actions=actions)
            assert shown.settlement == eldest_hand(seed, arm).settlement


def test_eldest_estimate_is_the_mean_paired_difference_with_its_interval() -> None:
    study = eldest_miss_study(200, 3)
    diffs = [d.miss_net - d.rule_net for d in study.deals]
    assert study.estimate == pytest.approx(sum(diffs) / len(diffs))
    assert study.difference.low <= study.estimate <= study.difference.high
    assert study.miss.estimate - study.rule.estimate == pytest.approx(study.estimate)
    assert study.weak.n + study.strong.n == study.n == 200
    for e in (study.miss, study.rule, study.weak, study.strong, study.looed):
        assert holds(e)
    assert all(d.rule_net == 0 for d in study.deals if not d.strong)  # throwing up costs and wins nothing
    assert all(d.miss_net < 0 for d in study.deals if d.miss_looed)


def test_eldest_interval_narrows_as_deals_grow() -> None:
    small = eldest_miss_study(100, 11)
    large = eldest_miss_study(900, 11)
    assert (large.high - large.low) < (small.high - small.low)


def test_pricing_at_another_pool_matches_playing_for_it() -> None:
    sweep = eldest_miss_sweep(30, 9, (3, 12, 20))
    for study in sweep[1:]:
        for d in study.deals[:10]:
            took = eldest_hand(d.seed, "miss", pool=study.pool)
            ruled = eldest_hand(d.seed, "rule", pool=study.pool)
            assert took.settlement is not None and ruled.settlement is not None
            assert (took.settlement.net()[0], ruled.settlement.net()[0]) == (d.miss_net, d.rule_net)
    three = eldest_hand(sweep[0].deals[0].seed, "miss", pool=3).settlement
    assert three is not None and net_at_pool(three, 0, 3) == three.net()[0]
    assert [s.pool for s in sweep] == [3, 12, 20]
    assert eldest_miss_study(30, 9, pool=12) == sweep[1]


def test_the_sweep_refuses_rules_whose_play_depends_on_the_pool() -> None:
    with pytest.raises(ValueError):
        eldest_miss_sweep(20, 1, (3, 6), preset="britannica")  # the Bold Stand: all play on the dealer's stake


# ----- 2. the pool, limited and unlimited -----------------------------------------------------------


def test_pool_growth_same_seed_same_result() -> None:
    assert pool_growth_study(12, 8, 4) == pool_growth_study(12, 8, 4)
    assert pool_growth_study(12, 8, 4).pools != pool_growth_study(12, 8, 5).pools


def test_a_limited_pool_grows_no_faster_than_the_stakes_allow_and_an_unlimited_one_can() -> None:
    limited = pool_growth_study(40, 25, 1, mode="limited")
    unlimited = pool_growth_study(40, 25, 1, mode="unlimited")
    rules = Rules.preset("peel")
    bound = limited_bound(rules, 5)
    for pools, loos in zip(limited.pools, limited.loos, strict=True):
        assert all(loo <= 4 * max(rules.loo_amount, rules.single_loo) for loo in loos)
        assert all(b - a <= bound for a, b in itertools.pairwise(pools))
    jumps = [b - a for pools in unlimited.pools for a, b in itertools.pairwise(pools)]
    assert max(jumps) > bound
    assert max(unlimited.peaks) > max(limited.peaks)
    # the rule of thumb ignores the pool, so both modes play the same hands: only the money differs
    assert limited.loo_free == unlimited.loo_free
    assert [[loo > 0 for loo in g] for g in limited.loos] == [[loo > 0 for loo in g] for g in unlimited.loos]


def test_pool_growth_summaries() -> None:
    study = pool_growth_study(30, 10, 2, mode="unlimited")
    assert study.games == len(study.pools) == 30 and all(len(p) == 10 for p in study.pools)
    assert all(lo <= m <= hi for lo, m, hi in zip(study.low, study.median, study.high, strict=True))
    assert holds(study.final) and holds(study.loo_free)
    assert study.share_ever_above(0).estimate == 1.0
    assert study.share_above(9, max(study.at(9))).estimate == 0.0
    assert all(p[0] == Rules.preset("peel").deal_price for p in study.pools)  # each game opens with the deal's stake


# ----- 3. Nap ---------------------------------------------------------------------------------------


def test_every_nap_hand_meets_its_definition() -> None:
    for kind in NAP_KINDS:
        hands = nap_hands(kind)
        assert len(set(hands)) == len(hands)
        for cards in hands:
            assert len(set(cards)) == 5 and three_handed_nap(cards) and nap_kind(cards) == kind
    one = nap_hands("one-suit")
    assert len(one) == 4 * (math.comb(13, 5) - math.comb(9, 5))
    assert all(len({c.suit for c in h}) == 1 and max(c.rank for c in h) >= Rank.KNAVE for h in one)
    two = nap_hands("two-suit")
    assert len(two) == 4 * (math.comb(13, 4) - math.comb(9, 4)) * 3 * 3


def test_the_nap_kinds_are_exactly_the_advice_s_hands() -> None:
    """A random hand the engine's three-handed advice approves is in exactly one kind's list."""
    lists = {kind: set(nap_hands(kind)) for kind in NAP_KINDS}
    order = {c: i for i, c in enumerate(full_pack())}
    rng = random.Random(3)
    pack = list(full_pack())
    approved = 0
    for _ in range(20_000):
        cards = tuple(sorted(rng.sample(pack, 5), key=order.__getitem__))
        kinds = [kind for kind, hands in lists.items() if cards in hands]
        assert len(kinds) == (1 if three_handed_nap(cards) else 0)
        approved += bool(kinds)
    assert approved > 100


def test_nap_study_hands_meet_the_definition_and_repeat() -> None:
    study = nap_study(80, 2, kind="two-suit", seats=3)
    assert study == nap_study(80, 2, kind="two-suit", seats=3)
    assert all(nap_kind(h) == "two-suit" for h in study.hands)
    assert study.made == sum(1 for t in study.tricks if t == 5)
    assert holds(study.rate) and study.rate.method == "wilson"
    # the same seed deals the caller the same hands at every size of table
    assert nap_study(80, 2, kind="two-suit", seats=5).hands == study.hands


def test_nap_interval_narrows_as_hands_grow() -> None:
    small = nap_study(50, 8)
    large = nap_study(800, 8)
    assert large.rate.half_width < small.rate.half_width
    assert holds(large.rate)


def test_study_results_are_frozen() -> None:
    study = nap_study(20, 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        study.made = 0  # type: ignore[misc]
