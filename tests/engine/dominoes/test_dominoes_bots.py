"""The domino bots: random-legal, the rules of thumb and the sampling player, each seeing only its seat's view."""

from __future__ import annotations

import random
from typing import Any

import pytest

from loo.core.actions import Action
from loo.core.bots import RandomBot
from loo.core.hand import Phase
from loo.games.dominoes import (
    BOTS,
    DominoHand,
    DominoRules,
    DominoSamplingBot,
    DominoThumbBot,
    DominoView,
    determinize,
)
from loo.games.dominoes.bots import _forbidden
from tests.helpers import playing
from tests.helpers.dominoes_helpers import make, push, tiles


def play_out(hand: DominoHand, bots: list[Any], rng: random.Random) -> list[Action]:
    """Play to the end through the checked path, every choice from the view's legal list: the actions."""
    return list(playing.play_out(hand, rng, bots).actions)


def views_of(preset: str, seeds: range, seats: int) -> list[tuple[DominoHand, DominoView]]:
    """Every decision of thumb-played hands, with a copy of the hand at that moment."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        hand = DominoHand.deal(DominoRules.preset(preset), rng, seats=seats, dealer=seed % seats, pool=25)
        bot = DominoThumbBot()
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            out.append((hand.clone(), view))
            hand.push(bot.choose(view, rng))
    return out


@pytest.mark.parametrize("preset", ["celko", "rounce"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_and_thumb_bots_only_play_legal_actions(preset: str, seats: int) -> None:
    rng = random.Random(seats)
    for i in range(30):
        hand = DominoHand.deal(DominoRules.preset(preset), rng, seats=seats, dealer=i % seats, pool=25)
        bots: list[object] = [BOTS["random"]() if (i + s) % 2 else BOTS["thumb"]() for s in range(seats)]
        play_out(hand, bots, rng)
        assert hand.settlement is not None


@pytest.mark.parametrize(("preset", "seats"), [("celko", 4), ("celko", 2), ("rounce", 3), ("rounce", 4)])
def test_sampling_bot_only_plays_legal_actions(preset: str, seats: int) -> None:
    """Whole hands decided by the SamplingBot at every seat; its speed is measured by
    ``bench/bots.py --games dominoes`` (a benchmark, not a timed test). Four worlds a decision rather
    than the default twenty: the same code chooses, among the same legal actions, in a fifth of the time."""
    rng = random.Random(1)
    for i in range(4):
        hand = DominoHand.deal(DominoRules.preset(preset), rng, seats=seats, dealer=i % seats, pool=25)
        bot = DominoSamplingBot(samples=4)
        play_out(hand, [bot] * hand.n, rng)
        assert hand.settlement is not None


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_are_deterministic_for_a_seeded_rng(name: str) -> None:
    def game(seed: int) -> list[Action]:
        rng = random.Random(seed)
        hand = DominoHand.deal(DominoRules(), rng, seats=4, dealer=3, pool=25)
        bot = BOTS[name](samples=4) if name == "sampling" else BOTS[name]()
        return play_out(hand, [bot] * 4, rng)

    assert game(3) == game(3)


def test_the_bots_by_name_and_their_mistakes() -> None:
    assert set(BOTS) == {"random", "thumb", "sampling"} and BOTS["random"] is RandomBot
    with pytest.raises(ValueError, match="not its turn"):
        DominoThumbBot().choose(make().view(2), random.Random(0))
    with pytest.raises(ValueError, match="samples"):
        DominoSamplingBot(samples=0)
    with pytest.raises(ValueError, match="rollout"):
        DominoSamplingBot(rollout="clever")
    hand = make()
    assert DominoSamplingBot(samples=2, rollout="random").choose(hand.view(0), random.Random(1)) in hand.legal_actions()


def test_determinize_mirrors_the_view_and_respects_what_play_reveals() -> None:
    for preset, seats in (("celko", 4), ("celko", 3), ("rounce", 4), ("rounce", 2)):
        for hand, view in views_of(preset, range(25), seats):
            if view.phase is Phase.DONE:
                continue
            forbidden = _forbidden(view)
            for k in range(2):  # two worlds at each of some 1,900 decisions
                world = determinize(view, random.Random(k))
                assert world.view(view.seat) == view
                assert world.legal_actions() == hand.legal_actions()
                for p in range(seats):
                    if p != view.seat:
                        assert not set(world.holding(p)) & forbidden[p]
                        assert len(world.holding(p)) == len(hand.holding(p))
                    # what is really held must never have been ruled out
                    assert not set(hand.holding(p)) & forbidden[p]
                world.push_unchecked(world.legal_actions()[0])
    with pytest.raises(ValueError, match="over"):
        hand = make()
        push(hand, "0 throw", "1 throw", "2 throw")
        determinize(hand.view(0), random.Random(0))


def test_the_sampling_bot_needs_nothing_but_the_view() -> None:
    """Two hands that look the same to Ann get the same choice from her, whatever the others hold."""
    one = make("5-3 4-4 2-1 1-0 0-0 | 6-6 6-5 3-3 2-2 1-1 | 6-4 4-0 5-5 5-0 3-0", turnup="6-0", stock="")
    two = make("5-3 4-4 2-1 1-0 0-0 | 6-4 4-0 5-5 5-0 3-0 | 6-6 6-5 3-3 2-2 1-1", turnup="6-0", stock="")
    for hand in (one, two):
        push(hand, "0 stand", "1 stand", "2 stand")
    assert one.view(0) == two.view(0)
    bot = DominoSamplingBot(samples=6)
    assert bot.choose(one.view(0), random.Random(9)) == bot.choose(two.view(0), random.Random(9))


def test_thumb_bot_keeps_its_rules() -> None:
    bot, rng = DominoThumbBot(), random.Random(0)
    # DL-DECL-01: a strong hand plays; DL-DECL-02: a weak one takes the miss; DL-DECL-05: else drops out
    hand = make("6-6 6-5 1-0 2-0 3-0 | 2-1 3-1 4-1 3-2 4-2 | 4-3 3-3 2-2 0-0 5-0 | 6-3 6-2 1-1 5-5 4-0",
                turnup="6-0", stock="5-4 5-3 5-2 5-1 4-4 6-4 6-1")  # fmt: skip
    assert bot.choose(hand.view(0), rng) == Action.declare(0, "stand")
    push(hand, "0 stand")
    assert bot.choose(hand.view(1), rng) == Action.declare(1, "miss")
    push(hand, "1 miss")
    assert bot.choose(hand.view(2), rng) == Action.declare(2, "throw")
    push(hand, "2 throw")
    # DL-DLR-01: the dealer takes the turn-up for his weakest tile
    assert bot.choose(hand.view(3), rng) == Action(3, "take-turnup", tiles("4-0")[0])
    # DL-DLR-03, DL-DLR-06: a weak dealer against a lone miss plays for the pool
    weak = make("6-6 6-5 1-0 2-0 3-0 | 2-1 3-1 4-1 3-2 4-2 | 4-3 3-3 2-2 0-0 5-0 | 6-1 1-1 5-2 4-0 5-1",
                turnup="6-0", stock="6-4 6-3 6-2 5-5 5-4 5-3 4-4", dealer_takes_turnup=False)  # fmt: skip
    push(weak, "0 miss", "1 throw", "2 throw")
    assert bot.choose(weak.view(3), rng) == Action(3, "for-pool", True)
    # DL-LEAD-04: a plain lead is announced in the suit where it stands highest
    lead = push(make("5-1 0-0 2-0 3-0 4-0 | 6-6 6-5 3-3 2-2 1-1", turnup="6-4"), "0 stand", "1 stand")
    assert bot.choose(lead.view(0), rng) in (Action(0, "play", tiles("5-1")[0], suit=1),
                                             Action(0, "play", tiles("0-0")[0]))  # fmt: skip
    # DL-PLAY-04: follow with the cheapest winner, else the weakest tile
    follow = push(make("5-3 0-0 1-0 2-0 3-1 | 5-5 5-4 4-1 5-1 2-2", turnup="6-0"), "0 stand", "1 stand", "0 5-3/5")
    assert bot.choose(follow.view(1), rng) == Action(1, "play", tiles("5-4")[0])
