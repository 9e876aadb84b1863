"""Loo's hands over random seeds, player counts, options and kinds of deal (hypothesis): no card lost and
the pool's chips accounted for. What every game keeps is tests/engine/test_contract.py's."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from loo.core.cards import full_pack
from loo.core.tricks import FirstLeadRule, WinnerLeadsTrump
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import ClubLawMiss, LoneOpponentRule, LooMode, Pam, PamBeCivil, Rules
from loo.games.loo.state import DealKind

PRESETS = ["peel", "enquire-within", "britannica", "pam", "irish"]


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    rules = Rules.preset(draw(st.sampled_from(PRESETS)))
    changes: dict[str, object] = {
        "loo_mode": draw(st.sampled_from(list(LooMode))),
        "loo_cap": draw(st.integers(1, 30)),
        "first_lead_rule": draw(st.sampled_from(list(FirstLeadRule))),
        "winner_must_lead_trump": draw(st.sampled_from(list(WinnerLeadsTrump))),
        "miss_holder_leads": draw(st.booleans()),
    }
    if rules.game.value != "five-card-loo":
        changes["club_law"] = draw(st.booleans())
        changes["club_law_miss"] = draw(st.sampled_from(list(ClubLawMiss)))
        changes["lone_opponent_rule"] = draw(st.sampled_from(list(LoneOpponentRule)))
    else:
        changes["pam"] = draw(st.sampled_from(list(Pam)))
        changes["pam_be_civil"] = draw(st.sampled_from(list(PamBeCivil)))
        changes["must_option"] = draw(st.booleans())
        changes["dealer_takes_turnup"] = draw(st.booleans())
    applicable = {f.name for f in Rules.options(rules.game)}
    return dataclasses.replace(rules, **{k: v for k, v in changes.items() if k in applicable})  # type: ignore[arg-type]


@st.composite
def hands(draw: st.DrawFn) -> tuple[LooHand, random.Random]:
    rules = draw(rules_strategy())
    seats = draw(st.integers(2, 7))
    rng = random.Random(draw(st.integers(0, 2**32)))
    kinds = [DealKind.NORMAL]
    if rules.game.value == "three-card-loo":
        kinds += [DealKind.SINGLE, DealKind.FINAL]
    kind = draw(st.sampled_from(kinds))
    pool = draw(st.sampled_from([rules.deal_price, rules.deal_price * 2 + 1, 25]))
    hand = LooHand.deal(rules, rng, seats=seats, dealer=draw(st.integers(0, seats - 1)), pool=pool, deal_kind=kind)
    return hand, rng


def cards_everywhere(hand: LooHand) -> Counter[object]:
    """Every card's whereabouts must account for the pack exactly once."""
    s = hand._s
    where: Counter[object] = Counter()
    for held in s.holding:
        where.update(held)
    where.update(s.dead)
    where.update(c for t in s.tricks for _, c in t.plays)
    where.update(c for _, c in s.current)
    if hand.miss and s.miss_taken_by is None and not s.for_pool:
        where.update(hand.miss)
    where.update(hand.stock[s.stock_pos :])
    if not s.turnup_taken:
        where[hand.turnup] += 1
    return where


@settings(max_examples=150, deadline=None)
@given(hands())
def test_every_hand_ends_with_a_legal_action_always_available_and_no_card_lost(
    case: tuple[LooHand, random.Random],
) -> None:
    hand, rng = case
    pack = Counter(full_pack())
    if hand.deal_kind is not DealKind.SINGLE:
        assert cards_everywhere(hand) == pack
    steps = 0
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal, "the seat to act has no legal action"
        assert all(a.seat == hand.to_act for a in legal)
        hand.push(rng.choice(legal))
        if hand.deal_kind is not DealKind.SINGLE:
            assert cards_everywhere(hand) == pack
        steps += 1
        assert steps < 100
    s = hand.settlement
    assert s is not None
    # Chips: what the pool pays out plus what is left equals what it held; loos only feed the next pool.
    assert sum(s.payouts) <= hand.pool and min(s.payouts) >= 0 and min(s.loos) >= 0
    assert s.next_pool == hand.pool - sum(s.payouts) + sum(s.loos)
    if s.direct is not None:
        assert sum(s.direct) == 0
