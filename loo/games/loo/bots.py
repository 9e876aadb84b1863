"""Computer players for the Loo games: random, rule-of-thumb and determinized Monte Carlo.

A bot sees one seat's :class:`~loo.games.loo.state.SeatView` and nothing else (OpenSpiel's
observation), and draws any randomness from the ``random.Random`` it is given, so
a seeded game is repeatable.

>>> import random
>>> from loo.games.loo.hand import LooHand
>>> from loo.games.loo.rules import Rules
>>> hand = LooHand.deal(Rules.preset("peel"), random.Random(3), seats=5, dealer=4, pool=3)
>>> bots = [make_bot("thumb") for _ in range(5)]
>>> rng = random.Random(0)
>>> while not hand.is_over:
...     seat = hand.to_act
...     hand.push(bots[seat].choose(hand.view(seat), rng))
>>> hand.settlement.reason, sum(hand.settlement.payouts)
(<Reason.PLAYED: 'played'>, 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from loo.core.actions import Action
from loo.core.bots import RandomBot, legal_choices
from loo.core.cards import Card, Rank, Suit, full_pack
from loo.core.hand import Phase
from loo.core.protocols import Bot, Hand
from loo.core.sampling import SamplingPlayer
from loo.core.tricks import FirstLeadRule, VoidRule, WinnerLeadsTrump
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import Game, Pam, PamBeCivil, Rules
from loo.games.loo.state import DealKind, SeatView

# ----- card sense shared by the bots -------------------------------------------------------


def _pam_card(rules: Rules, trump: Suit | None) -> Card | None:
    """L5-RANK-01/02 (CF-21): Pam exists only at five cards."""
    if rules.game is not Game.FIVE_CARD:
        return None
    if rules.pam is Pam.TRUMP_KNAVE:
        return Card(Rank.KNAVE, trump) if trump is not None else None
    return Card(Rank.KNAVE, Suit.CLUBS)


def _suit(card: Card, trump: Suit | None, pam: Card | None) -> Suit:
    """Pam counts as a trump (AMB-25)."""
    return trump if card == pam and trump is not None else card.suit


def _power(card: Card, led: Suit, trump: Suit | None, pam: Card | None) -> int:
    """The engine's trick order (L3-TRK-01, L5-RANK-01..04): Pam, then trumps, then the suit led."""
    if card == pam:
        return 300
    if card.suit is trump:
        return 200 + card.rank
    if card.suit is led:
        return 100 + card.rank
    return 0


def _value(card: Card, trump: Suit | None, pam: Card | None) -> int:
    """How good a card is to hold: its power were it led (trumps over plain cards, then rank)."""
    return _power(card, _suit(card, trump, pam), trump, pam)


def _trumps(cards: Sequence[Card], trump: Suit | None, pam: Card | None) -> list[Card]:
    return [c for c in cards if c == pam or (trump is not None and c.suit is trump)]


def _is_strong(cards: Sequence[Card], trump: Suit | None, pam: Card | None) -> bool:
    """Plain sense: Pam, a trump of ten or higher, two trumps, or an ace should win a trick."""
    trumps = _trumps(cards, trump, pam)
    if len(trumps) >= 2 or any(c == pam or c.rank >= Rank.TEN for c in trumps):
        return True
    return any(c.rank is Rank.ACE for c in cards)


def _eldest(dealer: int, active: Sequence[int], n: int) -> int:
    """L3-DEAL-08: the first active seat on the dealer's left."""
    for i in range(1, n + 1):
        p = (dealer + i) % n
        if p in active:
            return p
    return dealer


def _active(view: SeatView) -> list[int]:
    """Seats dealt in: those that have declared or hold cards (a dealer standing out has neither)."""
    return [p for p in range(len(view.names)) if view.declared[p] is not None or view.hand_sizes[p] > 0]


def _thumb_declare(
    legal: Sequence[Action],
    cards: Sequence[Card],
    trump: Suit | None,
    pam: Card | None,
    turnup: Card | None,
    *,
    eldest: bool,
    struck_in: int,
) -> Action:
    """Stand with a strong hand; with a weak one take the miss where the advice allows, else throw up."""
    by_value = {a.value: a for a in legal if a.verb == "declare"}
    swaps = [a for a in legal if a.verb == "take-turnup"]
    if swaps and turnup is not None:
        # L5-OPT-02: a dealer who would then hold a playing hand takes the trump for his worst card.
        worst = min(swaps, key=lambda a: _value(a.value, trump, pam))
        kept = [c for c in cards if c != worst.value]
        if _value(turnup, trump, pam) > _value(worst.value, trump, pam) and _is_strong([*kept, turnup], trump, pam):
            return worst
    if "stand" in by_value and (_is_strong(cards, trump, pam) or len(by_value) == 1):
        return by_value["stand"]  # L3-DECL-02, or a compulsion to play (L3-CLUB-01, L3-BOLD-01, L5-OPT-01)
    # L3-ADV-01: the eldest hand should not take the miss; L3-ADV-02: nor anyone after two have struck in.
    if "miss" in by_value and not eldest and struck_in < 2:
        return by_value["miss"]  # L3-DECL-03
    if "throw" in by_value:
        return by_value["throw"]  # L3-DECL-06, L5-DECL-01: throwing up costs nothing
    for_pool = [a for a in legal if a.verb == "for-pool"]
    if for_pool:
        return for_pool[0]  # L3-DLR-03: the miss plays for the pool, and the dealer risks no loo
    if "miss" in by_value and "stand" not in by_value:
        return by_value["miss"]
    return by_value.get("stand", legal[0])  # the advice cannot be kept: stand rather than take the miss


def _thumb_exchange(seat: int, cards: Sequence[Card], trump: Suit | None, pam: Card | None, room: int) -> Action:
    """L5-DECL-02, IRL-05: exchange low plain cards; keep Pam, trumps, aces and kings."""
    spare = [c for c in cards if c != pam and c.suit is not trump and c.rank < Rank.KING]
    discard = set(sorted(spare, key=lambda c: _value(c, trump, pam))[:room])
    return Action(seat, "exchange", tuple(c for c in cards if c in discard))  # in hand order, as legal_actions()


def _thumb_play(
    playable: Sequence[Card], current: Sequence[tuple[int, Card]], trump: Suit | None, pam: Card | None
) -> Card:
    """Lead high (L3-LEAD-08); when following, win with the lowest winning card, else throw the lowest."""
    if len(playable) == 1:
        return playable[0]
    if not current:
        return max(playable, key=lambda c: _value(c, trump, pam))
    led = _suit(current[0][1], trump, pam)
    best = max(_power(c, led, trump, pam) for _, c in current)
    winners = [c for c in playable if _power(c, led, trump, pam) > best]
    if winners:
        return min(winners, key=lambda c: _power(c, led, trump, pam))  # L3-PLAY-06: heading needs only enough
    return min(playable, key=lambda c: (_power(c, led, trump, pam), _value(c, trump, pam)))


class ThumbBot:
    """The rule of thumb: the sources' advice (L3-ADV-01/02) and plain sense.

    - Declaring: stand with Pam, a trump of ten or higher, two trumps or an ace; with a weak
      hand take the miss unless it is the eldest hand (L3-ADV-01) or two players have already
      struck in (L3-ADV-02); otherwise throw up (L3-DECL-06), or, as a dealer who may not,
      play the miss for the pool (L3-DLR-03).
    - Exchanging (five-card and Irish Loo): discard the low plain cards (L5-DECL-02, IRL-05).
    - Playing: lead the highest card; when following, win with the lowest card that wins,
      else throw the lowest card (L3-PLAY-06).
    """

    name = "thumb"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = legal_choices(view)
        if len(legal) == 1:
            return legal[0]
        cards = view.hand or ()
        trump = view.turnup.suit if view.turnup is not None else None
        pam = _pam_card(view.rules, trump)
        if view.phase is Phase.DECLARE:
            eldest = _eldest(view.dealer, _active(view), len(view.names)) == view.seat
            struck_in = sum(1 for d in view.declared if d in ("stand", "miss"))
            return _thumb_declare(legal, cards, trump, pam, view.turnup, eldest=eldest, struck_in=struck_in)
        if view.phase is Phase.EXCHANGE:
            room = max(len(a.value) for a in legal)
            return _thumb_exchange(view.seat, cards, trump, pam, room)
        card = _thumb_play([a.value for a in legal], view.current, trump, pam)
        return next(a for a in legal if a.value == card)


# ----- determinization -----------------------------------------------------------------------


def _forbidden(view: SeatView, trump: Suit, pam: Card | None) -> dict[int, set[Card]]:
    """Cards each seat cannot hold now, as the laws of play reveal them to the whole table.

    A seat that did not follow suit is void in it (L3-PLAY-02, L5-PLAY-02); one that followed
    without heading holds nothing higher of the suit (L3-PLAY-03); one that did not head with a
    trump when void holds no trump that would have won (L3-PLAY-04), or none at all under
    must-trump; a first leader who did not lead the ace of trumps does not hold it (L3-LEAD-03),
    nor the king when the ace is turned (L3-LEAD-04), nor, having led a trump, a higher one
    (L3-LEAD-05); a first-trick winner who led no trump, or a low one, holds no higher trump
    (L3-LEAD-10).
    """
    rules = view.rules
    out: dict[int, set[Card]] = {p: set() for p in range(len(view.names))}
    pack = full_pack()
    trump_cards = [c for c in pack if _suit(c, trump, pam) is trump]
    ace, king = Card(Rank.ACE, trump), Card(Rank.KING, trump)
    # Pam be civil (L5-RANK-05, CF-22): Pam may be withheld from a led ace of trumps, so says nothing.
    civil_rule = rules.pam_be_civil is not PamBeCivil.COURTESY
    tricks = [t.plays for t in view.tricks]
    if view.current:
        tricks.append(view.current)

    def higher_trumps(card: Card, led: Suit, than: int) -> list[Card]:
        return [c for c in trump_cards if _power(c, led, trump, pam) > than and c != card]

    for number, plays in enumerate(tricks):
        lead_seat, lead = plays[0]
        led = _suit(lead, trump, pam)
        if rules.three_card_leads and number == 0:
            if lead != ace:
                out[lead_seat].add(ace)
                if rules.king_rule_when_ace_turned and view.turnup == ace and lead != king:
                    out[lead_seat].add(king)
                if led is trump and rules.first_lead_rule is FirstLeadRule.HIGHEST:
                    out[lead_seat].update(higher_trumps(lead, trump, _power(lead, trump, trump, pam)))
        if rules.three_card_leads and number == 1:
            if rules.winner_must_lead_trump is WinnerLeadsTrump.HIGHER:
                out[lead_seat].update(higher_trumps(lead, trump, _power(lead, trump, trump, pam)))
            elif rules.winner_must_lead_trump is WinnerLeadsTrump.ANY and led is not trump:
                out[lead_seat].update(trump_cards)
        exempt = {pam} if pam is not None and civil_rule and lead == ace else set()
        for i in range(1, len(plays)):
            seat, card = plays[i]
            win_power = max(_power(c, led, trump, pam) for _, c in plays[:i])
            power = _power(card, led, trump, pam)
            if _suit(card, trump, pam) is not led:
                out[seat].update(c for c in pack if _suit(c, trump, pam) is led and c not in exempt)
                if rules.void_rule is VoidRule.MUST_OVERTRUMP_IF_POSSIBLE and power <= win_power:
                    out[seat].update(c for c in higher_trumps(card, led, win_power) if c not in exempt)
                elif rules.void_rule is VoidRule.MUST_TRUMP and _suit(card, trump, pam) is not trump:
                    out[seat].update(c for c in trump_cards if c not in exempt)
            elif rules.must_head and not (win_power >= 200 and led is not trump) and power < win_power:
                out[seat].update(
                    c
                    for c in pack
                    if _suit(c, trump, pam) is led and _power(c, led, trump, pam) > win_power and c not in exempt
                )
    return out


def _sample_holdings(
    pool: list[Card], sizes: dict[int, int], forbidden: dict[int, set[Card]], rng: random.Random
) -> tuple[dict[int, list[Card]], list[Card]]:
    """Deal ``pool`` (shuffled here) to the seats in ``sizes`` avoiding their forbidden cards.

    The most constrained seats are served first; if the constraints cannot all be met the
    sampler retries, and at the last drops them (the view must then have been inconsistent).
    """
    order = sorted(sizes, key=lambda p: (-len(forbidden.get(p, ())), p))
    for attempt in range(20):
        cards = list(pool)
        rng.shuffle(cards)
        out: dict[int, list[Card]] = {}
        ok = True
        for p in order:
            banned = forbidden.get(p, set()) if attempt < 19 else set()
            mine = [c for c in cards if c not in banned][: sizes[p]]
            if len(mine) < sizes[p]:
                ok = False
                break
            taken = set(mine)
            cards = [c for c in cards if c not in taken]
            out[p] = mine
        if ok:
            return out, cards
    raise ValueError("the view's hand sizes do not fit the unseen cards")  # pragma: no cover


def determinize(view: SeatView, rng: random.Random) -> LooHand:
    """A full hand at the view's point, its hidden cards sampled consistently with what the seat knows.

    Unknown cards are the pack less the seat's own hand, the turn-up and every card played;
    they are dealt to the other seats' current hand sizes (respecting voids and the like that
    play has revealed), the untaken miss, the stock still to be drawn, and the dead cards.
    The public state (declarations, miss holder, for-pool, tricks, current trick, leader, the
    seat to act, phase and exchange counts) is copied from the view.

    >>> import random
    >>> from loo.games.loo.rules import Rules
    >>> real = LooHand.deal(Rules.preset("peel"), random.Random(5), seats=5, dealer=4, pool=3)
    >>> view = real.view(0)
    >>> world = determinize(view, random.Random(1))
    >>> world.view(0) == view
    True
    """
    if view.phase is Phase.DONE:
        raise ValueError("the hand is over: there is nothing hidden to sample")
    if view.turnup is None:
        raise ValueError(f"seat {view.seat} cannot see the turn-up, so trumps are unknown to it")
    return _world(view, rng, view.deal_kind)


def _world(view: SeatView, rng: random.Random, deal_kind: DealKind) -> LooHand:
    """:func:`determinize` for a given kind of deal."""
    assert view.turnup is not None
    rules = view.rules
    game = rules.game
    n = len(view.names)
    seat = view.seat
    trump = view.turnup.suit
    pam = _pam_card(rules, trump)
    active = _active(view)
    size = game.hand_size
    with_miss = game.has_miss and deal_kind is DealKind.NORMAL
    played_by: dict[int, list[Card]] = {p: [] for p in range(n)}
    for plays in [t.plays for t in view.tricks] + [view.current]:
        for p, c in plays:
            played_by[p].append(c)
    own = list(view.hand) if view.hand is not None else None
    put_out = list(view.put_out)  # this seat's own discards: known to it, and out of play
    known = {c for cs in played_by.values() for c in cs} | {view.turnup} | set(own or ()) | set(put_out)
    unknown = [c for c in full_pack() if c not in known]
    sizes = {p: view.hand_sizes[p] for p in active if p != seat or own is None}
    last = _rotation(view.dealer, active, n)[-1]
    turnup_held = view.turnup_taken and not any(view.turnup in cs for cs in played_by.values())
    if turnup_held and last in sizes:
        sizes[last] -= 1  # the dealer took the turn-up (L5-OPT-02): everyone knows he holds it
    forbidden = _forbidden(view, trump, pam)
    sampled, rest = _sample_holdings(unknown, sizes, forbidden, rng)
    holdings = [list(sampled.get(p, ())) for p in range(n)]
    if turnup_held and last in sizes:
        holdings[last].append(view.turnup)
    if own is not None:
        holdings[seat] = own
    miss_untaken = with_miss and view.miss_taken_by is None and not view.for_pool
    miss: list[Card] = []
    if miss_untaken:
        miss, rest = rest[:3], rest[3:]
    elif view.miss_taken_by is not None:
        miss = holdings[view.miss_taken_by] + played_by[view.miss_taken_by]
    elif view.for_pool:
        miss = holdings[last] + played_by[last]
    stock_len = 52 - len(active) * size - 1 - (3 if with_miss else 0)
    stock_pos = sum(k for k in view.exchanged if k)
    future = stock_len - stock_pos
    dead, future_stock = put_out + rest[: len(rest) - future], rest[len(rest) - future :]
    drawn = (dead + future_stock + miss)[:stock_pos]  # what was drawn is gone: any cards will do
    stock = drawn + future_stock
    dealt: list[tuple[Card, ...] | None] = [None] * n
    # A seat that threw up, took the miss or exchanged had its deal go dead: give it dead cards (a
    # record of this world's deal is only illustrative; play never looks at the dealt cards again).
    spare = dead + future_stock
    for p in active:
        original = holdings[p] + played_by[p]
        if len(original) != size or view.declared[p] in ("miss", "for-pool") or view.exchanged[p]:
            original, spare = (spare + original)[:size], spare[size:]
        dealt[p] = tuple(original)
    return LooHand.at_view(
        view,
        dealt=dealt,
        holdings=holdings,
        miss=miss,
        stock=stock,
        stock_pos=stock_pos,
        dead=dead,
        put_out=put_out,
        deal_kind=deal_kind,
    )


def _rotation(dealer: int, active: Sequence[int], n: int) -> list[int]:
    return [(dealer + i) % n for i in range(1, n + 1) if (dealer + i) % n in active]


# ----- Monte Carlo -----------------------------------------------------------------------------


def playout(hand: LooHand, policy: Bot[SeatView], rng: random.Random) -> None:
    """Play ``hand`` to the end with ``policy`` at every seat (ThumbBot and RandomBot take a fast path)."""
    thumb = isinstance(policy, ThumbBot)
    fast_random = isinstance(policy, RandomBot)
    trump = hand.trump
    pam = hand.pam_card
    while (phase := hand.phase) is not Phase.DONE:
        seat = hand.to_act
        assert seat is not None
        if fast_random:
            hand.push_unchecked(rng.choice(hand.legal_actions()))
        elif not thumb:
            hand.push_unchecked(policy.choose(hand.view(seat), rng))
        elif phase is Phase.PLAY:
            card = _thumb_play(hand.playable(seat), hand.current_trick, trump, pam)
            hand.push_unchecked(Action(seat, "play", card))
        elif phase is Phase.EXCHANGE:
            cards = list(hand.holding(seat))
            room = min(len(cards), hand.stock_left)
            hand.push_unchecked(_thumb_exchange(seat, cards, trump, pam, room))
        else:
            legal = hand.legal_actions()
            struck_in = sum(1 for p in range(hand.n) if hand.declared(p) in ("stand", "miss"))
            holding = list(hand.holding(seat))
            action = (
                legal[0]
                if len(legal) == 1
                else _thumb_declare(
                    legal, holding, trump, pam, hand.turnup, eldest=seat == hand.eldest, struck_in=struck_in
                )
            )
            hand.push_unchecked(action)


class SamplingBot(SamplingPlayer[SeatView]):
    """Determinized Monte Carlo: sample the hidden cards, play each choice out, keep the best average.

    For each of ``samples`` determinizations (:func:`determinize`) every candidate action is
    played to the end by ``rollout`` at every seat, and the chips this seat nets
    (``settlement.net()``) are averaged. All candidates share the same samples, so their
    comparison is paired. Exchanges are narrowed to discarding the k least useful cards, k = 0, 1, ….
    Ties go to the rule-of-thumb choice, which is tried first.
    """

    DEFAULT_SAMPLES: ClassVar[int] = 20

    def __init__(self, samples: int | None = None, rollout: Bot[SeatView] | None = None) -> None:
        super().__init__(samples)
        self.rollout: Bot[SeatView] = rollout if rollout is not None else ThumbBot()
        self._thumb = ThumbBot()

    def candidates(self, view: SeatView, rng: random.Random) -> list[Action]:
        """The actions worth sampling: the rule of thumb's first, then the rest of ``view.legal``."""
        legal = legal_choices(view)
        first = self._thumb.choose(view, rng)
        if view.phase is Phase.EXCHANGE and view.hand is not None:
            trump = view.turnup.suit if view.turnup is not None else None
            pam = _pam_card(view.rules, trump)
            worst_first = sorted(view.hand, key=lambda c: _value(c, trump, pam))
            by_set = {frozenset(a.value): a for a in legal}
            legal = tuple(
                by_set[frozenset(worst_first[:k])]
                for k in range(len(worst_first) + 1)
                if frozenset(worst_first[:k]) in by_set
            )
        return [first, *(a for a in legal if a != first)]

    def world(self, view: SeatView, rng: random.Random) -> LooHand:
        return determinize(view, rng)

    def consistent(self, view: SeatView, world: Hand) -> bool:
        """Every other seat that stood on the cards it was dealt holds, in ``world``, a hand the rule of
        thumb would stand on (L3-DECL-02): a reader's table plays the rule of thumb's bots."""
        assert isinstance(world, LooHand)
        trump = view.turnup.suit if view.turnup is not None else None
        pam = _pam_card(view.rules, trump)
        for p, said in enumerate(view.declared):
            dealt = world.dealt[p]
            if p != view.seat and said == "stand" and not view.exchanged[p] and dealt is not None:
                if not _is_strong(dealt, trump, pam):
                    return False
        return True

    def play_out(self, hand: Hand, rng: random.Random) -> None:
        assert isinstance(hand, LooHand)
        playout(hand, self.rollout, rng)


BOTS: dict[str, type[RandomBot] | type[ThumbBot] | type[SamplingBot]] = {
    "random": RandomBot,
    "thumb": ThumbBot,
    "sampling": SamplingBot,
}


def make_bot(name: str) -> Bot[SeatView]:
    """A bot by name: ``random``, ``thumb`` or ``sampling``.

    >>> make_bot("thumb").name
    'thumb'
    >>> make_bot("clever")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'clever'; the bots are random, sampling, thumb
    """
    cls = BOTS.get(name)
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(sorted(BOTS))}")
    return cls()
