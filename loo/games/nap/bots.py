"""Computer players for Nap: random, the sources' rules of thumb, and determinized Monte Carlo.

A bot sees one seat's :class:`~loo.games.nap.state.NapView` and nothing else, and draws any randomness from
the ``random.Random`` it is given, so a seeded game is repeatable.

>>> import random
>>> from loo.games.nap.hand import NapHand
>>> from loo.games.nap.rules import NapRules
>>> hand = NapHand.deal(NapRules(misery=True), random.Random(3), seats=4, dealer=3)
>>> bots = [NapThumbBot() for _ in range(4)]
>>> rng = random.Random(0)
>>> while not hand.is_over:
...     seat = hand.to_act
...     hand.push(bots[seat].choose(hand.view(seat), rng))
>>> sum(hand.settlement.net())
0
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import ClassVar

from loo.core.actions import Action
from loo.core.bots import RandomBot
from loo.core.cards import Card, Rank, Suit, full_pack
from loo.core.hand import Trick
from loo.core.protocols import Hand
from loo.core.sampling import SamplingPlayer, deal_avoiding
from loo.games.nap.hand import NapHand
from loo.games.nap.rules import CALL_RANK, TRICKS_NEEDED, call_options
from loo.games.nap.state import NapPhase, NapView

# ----- card sense --------------------------------------------------------------------------------


def _by_suit(cards: Sequence[Card]) -> dict[Suit, list[Card]]:
    out: dict[Suit, list[Card]] = {}
    for c in sorted(cards, key=lambda c: -c.rank):
        out.setdefault(c.suit, []).append(c)
    return out


def trick_estimate(cards: Sequence[Card], trump: Suit | None, players: int) -> float:
    """Roughly how many tricks ``cards`` should make for a caller who leads with ``trump`` as trumps.

    Trumps count by rank and by length; outside trumps, aces are nearly sure and a guarded king
    is worth something. With few players fewer cards are out, so high cards are surer (NAP-NUM-04).
    """
    suits = _by_suit(cards)
    trumps = suits.get(trump, []) if trump is not None else []
    total = 0.0
    for i, c in enumerate(trumps):
        if c.rank >= Rank.KING or (c.rank is Rank.QUEEN and i <= 1):
            total += 1.0
        elif c.rank >= Rank.KNAVE:
            total += 0.6
        else:
            total += 0.5 if len(trumps) >= 3 else 0.25
    sure = 1.0 if players <= 3 else 0.85
    for suit, held in suits.items():
        if suit is trump:
            continue
        for i, c in enumerate(held):
            if c.rank is Rank.ACE:
                total += sure
            elif c.rank is Rank.KING and i == 1 and held[0].rank is Rank.ACE:
                total += sure - 0.15
            elif c.rank is Rank.KING and len(held) >= 2:
                total += 0.4
    return total


def best_trump(cards: Sequence[Card], players: int) -> tuple[Suit, float]:
    """The suit to lead first (so to make trumps, NAP-PLAY-01), and the tricks it should bring."""
    options = [(trick_estimate(cards, s, players), len([c for c in cards if c.suit is s]), s) for s in Suit]
    estimate, _, suit = max(options)
    return suit, estimate


def _honour(card: Card) -> bool:
    return card.rank >= Rank.KNAVE


def three_handed_nap(cards: Sequence[Card]) -> bool:
    """The sources' advice for three players (NAP-STR-01..03)."""
    suits = _by_suit(cards)
    lengths = sorted(((len(v), s) for s, v in suits.items()), reverse=True)
    main = suits[lengths[0][1]]
    if len(suits) == 1:
        return _honour(main[0])  # NAP-STR-01: all one suit, headed by an honour
    if len(suits) == 2:
        other = [c for c in cards if c.suit is not main[0].suit]
        # NAP-STR-02: four of a suit headed by an honour, and an ace, king or queen besides
        return len(main) == 4 and _honour(main[0]) and other[0].rank >= Rank.QUEEN
    # NAP-STR-03: three or four suits: every card outside trumps an ace or a king
    return _honour(main[0]) and all(c.rank >= Rank.KING for c in cards if c.suit is not main[0].suit)


def misery_hand(cards: Sequence[Card]) -> bool:
    """Low cards throughout, and no suit whose lowest card is high: a hand that should lose every trick."""
    suits = _by_suit(cards)
    return max(c.rank for c in cards) <= Rank.NINE and all(held[-1].rank <= Rank.SIX for held in suits.values())


def _nap_worthy(cards: Sequence[Card], players: int) -> bool:
    if players <= 3:
        return three_handed_nap(cards)
    return best_trump(cards, players)[1] >= 4.0


def best_five(cards: Sequence[Card], players: int) -> list[Card]:
    """The five cards to keep from ten for a Nap (Sir Garnet, NAP-SG-03): trumps of the best suit, then high cards."""
    best: tuple[float, list[Card]] | None = None
    for suit in Suit:
        ranked = sorted(cards, key=lambda c: (c.suit is suit, c.rank), reverse=True)
        keep = ranked[:5]
        score = trick_estimate(keep, suit, players)
        if best is None or score > best[0]:
            best = (score, keep)
    assert best is not None
    return best[1]


def garnet_throw(seat: int, hand: Sequence[Card], players: int, legal: Sequence[Action]) -> Action:
    """NAP-SG-03: throw out all but the best five for a Nap."""
    keep = set(best_five(hand, players))
    thrown = tuple(c for c in hand if c not in keep)
    return next((a for a in legal if set(a.value) == set(thrown)), Action(seat, "garnet", thrown))


def _weakness(card: Card, cards: Sequence[Card], trump: Suit | None) -> tuple[int, int, int]:
    """Sort key for discarding: NAP-STR-05, from the shortest and weakest suit first."""
    length = sum(1 for c in cards if c.suit is card.suit)
    return (card.suit is trump, card.rank, length)


def _power(card: Card, led: Suit, trump: Suit | None) -> int:
    if card.suit is trump:
        return 200 + card.rank
    if card.suit is led:
        return 100 + card.rank
    return 0


# ----- the rule of thumb ------------------------------------------------------------------------


class NapThumbBot:
    """The sources' advice where they give it, plain sense elsewhere.

    - Calling: the tricks the hand should make with its best suit as trumps; Nap by NAP-STR-01..03
      with three players, on a very strong hand otherwise; Misery on a hand of low cards; the
      dealer's forced one when he must (NAP-CALL-04). Peep after a Nap (NAP-PEEP-06) or with a hand
      near a call; take Sir Garnet when the best five of the ten make a Nap.
    - Purchase: keep the best suit and the aces, buy for the rest (NAP-PUR-07: call on stronger hands).
    - Play, as caller: trumps from the top, then aces; in a Misery lead the shortest suit's lowest
      card (NAP-MIS-06) and always play under.
    - Play, against the caller: lead trumps when he needs only one more trick, else leave them alone
      (NAP-STR-04); discard from the shortest, weakest suit (NAP-STR-05); against a Misery discard
      the highest card of the shortest suit (NAP-STR-06) and never overtake him.
    """

    name = "thumb"

    def choose(self, view: NapView, rng: random.Random) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to choose: it is not its turn (to act: {view.to_act})")
        if len(legal) == 1:
            return legal[0]
        if view.phase is NapPhase.CALL:
            return self._call(view, legal)
        if view.phase is NapPhase.PURCHASE:
            return self._purchase(view, legal)
        if view.phase is NapPhase.EXCHANGE:
            return self._exchange(view, legal)
        if view.phase is NapPhase.GARNET:
            return garnet_throw(view.seat, view.hand, len(view.names), legal)
        card = thumb_card(
            view.seat,
            view.hand,
            [a.value for a in legal],
            view.current,
            view.tricks,
            view.trump,
            view.caller,
            view.call,
            len(view.names),
        )
        return next(a for a in legal if a.value == card)

    def _call(self, view: NapView, legal: Sequence[Action]) -> Action:
        calls = {a.value: a for a in legal if a.verb == "call"}
        players = len(view.names)
        hand = list(view.hand)
        peep = next((a for a in legal if a.verb == "peep"), None)
        nap_called = any(c in ("nap", "wellington") for c in view.calls if c)
        if peep is not None:
            # NAP-PEEP-06: after a Nap it pays to see the card; otherwise peep when the hand is near a call.
            if nap_called or best_trump(hand, players)[1] >= 2.5:
                return peep
        if view.peep_card is not None and view.peep_card not in hand:
            worst = min(hand, key=lambda c: _weakness(c, hand, best_trump(hand, players)[0]))
            better = [c for c in hand if c != worst] + [view.peep_card]
            if best_trump(better, players)[1] > best_trump(hand, players)[1]:
                hand = better  # value the hand as it would be after the exchange (NAP-PEEP-03)
        estimate = best_trump(hand, players)[1]
        if _nap_worthy(hand, players):
            if "wellington" in calls and estimate >= 5.0:
                return calls["wellington"]
            if "nap" in calls:
                return calls["nap"]
        take = next((a for a in legal if a.verb == "garnet"), None)
        if take is not None and estimate >= 2.5:
            return take  # NAP-SG-02: five more cards to choose from make a fair hand a likely Nap
        wanted = [c for c in ("4", "3", "2", "1") if TRICKS_NEEDED[c] <= estimate + 0.2 and c in calls]
        if "misery" in calls and misery_hand(hand) and (not wanted or CALL_RANK["misery"] > CALL_RANK[wanted[0]]):
            return calls["misery"]
        if wanted:
            return calls[wanted[0]]
        if "pass" in calls:
            return calls["pass"]
        return calls.get("1", legal[0])  # NAP-CALL-04: the dealer's forced call

    def _purchase(self, view: NapView, legal: Sequence[Action]) -> Action:
        hand = list(view.hand)
        suit, _ = best_trump(hand, len(view.names))
        discard = {c for c in hand if c.suit is not suit and c.rank < Rank.ACE}
        return max((a for a in legal if set(a.value) <= discard), key=lambda a: len(a.value))

    def _exchange(self, view: NapView, legal: Sequence[Action]) -> Action:
        hand = list(view.hand)
        peep = view.peep_card
        players = len(view.names)
        if peep is None:
            return legal[0]
        best = (best_trump(hand, players)[1], legal[0])
        for a in legal[1:]:
            after = [c for c in hand if c != a.value[0]] + [peep]
            value = best_trump(after, players)[1]
            if value > best[0] + 0.1:
                best = (value, a)
        return best[1]


def thumb_card(
    seat: int,
    hand: Sequence[Card],
    playable: Sequence[Card],
    current: Sequence[tuple[int, Card]],
    tricks: Sequence[Trick],
    trump: Suit | None,
    caller: int | None,
    call: str | None,
    players: int,
) -> Card:
    """The rule of thumb's card (see :class:`NapThumbBot`)."""
    if len(playable) == 1:
        return playable[0]
    misery = call == "misery"
    if seat == caller:
        if misery:
            return _misery_caller(hand, playable, current, trump)
        if not current:
            if not tricks:
                suit, _ = best_trump(hand, players)
                return max((c for c in playable if c.suit is suit), key=lambda c: c.rank)
            trumps = [c for c in playable if c.suit is trump]
            if trumps:
                return max(trumps, key=lambda c: c.rank)  # draw trumps from the top
            return max(playable, key=lambda c: (c.rank, -_length(hand, c.suit)))
        return _win_cheaply_or_throw(hand, playable, current, trump)
    if misery:
        return _against_misery(hand, playable, current, caller, trump)
    if not current:
        need = TRICKS_NEEDED.get(call or "1", 1) - sum(1 for t in tricks if t.winner == caller)
        trumps = [c for c in playable if c.suit is trump]
        if need == 1 and trumps:
            return max(trumps, key=lambda c: c.rank)  # NAP-STR-04: lead trumps when he needs one more trick
        plain = [c for c in playable if c.suit is not trump] or list(playable)  # NAP-STR-04: else leave trumps alone
        aces = [c for c in plain if c.rank is Rank.ACE]
        if aces:
            return aces[0]
        return min(plain, key=lambda c: (-_length(hand, c.suit), c.rank))
    led = current[0][1].suit
    caller_played = any(p == caller for p, _ in current)
    best_seat = max(current, key=lambda pc: _power(pc[1], led, trump))[0]
    if caller_played and best_seat != caller:
        return _lowest(hand, playable, led, trump)  # a partner has it: play low
    return _win_cheaply_or_throw(hand, playable, current, trump)


def _length(hand: Sequence[Card], suit: Suit) -> int:
    return sum(1 for c in hand if c.suit is suit)


def _lowest(hand: Sequence[Card], playable: Sequence[Card], led: Suit, trump: Suit | None) -> Card:
    """The cheapest card: in suit the lowest; when void, NAP-STR-05's discard (shortest, weakest suit)."""
    if any(c.suit is led for c in playable):
        return min(playable, key=lambda c: c.rank)
    return min(playable, key=lambda c: (c.suit is trump, _length(hand, c.suit), c.rank))


def _win_cheaply_or_throw(
    hand: Sequence[Card], playable: Sequence[Card], current: Sequence[tuple[int, Card]], trump: Suit | None
) -> Card:
    led = current[0][1].suit
    best = max(_power(c, led, trump) for _, c in current)
    winners = [c for c in playable if _power(c, led, trump) > best]
    if winners:
        return min(winners, key=lambda c: _power(c, led, trump))
    return _lowest(hand, playable, led, trump)


def _misery_caller(
    hand: Sequence[Card], playable: Sequence[Card], current: Sequence[tuple[int, Card]], trump: Suit | None
) -> Card:
    if not current:
        # NAP-MIS-06: lead the shortest suit, a singleton for choice; its lowest card
        return min(playable, key=lambda c: (_length(hand, c.suit), c.rank))
    led = current[0][1].suit
    best = max(_power(c, led, trump) for _, c in current)
    under = [c for c in playable if _power(c, led, trump) < best]
    if under:
        return max(under, key=lambda c: (_power(c, led, trump), c.rank))  # the highest card that still loses
    return max(playable, key=lambda c: c.rank)


def _against_misery(
    hand: Sequence[Card],
    playable: Sequence[Card],
    current: Sequence[tuple[int, Card]],
    caller: int | None,
    trump: Suit | None,
) -> Card:
    if not current:
        return min(playable, key=lambda c: c.rank)  # low leads give the caller the least room to get under
    led = current[0][1].suit
    if not any(c.suit is led for c in playable):
        # NAP-STR-06: the highest card of the shortest suit, preferably a singleton unless a two or three
        def key(c: Card) -> tuple[bool, int, int]:
            length = _length(hand, c.suit)
            low_single = length == 1 and c.rank <= Rank.THREE
            return (not low_single, -length, c.rank)

        return max(playable, key=key)
    caller_card = next((c for p, c in current if p == caller), None)
    if caller_card is not None:
        best = max(_power(c, led, trump) for _, c in current)
        if _power(caller_card, led, trump) == best:
            under = [c for c in playable if _power(c, led, trump) < best]
            if under:
                return max(under, key=lambda c: c.rank)  # do not take the trick off him
    return min(playable, key=lambda c: c.rank)


# ----- determinization -----------------------------------------------------------------------------


def _voids(view: NapView) -> dict[int, set[Suit]]:
    """NAP-PLAY-02: a seat that did not follow the suit led holds none of it."""
    out: dict[int, set[Suit]] = {p: set() for p in range(len(view.names))}
    for plays in [t.plays for t in view.tricks] + [view.current]:
        if not plays:
            continue
        led = plays[0][1].suit
        for p, c in plays[1:]:
            if c.suit is not led:
                out[p].add(led)
    return out


TRIES = 200  # deals of the hidden cards tried for one whose calls the rule of thumb would make


def _deal(
    unknown: Sequence[Card], sizes: dict[int, int], voids: dict[int, set[Suit]], n: int, rng: random.Random
) -> tuple[list[list[Card]], list[Card]]:
    """Deal ``unknown`` to the seats in ``sizes``, none a card of a suit it has shown out of
    (:func:`~loo.core.sampling.deal_avoiding`); every seat's holding, in seat order, and the rest."""
    dealt, rest = deal_avoiding(unknown, sizes, voids, rng, mark=lambda card: card.suit, attempts=30)
    return [dealt.get(p, []) for p in range(n)], rest


def _called_as_thumb(view: NapView, holdings: Sequence[Sequence[Card]]) -> bool:
    """Whether every other seat, dealt as this world has it, would have called what it did by the rule
    of thumb (:class:`NapThumbBot`): the computer players at a reader's table call by it.

    The seats are taken in calling order from the eldest (NAP-CALL-01), each with the calls open to
    it then (:func:`~loo.games.nap.rules.call_options`; the dealer's forced one, NAP-CALL-04). A seat
    whose hand at its call this world cannot tell (it peeped, took Sir Garnet, or changed a card
    for the peep card) is passed over; purchases come before the calling, so they change nothing.
    """
    if view.phase is NapPhase.PURCHASE:
        return True
    rules, n, seat = view.rules, len(view.names), view.seat
    plays = [pc for t in view.tricks for pc in t.plays] + list(view.current)
    thumb = NapThumbBot()
    high = 0
    for i in range(1, n + 1):
        p = (view.dealer + i) % n
        said = view.calls[p]
        if said is None:
            return True
        before = high
        high = max(high, CALL_RANK[said])
        unknowable = view.peeped[p] or view.garnet_by == p or (view.peep_taken and view.caller == p)
        if p == seat or unknowable:
            continue
        hand = tuple(holdings[p]) + tuple(c for q, c in plays if q == p)
        forced = p == view.dealer and before == 0 and rules.dealer_forced_one
        legal = [Action(p, "call", c) for c in call_options(rules, before, forced=forced)]
        if rules.peep:
            legal.append(Action(p, "peep", True))
        if rules.sir_garnet and before < CALL_RANK["nap"] and (view.garnet_by is None or _garnet_after(view, p)):
            legal.append(Action(p, "garnet", ()))
        if len(legal) == 1:
            continue
        calls = tuple(view.calls[q] if _order(view, q) < i else None for q in range(n))
        then = dataclasses.replace(
            view, seat=p, hand=hand, peep_card=None, calls=calls, legal=tuple(legal), phase=NapPhase.CALL, to_act=p
        )
        choice = thumb.choose(then, random.Random(0))
        if choice.verb != "call" or choice.value != said:
            return False
    return True


def _led_as_thumb(view: NapView, holdings: Sequence[Sequence[Card]]) -> bool:
    """Whether another seat's first lead as caller is the rule of thumb's: the top card of the suit
    his hand, as this world deals it, would best make trumps (NAP-PLAY-01). A Misery is passed over."""
    plays = [pc for t in view.tricks for pc in t.plays] + list(view.current)
    caller = view.caller
    if not plays or caller is None or caller == view.seat or view.call == "misery" or plays[0][0] != caller:
        return True
    hand = [*holdings[caller], *(c for p, c in plays if p == caller)]
    if len(hand) < 2:
        return True
    suit, _ = best_trump(hand, len(view.names))
    led = plays[0][1]
    return led.suit is suit and all(c.rank < led.rank for c in hand if c.suit is suit and c != led)


def _order(view: NapView, p: int) -> int:
    """``p``'s place in the calling, the eldest 1 and the dealer last (NAP-CALL-01)."""
    n = len(view.names)
    return (p - view.dealer) % n or n


def _garnet_after(view: NapView, p: int) -> bool:
    """Whether Sir Garnet was taken by a seat that called after ``p`` (so it was still there for ``p``)."""
    return view.garnet_by is not None and _order(view, view.garnet_by) > _order(view, p)


def determinize(view: NapView, rng: random.Random, tries: int | None = None) -> NapHand:
    """A full hand at the view's point, its hidden cards sampled consistently with what the seat knows.

    Unknown cards are the pack less this seat's hand and discards, the cards played, and the peep
    card if it peeped; they are dealt to the other seats' current hand sizes, respecting the voids
    play has shown, and the rest make the untaken extra hand, the peep card and the stock. A deal is
    tried again (up to ``tries`` times, :data:`TRIES` unless given) until each other seat, dealt so,
    would have made the call it made by the rule of thumb, as the computer players at a reader's table
    do, and the caller's first lead is the rule of thumb's. What the others' cards in play say beyond
    that and their voids is not weighed.

    >>> import random
    >>> from loo.games.nap.rules import NapRules
    >>> real = NapHand.deal(NapRules(), random.Random(5), seats=4, dealer=3)
    >>> determinize(real.view(0), random.Random(1)).view(0) == real.view(0)
    True
    """
    if view.phase is NapPhase.DONE:
        raise ValueError("the hand is over: there is nothing hidden to sample")
    n = len(view.names)
    seat = view.seat
    played = [c for t in view.tricks for _, c in t.plays] + [c for _, c in view.current]
    known = set(view.hand) | set(view.put_out) | set(played)
    peep_known = view.peep_card
    held_peep = None  # the caller who took the peep card is known to hold it (to those who saw it)
    if peep_known is not None:
        known.add(peep_known)
        if view.peep_taken and view.caller is not None and view.caller != seat and peep_known not in played:
            held_peep = view.caller
    unknown = [c for c in full_pack() if c not in known]
    sizes = {p: view.hand_sizes[p] - (1 if p == held_peep else 0) for p in range(n) if p != seat}
    voids = _voids(view)
    fallback: tuple[list[list[Card]], list[Card]] | None = None
    for _ in range(TRIES if tries is None else tries):
        holdings, rest = _deal(unknown, sizes, voids, n, rng)
        if not _called_as_thumb(view, holdings):
            continue
        if _led_as_thumb(view, holdings):
            break
        fallback = fallback or (holdings, rest)
    else:  # none fits the rule of thumb throughout: the first that fits the calls, else the last
        holdings, rest = fallback or (holdings, rest)
    holdings[seat] = list(view.hand)
    if held_peep is not None and peep_known is not None:
        holdings[held_peep].append(peep_known)
    rules = view.rules
    garnet: list[Card] = []
    if rules.sir_garnet:
        garnet, rest = rest[:5], rest[5:]  # taken or not, its cards are out of sight
    peep_card = peep_known
    if rules.peep and peep_card is None:
        peep_card, rest = rest[0], rest[1:]
    stock_pos = sum(k for k in view.purchased if k)
    # The bought cards are in hands now; the spent part of the stock is never drawn again, so any cards fill it.
    stock = rest[:stock_pos] + rest
    return NapHand.at_view(
        view, holdings=holdings, stock=stock, stock_pos=stock_pos, garnet=garnet, peep_card=peep_card
    )


# ----- Monte Carlo -------------------------------------------------------------------------------------


def playout(hand: NapHand, rng: random.Random) -> None:
    """Play ``hand`` to the end with the rule of thumb at every seat (each seeing only its own view)."""
    thumb = NapThumbBot()
    while (phase := hand.phase) is not NapPhase.DONE:
        seat = hand.to_act
        assert seat is not None
        if phase is NapPhase.PLAY:
            card = thumb_card(
                seat,
                hand.holding(seat),
                hand.playable(seat),
                hand.current_trick,
                hand.tricks,
                hand.trump,
                hand.caller,
                hand.call,
                hand.n,
            )
            hand.push_unchecked(Action(seat, "play", card))
        else:
            hand.push_unchecked(thumb.choose(hand.view(seat), rng))


class NapSamplingBot(SamplingPlayer[NapView]):
    """Determinized Monte Carlo: sample the hidden cards, play each choice out, keep the best average.

    For each of ``samples`` determinizations every candidate is played to the end by the rule of
    thumb at every seat, and the chips this seat nets are averaged; the candidates share the samples,
    so the comparison is paired. Candidates are every call (and a peep, and the rule of thumb's way of
    taking Sir Garnet), every card, the exchanges, and for purchases buying for the k weakest cards.
    Ties go to the rule of thumb's choice, tried first. Past ``budget`` seconds no new sample is started.
    """

    DEFAULT_SAMPLES: ClassVar[int] = 24

    def __init__(self, samples: int | None = None, budget: float = 0.2) -> None:
        super().__init__(samples, budget)
        self._thumb = NapThumbBot()

    def candidates(self, view: NapView, rng: random.Random) -> list[Action]:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to choose: it is not its turn (to act: {view.to_act})")
        first = self._thumb.choose(view, rng)
        if view.phase is NapPhase.PURCHASE:
            hand = list(view.hand)
            suit, _ = best_trump(hand, len(view.names))
            weakest = sorted(hand, key=lambda c: (c.suit is suit, c.rank))
            by_set = {frozenset(a.value): a for a in legal}
            options = [by_set[frozenset(weakest[:k])] for k in range(6) if frozenset(weakest[:k]) in by_set]
        elif view.phase is NapPhase.GARNET:
            # the best five with each suit as trumps, rather than all 252 ways of keeping five
            by_set = {frozenset(a.value): a for a in legal}
            options = []
            for suit in Suit:
                keep = sorted(view.hand, key=lambda c: (c.suit is suit, c.rank), reverse=True)[:5]
                thrown = frozenset(c for c in view.hand if c not in keep)
                if thrown in by_set:
                    options.append(by_set[thrown])
        else:
            options = list(legal)
        return [first, *(a for a in options if a != first)]

    def world(self, view: NapView, rng: random.Random) -> NapHand:
        return determinize(view, rng, self.tries)

    def caveat(self, view: NapView) -> str:
        """In play, the sampled deals heed the calls, the caller's first lead and the voids, not what
        else the cards played say (bench/hints.py --calibrate: the first card's estimates +0.32 chips
        over 290 hands, within their ±0.34)."""
        if view.phase is not NapPhase.PLAY:
            return ""
        return (
            "The sampled deals heed the calls, the caller's first lead and the suits a player has shown "
            "out of, but not what else the cards played tell, so in play these figures may run a little high."
        )

    def play_out(self, hand: Hand, rng: random.Random) -> None:
        assert isinstance(hand, NapHand)
        playout(hand, rng)


BOTS: dict[str, type[RandomBot] | type[NapThumbBot] | type[NapSamplingBot]] = {
    "random": RandomBot,
    "thumb": NapThumbBot,
    "sampling": NapSamplingBot,
}


def make_bot(name: str) -> RandomBot | NapThumbBot | NapSamplingBot:
    """A Nap bot by name: ``random``, ``thumb`` or ``sampling``."""
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(sorted(BOTS))}")
    return cls()


__all__ = ["BOTS", "NapSamplingBot", "NapThumbBot", "determinize", "make_bot", "playout", "thumb_card"]
