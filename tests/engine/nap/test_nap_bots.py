"""Nap bots (loo/games/nap/bots.py): legal, repeatable, blind to what their seat cannot see, and true to the advice."""

from __future__ import annotations

import gc
import random
import subprocess
import sys
import weakref
from typing import Any

import pytest

from loo.core.actions import Action
from loo.core.bots import RandomBot
from loo.core.cards import Card, full_pack, parse_cards
from loo.games.nap.bots import (
    BOTS,
    NapSamplingBot,
    NapThumbBot,
    determinize,
    make_bot,
    misery_hand,
    three_handed_nap,
)
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import NapRules
from loo.games.nap.state import NapPhase, NapView
from loo.kits import kit
from tests.helpers import playing
from tests.helpers.nap_helpers import nap, push

VARIANTS = {
    "orthodox": NapRules(),
    "wellington-misery": NapRules(wellington=True, misery=True),
    "misery-trumps": NapRules(misery=True, misery_trumps="first-lead"),  # type: ignore[arg-type]
    "sir-garnet": NapRules(sir_garnet=True),
    "peep": NapRules(peep=True),
    "purchase": NapRules(purchase=True, misery=True),
    "kitty": NapRules(kitty_mode="knave-or-five", failed_nap_doubles_pool=True),  # type: ignore[arg-type]
}


def play_out(hand: NapHand, bots: list[Any], rng: random.Random) -> list[Action]:
    """Play to the end through the checked path, every choice from the view's legal list: the actions."""
    return playing.play_out(hand, rng, bots).actions


def test_the_three_bots_are_named_and_reachable_from_the_games_kit() -> None:
    assert set(BOTS) == {"random", "thumb", "sampling"}
    assert kit("nap").bot_names == tuple(sorted(BOTS))
    assert isinstance(kit("nap").make_bot("thumb"), NapThumbBot)
    assert isinstance(make_bot("thumb"), NapThumbBot)
    # The rules do not import their bots: the two modules do not import each other.
    script = "import sys, loo.games.nap.game, loo.games.nap.record; print('loo.games.nap.bots' in sys.modules)"
    imported = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
    )
    assert imported.stdout.strip() == "False"
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_random_and_thumb_bots_only_play_legal_actions(variant: str, seats: int) -> None:
    rules = VARIANTS[variant]
    for seed in range(25):
        hand = NapHand.deal(rules, random.Random(seed), seats=seats, dealer=seed % seats)
        bots = [RandomBot() if (seed + s) % 2 else NapThumbBot() for s in range(seats)]
        play_out(hand, bots, random.Random(seed))
        assert hand.settlement is not None


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_sampling_bot_only_plays_legal_actions(variant: str) -> None:
    for seed in range(2):
        hand = NapHand.deal(VARIANTS[variant], random.Random(seed), seats=4, dealer=seed)
        bots = [NapSamplingBot(samples=3) if s % 2 == 0 else NapThumbBot() for s in range(4)]
        play_out(hand, bots, random.Random(seed))


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_are_deterministic_for_a_seeded_rng(name: str) -> None:
    def game(seed: int) -> list[Action]:
        bots = [NapSamplingBot(samples=3, budget=60.0) if name == "sampling" else make_bot(name) for _ in range(4)]
        return play_out(NapHand.deal(NapRules(misery=True), random.Random(3), seats=4, dealer=3), bots,
                        random.Random(seed))  # fmt: skip

    assert game(1) == game(1)


def test_the_sampling_bot_plays_whole_hands_legally_under_the_variants() -> None:
    """The SamplingBot at every seat, with Wellington and Misery, and with Peep; its speed is
    measured by ``bench/bots.py --games nap`` (a benchmark, not a timed test). Four worlds a decision
    rather than the default: the same code chooses, among the same legal actions, in less time."""
    for seed, rules in enumerate([NapRules(), NapRules(wellington=True, misery=True), NapRules(peep=True)]):
        hand = NapHand.deal(rules, random.Random(seed), seats=4, dealer=3)
        rng = random.Random(seed)
        bot = NapSamplingBot(samples=4)
        play_out(hand, [bot] * hand.n, rng)
        assert hand.settlement is not None


def test_the_bots_need_nothing_but_the_view_and_act_only_in_turn() -> None:
    hand = NapHand.deal(NapRules(misery=True), random.Random(21), seats=4, dealer=3)
    view = hand.view(0)
    other = hand.view(1)
    alive = weakref.ref(hand)
    del hand
    gc.collect()
    assert alive() is None  # a view holds no reference to its hand
    assert NapSamplingBot(samples=4).choose(view, random.Random(0)) in view.legal
    for bot in (RandomBot(), NapThumbBot(), NapSamplingBot(samples=1)):
        with pytest.raises((ValueError, IndexError)):
            bot.choose(other, random.Random(0))  # type: ignore[arg-type]


def test_the_bots_cannot_tell_apart_deals_that_look_the_same_from_their_seat() -> None:
    # Ben and Cat swap their hands: Ann's view is the same, so every bot must choose the same for her.
    one = nap("AS KS QS 2H 3D | 9S 8H 7H 2C 4D | JS 10S AH KD 5C | 3S 6H QD 9C 10C", misery=True)
    two = nap("AS KS QS 2H 3D | JS 10S AH KD 5C | 9S 8H 7H 2C 4D | 3S 6H QD 9C 10C", misery=True)
    assert one.view(0) == two.view(0)
    for bot in (RandomBot(), NapThumbBot(), NapSamplingBot(samples=6)):
        assert bot.choose(one.view(0), random.Random(4)) == bot.choose(two.view(0), random.Random(4))  # type: ignore[arg-type]


def _points(rules: NapRules, seeds: range) -> list[tuple[NapHand, NapView, tuple[NapView, ...]]]:
    out = []
    for seed in seeds:
        hand = NapHand.deal(rules, random.Random(seed), seats=4, dealer=seed % 4)
        rng = random.Random(seed)
        while not hand.is_over:
            seat = hand.to_act or 0
            view = hand.view(seat)
            out.append((NapHand.__new__(NapHand), view, tuple(hand.view(p) for p in range(4))))
            out[-1][0].__dict__.update(hand.__dict__)
            out[-1][0]._s = hand._s.copy()
            hand.push(NapThumbBot().choose(view, rng) if seed % 2 else rng.choice(view.legal))
    return out


@pytest.mark.parametrize("variant", ["orthodox", "peep", "purchase", "sir-garnet", "wellington-misery"])
def test_determinize_keeps_the_public_table_and_deals_only_unseen_cards(variant: str) -> None:
    for i, (real, view, views) in enumerate(_points(VARIANTS[variant], range(12))):
        world = determinize(view, random.Random(i))
        assert world.view(view.seat) == view
        for p in range(4):
            mine, theirs = world.view(p), views[p]
            assert (mine.calls, mine.caller, mine.trump, mine.tricks, mine.current, mine.hand_sizes, mine.to_act,
                    mine.peeped, mine.purchased, mine.pool_paid) == (theirs.calls, theirs.caller, theirs.trump,
                    theirs.tricks, theirs.current, theirs.hand_sizes, theirs.to_act, theirs.peeped, theirs.purchased,
                    theirs.pool_paid)  # fmt: skip
        seen = set(view.hand) | set(view.put_out) | {c for t in view.tricks for _, c in t.plays}
        seen |= {c for _, c in view.current}
        others = [c for p in range(4) if p != view.seat for c in world.holding(p)]
        assert len(others) == len(set(others))
        assert seen.isdisjoint(others) or (view.peep_card is not None and set(others) & seen <= {view.peep_card})
        # voids shown in play hold in the sample (NAP-PLAY-02)
        for t in [*view.tricks]:
            led = t.plays[0][1].suit
            for p, c in t.plays[1:]:
                if c.suit is not led and p != view.seat:
                    assert all(x.suit is not led for x in world.holding(p))
        assert set(full_pack()) >= set(others)
        assert real.n == 4


def test_determinize_refuses_a_finished_hand() -> None:
    hand = push(nap(), "0 3", "1 pass", "2 pass", "3 pass", "0 AS", "1 9S", "2 JS", "3 3S", "0 KS", "1 2C",
                "2 10S", "3 9C", "0 QS", "1 8H", "2 5C", "3 10C")  # fmt: skip
    with pytest.raises(ValueError, match="over"):
        determinize(hand.view(0), random.Random(0))


# ----- the rules of thumb --------------------------------------------------------------------------


@pytest.mark.law("NAP-STR-01", "NAP-STR-02", "NAP-STR-03")
def test_NAP_STR_01_02_03_three_handed_nap_calls() -> None:
    assert three_handed_nap(parse_cards("QS 7S 5S 3S 2S"))  # NAP-STR-01: one suit headed by an honour
    assert not three_handed_nap(parse_cards("9S 7S 5S 3S 2S"))
    assert three_handed_nap(parse_cards("KH 9H 6H 2H QC"))  # NAP-STR-02: four and an honour, plus a queen
    assert not three_handed_nap(parse_cards("KH 9H 6H 2H 10C"))
    assert three_handed_nap(parse_cards("AS QS 9S AH KD"))  # NAP-STR-03: the plain cards aces or kings
    assert not three_handed_nap(parse_cards("AS QS 9S AH QD"))
    hand = nap("QS 7S 5S 3S 2S | AH KH 4C 6D 8D | 9C 10C JC QC KC", dealer=2)
    assert NapThumbBot().choose(hand.view(0), random.Random(0)) == Action(0, "call", "nap")


STR4 = "AS 2S 3H 4H 5H | KS 8C 9C AD 6H | QS JS 7H 8H 10C | 10S QD KD JD 2C"
STR4_PLAY = ("0 AS", "1 KS", "2 QS", "3 10S", "0 3H", "1 6H", "2 8H", "3 2C")


@pytest.mark.law("NAP-STR-04")
def test_NAP_STR_04_lead_trumps_against_a_caller_who_needs_one_more_trick() -> None:
    h = push(nap(STR4), "0 2", "1 pass", "2 pass", "3 pass", *STR4_PLAY)
    assert h.to_act == 2 and [t.winner for t in h.tricks] == [0, 2]
    assert NapThumbBot().choose(h.view(2), random.Random(0)) == Action.play(2, "JS")  # Ann needs one more
    h = push(nap(STR4), "0 3", "1 pass", "2 pass", "3 pass", *STR4_PLAY)
    assert NapThumbBot().choose(h.view(2), random.Random(0)).value.suit.letter != "S"  # two more: leave trumps


@pytest.mark.law("NAP-STR-05")
def test_NAP_STR_05_discard_from_the_shortest_and_weakest_suit() -> None:
    h = push(nap("AS KS 2C 3C 4C | 9D 8D 7D 2H 3H | 10C 7H 8H JD 5D | QS QD KD 9H 10H"),
             "0 2", "1 pass", "2 pass", "3 pass", "0 AS")  # fmt: skip
    # Ben has no spade: of his diamonds and hearts, the hearts are the shorter suit, so the two of hearts goes.
    assert NapThumbBot().choose(h.view(1), random.Random(0)) == Action.play(1, "2H")


MISERY = "2S 3H 4H 5H 6H | AS KS QS 8D 9D | JS 10S 9S AD KD | 2C 3C 4C 5C 6C"


@pytest.mark.law("NAP-STR-06", "NAP-MIS-06")
def test_NAP_STR_06_NAP_MIS_06_misery_leads_and_discards() -> None:
    h = nap(MISERY, misery=True)
    assert misery_hand(h.holding(0))
    assert NapThumbBot().choose(h.view(0), random.Random(0)) == Action(0, "call", "misery")
    push(h, "0 misery", "1 pass", "2 pass", "3 pass")
    assert NapThumbBot().choose(h.view(0), random.Random(0)) == Action.play(0, "2S")  # NAP-MIS-06: the singleton
    push(h, "0 3H", "1 8D")
    # Cat is void in hearts: the highest card of her shortest suit (NAP-STR-06), the ace of diamonds.
    assert NapThumbBot().choose(h.view(2), random.Random(0)) == Action.play(2, "AD")


@pytest.mark.law("NAP-PEEP-06")
def test_NAP_PEEP_06_after_a_nap_the_later_players_peep() -> None:
    h = push(nap(peep=True, peep_card="AD"), "0 nap")
    assert NapThumbBot().choose(h.view(1), random.Random(0)) == Action(1, "peep", True)


def test_the_rule_of_thumb_beats_random_play() -> None:
    rng = random.Random(9)
    total = 0
    for i in range(300):
        hand = NapHand.deal(NapRules(misery=True), rng, seats=4, dealer=i % 4)
        bots: list[Any] = [NapThumbBot(), RandomBot(), RandomBot(), RandomBot()]
        play_out(hand, bots, rng)
        assert hand.settlement is not None
        total += hand.settlement.net()[0]
    assert total > 0


def test_sampling_bot_rejects_no_samples() -> None:
    with pytest.raises(ValueError):
        NapSamplingBot(samples=0)
    view = nap().view(0)
    first = NapSamplingBot(samples=2).values(view, random.Random(0))[0][0]
    assert first == NapThumbBot().choose(view, random.Random(0))
    assert isinstance(view.hand[0], Card) and view.phase is NapPhase.CALL
