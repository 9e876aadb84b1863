"""Nap properties over random seeds, player counts and options (hypothesis): no card lost, a teaching
table's careless players, a game of many hands. What every game keeps is tests/engine/test_contract.py's."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from loo.core.actions import CALLS, Action, IllegalActionError
from loo.core.cards import Card, full_pack
from loo.core.rules import RevokeReplay
from loo.games.nap.game import NapGame
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import KittyMode, MiseryTrumps, NapRules
from tests.helpers.playing import finish_hand


@st.composite
def rules_strategy(draw: st.DrawFn) -> NapRules:
    peep, purchase = draw(st.booleans()), draw(st.booleans())
    kitty = KittyMode.NONE if peep or purchase else draw(st.sampled_from(list(KittyMode)))
    return NapRules(
        preset_name=draw(st.sampled_from(["hoffmann", "shilling"])),
        unit=draw(st.sampled_from([1, 6])),
        nap_win=draw(st.sampled_from([10, 12])),
        nap_lose=draw(st.sampled_from([5, 6])),
        min_call=draw(st.integers(1, 5)),
        dealer_forced_one=draw(st.booleans()),
        wellington=draw(st.booleans()),
        misery=draw(st.booleans()),
        misery_trumps=draw(st.sampled_from(list(MiseryTrumps))),
        sir_garnet=draw(st.booleans()),
        peep=peep,
        purchase=purchase,
        kitty_mode=kitty,
        failed_nap_doubles_pool=draw(st.booleans()),
        revoke_replay=draw(st.sampled_from(list(RevokeReplay))),
        out_of_turn_penalty=draw(st.booleans()),
    )


@st.composite
def hands(draw: st.DrawFn, table: bool = False) -> tuple[NapHand, random.Random]:
    rules = draw(rules_strategy())
    seats = draw(st.integers(2, min(7, rules.max_seats())))
    rng = random.Random(draw(st.integers(0, 2**32)))
    hand = NapHand.deal(rules, rng, seats=seats, dealer=draw(st.integers(0, seats - 1)),
                        pool=draw(st.sampled_from([0, 3, 17])), table=table)  # fmt: skip
    return hand, rng


def whereabouts(hand: NapHand) -> Counter[Card]:
    """Every card of the pack, wherever it is now: each must be found exactly once."""
    s = hand._s
    where: Counter[Card] = Counter()
    for held in s.holding:
        where.update(held)
    where.update(s.dead)
    where.update(c for t in s.tricks for _, c in t.plays)
    where.update(c for _, c in s.current)
    where.update(hand.stock[s.stock_pos :])
    if s.garnet_by is None:
        where.update(hand.garnet)
    if hand.peep_card is not None and not s.peep_taken:
        where[hand.peep_card] += 1
    return where


def random_action(hand: NapHand, rng: random.Random) -> Action:
    """Anything a careless player might try: any seat, any verb, any card of the pack."""
    seat = rng.randrange(hand.n)
    card = rng.choice(full_pack())
    own = list(hand.holding(seat))
    return rng.choice([
        Action(seat, "call", rng.choice(CALLS)),
        Action(seat, "play", card),
        Action(seat, "play", rng.choice(own)) if own else Action(seat, "play", card),
        Action(seat, "peep", True),
        Action(seat, "purchase", tuple(own[: rng.randrange(len(own) + 1)])),
        Action(seat, "exchange", (card,)),
        Action(seat, "garnet", tuple(rng.sample(list(full_pack()), 5))),
    ])  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(hands())
def test_every_hand_ends_with_a_legal_action_always_at_hand_and_nothing_lost_or_duplicated(
    case: tuple[NapHand, random.Random],
) -> None:
    hand, rng = case
    full = Counter(full_pack())
    steps = 0
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal, "a seat to act always has a legal action"
        assert legal == hand.legal_actions()  # a stable order
        assert all(hand.why_illegal(a) is None for a in legal)
        assert whereabouts(hand) == full
        view = hand.view(hand.to_act or 0)
        assert view.legal == tuple(legal)
        hand.push(rng.choice(legal))
        steps += 1
        assert steps < 60 + 252
    assert whereabouts(hand) == full and hand.legal_actions() == []
    s = hand.settlement
    assert s is not None
    assert sum(s.stakes) == 0
    assert sum(s.net()) + s.next_pool - hand.pool == 0  # chips conserved
    assert s.next_pool >= 0


@settings(max_examples=80, deadline=None)
@given(hands(table=True))
def test_a_teaching_table_with_careless_players_still_ends_and_balances(case: tuple[NapHand, random.Random]) -> None:
    hand, rng = case
    steps = 0
    while not hand.is_over:
        action = random_action(hand, rng) if rng.random() < 0.3 else rng.choice(hand.legal_actions())
        try:
            hand.push(action)
        except IllegalActionError:
            pass
        steps += 1
        assert steps < 2000
    s = hand.settlement
    assert s is not None and sum(s.stakes) == 0 and sum(s.net()) + s.next_pool - hand.pool == 0
    assert whereabouts(hand) == Counter(full_pack())


@settings(max_examples=40, deadline=None)
@given(rules=rules_strategy(), seats=st.integers(2, 6), seed=st.integers(0, 2**32), count=st.integers(1, 12))
def test_a_game_of_many_hands_conserves_chips_and_passes_the_deal(
    rules: NapRules, seats: int, seed: int, count: int
) -> None:
    seats = min(seats, rules.max_seats())
    rng = random.Random(seed)
    game = NapGame(rules, [f"p{i}" for i in range(seats)], rng, first_dealer=None)
    for _ in range(count):
        dealer = game.dealer
        hand = game.next_hand()
        assert game.conserved() and hand.pool == game.pool and hand.dealer == dealer
        result = finish_hand(game, rng)
        assert game.conserved() and game.pool == result.settlement.next_pool
        passes = result.settlement.reason not in ("redeal", "misdeal")
        assert game.dealer == ((dealer + 1) % seats if passes else dealer)  # NAP-DEAL-06
