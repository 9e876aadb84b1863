"""Computer players for Domino Loo and Domino Rounce: random, rule-of-thumb and determinized Monte Carlo.

A bot sees one seat's :class:`~loo.games.dominoes.hand.DominoView` and nothing else, and draws any
randomness from the ``random.Random`` it is given, so a seeded game is repeatable.
:class:`loo.core.bots.RandomBot` works on any view with ``.legal`` and serves as the random player.

>>> import random
>>> from loo.games.dominoes.hand import DominoHand
>>> from loo.games.dominoes.rules import DominoRules
>>> hand = DominoHand.deal(DominoRules.preset("celko"), random.Random(3), seats=4, dealer=3, pool=25)
>>> bot, rng = DominoThumbBot(), random.Random(0)
>>> while not hand.is_over:
...     hand.push(bot.choose(hand.view(hand.to_act), rng))
>>> sum(hand.settlement.payouts) + hand.settlement.next_pool - sum(hand.settlement.loos)
25
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar

from loo.core.bots import RandomBot
from loo.core.hand import Phase
from loo.core.protocols import Hand
from loo.core.sampling import SamplingPlayer, deal_avoiding
from loo.core.tiles import Tile, full_set
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump
from loo.games.dominoes.declare import declarations, may_play_for_pool
from loo.games.dominoes.hand import DominoHand
from loo.games.dominoes.rules import DominoRules, Variant
from loo.games.dominoes.state import HAND_SIZE, DominoAction, DominoView, act, dummy_sizes
from loo.games.dominoes.suits import (
    follower_tiles,
    followers_of,
    follows,
    lead_choices,
    power,
    powers_of,
    rank_in,
    trumps_of,
)

__all__ = ["BOTS", "DominoSamplingBot", "DominoThumbBot", "determinize"]

SET = full_set()


def _legal(view: DominoView) -> tuple[DominoAction, ...]:
    if not view.legal:
        raise ValueError(f"seat {view.seat} has nothing to choose: it is not its turn to act (to act: {view.to_act})")
    return view.legal


# ----- tile sense ---------------------------------------------------------------------------------


def _value(tile: Tile, trump: int) -> int:
    """How good a tile is to hold: trumps by rank above the rest; a plain tile by its best rank as a lead."""
    if tile.has(trump):
        return 200 + rank_in(tile, trump)
    return 100 + (7 if tile.is_double else tile.high)


def _is_strong(tiles: Sequence[Tile], trump: int) -> bool:
    """Likely to take a trick: two trumps, a high trump (five, six or the double), or a trump and a high double."""
    trumps = [t for t in tiles if t.has(trump)]
    if len(trumps) >= 2 or any(rank_in(t, trump) >= 5 for t in trumps):
        return True
    return bool(trumps) and any(t.is_double and t.high >= 4 for t in tiles)


def _thumb_declare(legal: Sequence[DominoAction], tiles: Sequence[Tile], trump: int, turnup: Tile) -> DominoAction:
    """The rules of thumb for the declarations, each with the law that allows it."""
    declare = {a.value: a for a in legal if a.verb == "declare"}
    for_pool = next((a for a in legal if a.verb == "for-pool"), None)
    swaps = [a for a in legal if a.verb == "take-turnup"]
    if swaps:
        # DL-DLR-01: the turn-up is a trump; a dealer who would then hold a playing hand takes it for his worst tile.
        worst = min(swaps, key=lambda a: _value(a.value, trump))
        kept = [t for t in tiles if t != worst.value]
        if _is_strong([*kept, turnup], trump):
            return worst
    strong = _is_strong(tiles, trump)
    if for_pool is not None and (not strong or "stand" not in declare):
        # DL-DLR-03, DL-DLR-06: against a lone miss a weak dealer plays for the pool: no loo to fear, and the
        # miss cannot take every trick by default.
        return for_pool
    if "stand" in declare and (strong or len(declare) == 1):
        return declare["stand"]  # DL-DECL-01
    if "miss" in declare:
        return declare["miss"]  # DL-DECL-02: a weak hand is worth changing; the miss must then be played
    if "throw" in declare:
        return declare["throw"]  # DL-DECL-05: dropping out costs nothing and cannot be looed
    return declare.get("stand", legal[0])  # two players: a weak hand must still play (AMB-45)


def _thumb_discard(legal: Sequence[DominoAction], trump: int) -> DominoAction:
    """AMB-52: from a dummy keep the five best tiles, discarding the weakest."""
    return min(legal, key=lambda a: sum(_value(t, trump) for t in a.value))


def _beaters(tile: Tile, suit: int, trump: int, unseen: set[Tile], void_rule: VoidRule) -> int:
    """How many unseen tiles would beat ``tile`` led as ``suit`` (a trump counts unless trumping is free)."""
    mine = power(tile, suit, trump)
    count = 0
    for t in unseen:
        p = power(t, suit, trump)
        if p > mine and (follows(t, suit, trump) or void_rule is not VoidRule.FREE):
            count += 1
    return count


def _thumb_lead(options: Sequence[DominoAction], trump: int, unseen: set[Tile], void_rule: VoidRule) -> DominoAction:
    """Lead what is most likely to win, announcing the suit in which the tile stands highest (DL-LEAD-04)."""

    def score(a: DominoAction) -> tuple[int, int]:
        tile: Tile = a.value
        suit = trump if tile.has(trump) else tile.high if tile.is_double else a.suit
        assert suit is not None
        return (_beaters(tile, suit, trump, unseen, void_rule), -power(tile, suit, trump))

    return min(options, key=score)


def _thumb_follow(playable: Sequence[Tile], current: Sequence[tuple[int, Tile]], led: int, trump: int) -> Tile:
    """Win as cheaply as possible; otherwise keep the good tiles and play the weakest (DL-PLAY-04: no duty to beat)."""
    if len(playable) == 1:
        return playable[0]
    best = max(power(t, led, trump) for _, t in current)
    winners = [t for t in playable if power(t, led, trump) > best]
    if winners:
        return min(winners, key=lambda t: power(t, led, trump))
    return min(playable, key=lambda t: (_value(t, trump), power(t, led, trump)))


def _unseen(hand: Sequence[Tile], turnup: Tile, played: set[Tile], put_out: Sequence[Tile]) -> set[Tile]:
    return set(SET) - set(hand) - played - set(put_out) - {turnup}


def _played(tricks: Sequence[Any], current: Sequence[tuple[int, Tile]]) -> set[Tile]:
    return {t for trick in tricks for _, t in trick.plays} | {t for _, t in current}


class DominoThumbBot:
    """The rules of thumb, each tied to the law that makes it possible.

    - Declaring: play a strong hand (two trumps, a trump of five or more, or a trump with a high
      double); change a weak one for the miss (DL-DECL-02), or drop out (DL-DECL-05). A dealer
      takes the turn-up for his weakest tile when that gives him a playing hand (DL-DLR-01), and
      with a weak hand against a lone miss plays for the pool (DL-DLR-03, DL-DLR-06).
    - Discarding from a Rounce dummy: keep the five best tiles (AMB-52).
    - Leading: the tile fewest unseen tiles can beat, announced as the suit in which it ranks
      highest (DL-LEAD-04); the laws already force trumps where they must (DL-LEAD-02/03).
    - Following: win as cheaply as possible, else play the weakest tile (DL-PLAY-04).
    """

    name = "thumb"

    def choose(self, view: DominoView, rng: random.Random) -> DominoAction:
        legal = _legal(view)
        if len(legal) == 1:
            return legal[0]
        trump = view.trump
        if view.phase is Phase.DECLARE:
            return _thumb_declare(legal, view.hand, trump, view.turnup)
        if view.phase is Phase.EXCHANGE:
            return _thumb_discard(legal, trump)
        if not view.current:
            unseen = _unseen(view.hand, view.turnup, _played(view.tricks, view.current), view.put_out)
            return _thumb_lead(legal, trump, unseen, view.rules.void_rule)
        assert view.led is not None
        tile = _thumb_follow([a.value for a in legal], view.current, view.led, trump)
        return next(a for a in legal if a.value == tile)


# ----- determinization -------------------------------------------------------------------------------


def _forbidden(view: DominoView) -> dict[int, set[Tile]]:
    """Tiles each seat cannot hold now, as the laws of play reveal them to the whole table.

    A seat that did not follow the suit led holds none of it (DL-PLAY-01); under the duty to
    trump, one that neither followed nor trumped holds no trump (DL-PLAY-02), and under the
    duty to beat, no trump that would have won. A trick's winner who led a plain tile holds no
    trump (DL-LEAD-03), and where the highest trump must be led, a trump leader holds none higher
    (DL-LEAD-02 with first-lead-rule highest, DL-LEAD-03 with higher).
    """
    rules = view.rules
    trump = view.trump
    out: dict[int, set[Tile]] = {p: set() for p in range(len(view.names))}
    trumps = [t for t in SET if t.has(trump)]
    plays: list[tuple[tuple[tuple[int, Tile], ...], int]] = [(t.plays, t.suit) for t in view.tricks]
    if view.current:
        assert view.led is not None
        plays.append((view.current, view.led))
    for number, (trick, led) in enumerate(plays):
        lead_seat, lead = trick[0]
        higher = {t for t in trumps if rank_in(t, trump) > rank_in(lead, trump)} if lead.has(trump) else set()
        if number > 0 and rules.winner_must_lead_trump is not WinnerLeadsTrump.OFF:
            if not lead.has(trump):
                out[lead_seat].update(trumps)
            elif rules.winner_must_lead_trump is WinnerLeadsTrump.HIGHER:
                out[lead_seat].update(higher)
        if lead.has(trump) and rules.first_lead_rule is FirstLeadRule.HIGHEST:
            out[lead_seat].update(higher)  # with two or more trumps he led the top; with one, he has no other
        for i in range(1, len(trick)):
            seat, tile = trick[i]
            if follows(tile, led, trump):
                continue
            out[seat].update(t for t in SET if follows(t, led, trump))
            if led == trump or tile.has(trump):
                if rules.void_rule is VoidRule.MUST_OVERTRUMP_IF_POSSIBLE and led != trump:
                    best = max(power(t, led, trump) for _, t in trick[:i])
                    if power(tile, led, trump) <= best:
                        out[seat].update(t for t in trumps if power(t, led, trump) > best)
                continue
            if rules.void_rule is VoidRule.MUST_TRUMP:
                out[seat].update(trumps)
            elif rules.void_rule is VoidRule.MUST_OVERTRUMP_IF_POSSIBLE:
                best = max(power(t, led, trump) for _, t in trick[:i])
                out[seat].update(t for t in trumps if power(t, led, trump) > best)
    return out


def _sample(
    pool: list[Tile], sizes: dict[int, int], forbidden: dict[int, set[Tile]], rng: random.Random
) -> tuple[dict[int, list[Tile]], list[Tile]]:
    """Deal ``pool`` to the seats in ``sizes`` avoiding their forbidden tiles
    (:func:`~loo.core.sampling.deal_avoiding`)."""
    return deal_avoiding(pool, sizes, forbidden, rng, attempts=20)


def determinize(view: DominoView, rng: random.Random, tries: int | None = None) -> DominoHand:
    """A full hand at the view's point, its hidden tiles sampled consistently with what the seat knows.

    Unseen tiles are the set less the seat's own hand and discards, the turn-up and every tile
    played; they go to the other seats' current hand sizes (respecting what play has revealed),
    then to the misses or dummies still untaken, and the rest out of play. Everyone knows a dealer
    who took the turn-up holds it until he plays it. The public state is copied from the view.
    A deal is tried again (up to ``tries`` times, :data:`TRIES` unless given) until the other seats,
    dealt so, would have declared and played as they did by the rule of thumb, as the computer players
    at a reader's table do: without that a hint was about a chip too hopeful in play (bench/hints.py
    --calibrate).

    >>> from loo.games.dominoes.rules import DominoRules
    >>> real = DominoHand.deal(DominoRules(), random.Random(5), seats=4, dealer=3, pool=25)
    >>> determinize(real.view(0), random.Random(1)).view(0) == real.view(0)
    True
    """
    if view.phase is Phase.DONE:
        raise ValueError("the hand is over: there is nothing hidden to sample")
    rules = view.rules
    n = len(view.names)
    seat = view.seat
    played = _played(view.tricks, view.current)
    unseen = sorted(_unseen(view.hand, view.turnup, played, view.put_out))
    sizes = {p: view.hand_sizes[p] for p in range(n) if p != seat and view.hand_sizes[p]}
    turnup_held = view.turnup_taken and view.turnup not in played and seat != view.dealer
    if turnup_held:
        sizes[view.dealer] -= 1
    # the stock: filler where misses were already drawn, then the misses to come, then the rest of the boneyard
    stock_len = 28 - HAND_SIZE * n - 1
    taken = len(view.misses_taken)
    drawn = sum(dummy_sizes(n)[:taken]) if rules.game is Variant.ROUNCE else HAND_SIZE * taken
    forbidden = _forbidden(view)
    fallback: tuple[dict[int, list[Tile]], list[Tile]] | None = None
    for _ in range(TRIES if tries is None else tries):
        sampled, rest = _sample(unseen, sizes, forbidden, rng)
        put_out = _declared_as_thumb(view, sampled, rest[stock_len - drawn :])
        if put_out is None:
            continue
        now = {p: [*tiles, view.turnup] if turnup_held and p == view.dealer else tiles for p, tiles in sampled.items()}
        if _played_as_thumb(view, now, put_out):
            break
        fallback = fallback or (sampled, rest)
    else:  # none fits the rule of thumb throughout: the first that fits its declarations, else the last
        sampled, rest = fallback or (sampled, rest)
    holdings = [list(sampled.get(p, ())) for p in range(n)]
    if turnup_held:
        holdings[view.dealer].append(view.turnup)
    holdings[seat] = list(view.hand)
    future = rest[: stock_len - drawn]
    filler = (rest[stock_len - drawn :] + list(view.put_out) + sorted(played) + list(SET))[:drawn]
    return DominoHand.at_view(
        view, holdings=holdings, stock=filler + future, stock_pos=drawn, dead=rest[stock_len - drawn :]
    )


TRIES = 200  # deals of the hidden tiles tried for one whose declarations the rule of thumb would make


def _declared_as_thumb(
    view: DominoView, sampled: dict[int, list[Tile]], dead: Sequence[Tile]
) -> dict[int, list[Tile]] | None:
    """The tiles each other seat put out unseen, if every other seat, dealt as this world has it, would
    have declared what it did by the rule of thumb (:func:`_thumb_declare`), else None: the computer
    players at a reader's table play by it.

    ``sampled`` are the other seats' tiles held now, ``dead`` the hidden tiles out of play, in a
    random order: each seat that threw its hand or changed it for the miss (DL-DECL-02, DL-DECL-05)
    is given the next of them as the hand it put out, and a dealer who took the turn-up the next
    one as his discard (DL-DLR-01). The seats are taken in the order they declared, each with the
    choices it had then (how many misses were left, whether the dealer might play for the pool).
    """
    rules, n, seat, trump, turnup = view.rules, len(view.names), view.seat, view.trump, view.turnup
    dealer = view.dealer
    plays = [pt for trick in view.tricks for pt in trick.plays] + list(view.current)
    rotation = [(dealer + i) % n for i in range(1, n + 1)]
    sizes = dummy_sizes(n) if rules.game is Variant.ROUNCE else ()
    misses = view.misses_left + len(view.misses_taken)
    spare = list(dead)
    taken = 0
    out: dict[int, list[Tile]] = {}
    for p in rotation:
        said = view.declared[p]
        if said is None and not (p == dealer and view.turnup_taken):
            return out  # the rest have not declared yet
        left = misses - taken
        if said == "miss":
            taken += 1
        if p == seat:
            continue
        if said in ("miss", "throw"):
            extra = sizes[taken - 1] - HAND_SIZE if said == "miss" and sizes else 0
            original, out[p], spare = spare[:HAND_SIZE], spare[: HAND_SIZE + extra], spare[HAND_SIZE + extra :]
        else:
            original = list(sampled.get(p, ())) + [t for q, t in plays if q == p]
            if p == dealer and view.turnup_taken:
                original = [t for t in original if t != turnup] + spare[:1]
                out[p], spare = spare[:1], spare[1:]
        if len(original) != HAND_SIZE:
            return out  # a view this reading does not cover: take the world as dealt
        legal = list(_declare_options(p, n, left))
        if p == dealer:
            before = [view.declared[q] for q in rotation[:-1]]
            if may_play_for_pool(rules, seats=n, before_dealer=before, misses_left=left):
                legal.append(act(p, "for-pool", True))
            if rules.dealer_takes_turnup:
                legal.extend(act(p, "take-turnup", t) for t in original)
        if len(legal) == 1:
            continue
        choice = _thumb_declare(legal, original, trump, turnup)
        if p == dealer and view.turnup_taken:
            if choice.verb != "take-turnup" or _value(choice.value, trump) != _value(original[-1], trump):
                return None  # he would have kept his hand, or put out another tile (one of equal worth will do)
            continue  # with the turn-up his hand is strong: he plays for himself, as he did or will
        expected = "for-pool" if said == "for-pool" else said
        if (choice.verb if choice.verb == "for-pool" else choice.value) != expected:
            return None
    return out


@cache
def _declare_options(seat: int, seats: int, misses_left: int) -> tuple[DominoAction, ...]:
    return tuple(act(seat, "declare", d) for d in declarations(seats=seats, misses_left=misses_left))


def _played_as_thumb(view: DominoView, holdings: dict[int, list[Tile]], put_out: dict[int, list[Tile]]) -> bool:
    """Whether every tile the other seats have played is one the rule of thumb would have played, had
    they held what this world gives them (:func:`_thumb_lead`, :func:`_thumb_follow`). A choice
    between tiles the rule of thumb values alike passes either way.

    ``holdings`` are the other seats' tiles now (the turn-up with a dealer who took it), ``put_out``
    what each put out unseen. A seat's tiles at any past play are its tiles now and those it has
    played since.
    """
    rules, seat, trump, turnup = view.rules, view.seat, view.trump, view.turnup
    plays: list[tuple[tuple[tuple[int, Tile], ...], int]] = [(t.plays, t.suit) for t in view.tricks]
    if view.current:
        assert view.led is not None
        plays.append((view.current, view.led))
    later: dict[int, list[Tile]] = {p: list(h) for p, h in holdings.items()}
    for trick, _ in plays:
        for p, tile in trick:
            later.setdefault(p, []).append(tile)
    gone: set[Tile] = set()
    for number, (trick, led) in enumerate(plays):
        for i, (p, tile) in enumerate(trick):
            held = later[p]
            if p != seat and len(held) > 1:
                if i == 0:
                    unseen = set(SET) - set(held) - gone - set(put_out.get(p, ())) - {turnup}
                    if not _leads_as_thumb(held, tile, led, trump, unseen, rules, number > 0):
                        return False
                elif not _follows_as_thumb(held, tile, trick[:i], led, trump, rules.void_rule):
                    return False
            held.remove(tile)
        gone.update(t for _, t in trick)
    return True


def _leads_as_thumb(
    held: list[Tile], tile: Tile, led: int, trump: int, unseen: set[Tile], rules: DominoRules, after: bool
) -> bool:
    """Whether leading ``tile`` announced as ``led`` scores as well as :func:`_thumb_lead`'s choice from ``held``."""
    options = lead_choices(
        held,
        is_trump=trumps_of(trump).__contains__,
        trump_rank=lambda t: rank_in(t, trump),
        first_lead_rule=rules.first_lead_rule,
        winner_rule=rules.winner_must_lead_trump,
        after_a_trick=after,
    )

    def score(t: Tile, suit: int) -> tuple[int, int]:
        return (_beaters(t, suit, trump, unseen, rules.void_rule), -power(t, suit, trump))

    best = min(score(t, s) for t in options for s in _announced(t, trump))
    return tile in options and score(tile, led) == best


def _announced(tile: Tile, trump: int) -> tuple[int, ...]:
    """The suits a lead of ``tile`` may call for (DL-LEAD-04/05): its own for a trump or a double."""
    if tile.has(trump):
        return (trump,)
    return (tile.high,) if tile.is_double else (tile.high, tile.low)


def _follows_as_thumb(
    held: list[Tile], tile: Tile, before: Sequence[tuple[int, Tile]], led: int, trump: int, void_rule: VoidRule
) -> bool:
    """Whether following with ``tile`` is :func:`_thumb_follow`'s choice from ``held``, or one it values alike."""
    powers = powers_of(led, trump)
    top = max(powers[t] for _, t in before)
    playable = follower_tiles(
        held,
        follows=followers_of(led, trump).__contains__,
        is_trump=trumps_of(trump).__contains__,
        beats=lambda t: powers[t] > top,
        void_rule=void_rule,
    )
    if tile not in playable:
        return False
    chosen = _thumb_follow(playable, before, led, trump)
    if powers[chosen] > top:
        return tile == chosen
    return (_value(tile, trump), powers[tile]) == (_value(chosen, trump), powers[chosen])


# ----- Monte Carlo -------------------------------------------------------------------------------------


def _playout(hand: DominoHand, rng: random.Random, thumb: bool) -> None:
    """Play ``hand`` to the end, every seat by the rules of thumb (or at random), through the unchecked path."""
    trump = hand.trump
    void_rule = hand.rules.void_rule
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        phase = hand.phase
        if not thumb:
            legal = hand.legal_actions()
            hand.push_unchecked(legal[int(rng.random() * len(legal))])
        elif phase is Phase.PLAY:
            current = hand.current_trick
            if current:
                led = hand.led
                assert led is not None
                tile = _thumb_follow(hand.playable(seat), current, led, trump)
                hand.push_unchecked(DominoAction(seat, "play", tile))
            else:
                unseen = _unseen(hand.holding(seat), hand.turnup, _played(hand.tricks, ()), hand.put_out(seat))
                hand.push_unchecked(_thumb_lead(hand.legal_actions(), trump, unseen, void_rule))
        elif phase is Phase.EXCHANGE:
            hand.push_unchecked(_thumb_discard(hand.legal_actions(), trump))
        else:
            legal = hand.legal_actions()
            hand.push_unchecked(
                legal[0] if len(legal) == 1 else _thumb_declare(legal, hand.holding(seat), trump, hand.turnup)
            )


class DominoSamplingBot(SamplingPlayer[DominoView]):
    """Determinized Monte Carlo: sample the hidden tiles, play each choice out, keep the best average.

    For each of ``samples`` determinizations (:func:`determinize`) every candidate is played to
    the end with the rules of thumb at every seat (or at random, ``rollout="random"``), and the
    seat's gain (``settlement.net()``: chips, or points, Rounce's taken off) is averaged. The
    candidates share the samples, so the comparison is paired. A Rounce discard is narrowed to the
    six best-looking choices. Ties go to the rule-of-thumb choice, which is tried first.
    """

    DEFAULT_SAMPLES: ClassVar[int] = 20

    def __init__(self, samples: int | None = None, rollout: str = "thumb") -> None:
        super().__init__(samples)
        if rollout not in ("thumb", "random"):
            raise ValueError(f"rollout must be 'thumb' or 'random', not {rollout!r}")
        self.rollout = rollout
        self._thumb = DominoThumbBot()

    def candidates(self, view: DominoView, rng: random.Random) -> list[DominoAction]:
        """The actions worth sampling: the rule of thumb's first, then the rest of ``view.legal``."""
        legal: Sequence[DominoAction] = _legal(view)
        first = self._thumb.choose(view, rng)
        if view.phase is Phase.EXCHANGE:
            legal = sorted(legal, key=lambda a: sum(_value(t, view.trump) for t in a.value))[:6]
        return [first, *(a for a in legal if a != first)]

    def world(self, view: DominoView, rng: random.Random) -> DominoHand:
        return determinize(view, rng, self.tries)

    def play_out(self, hand: Hand, rng: random.Random) -> None:
        assert isinstance(hand, DominoHand)
        _playout(hand, rng, self.rollout == "thumb")


BOTS: dict[str, type[Any]] = {
    "random": RandomBot,
    "thumb": DominoThumbBot,
    "sampling": DominoSamplingBot,
}
"""The domino players by name; :class:`loo.core.bots.RandomBot` chooses among any view's ``legal``."""
