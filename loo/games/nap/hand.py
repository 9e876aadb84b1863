"""A hand of Napoleon (Nap), catalogue group E: :class:`NapHand`, from the deal to the settlement.

The orthodox game: five cards each and no turn-up (NAP-DEAL-03/04); one round of calling from
the eldest hand, each call raising the last (NAP-CALL-01, AMB-36); the highest caller leads and
his first lead fixes trumps (NAP-PLAY-01); follow suit, with no duty to head or trump
(NAP-PLAY-02, NAP-GEN-04); level money (NAP-SET-03); play stops once the call is made or
beaten (NAP-PLAY-06, AMB-43), though a record may play the remaining cards out
(:meth:`NapHand.play_on_actions`).  Wellington, Misery, Sir Garnet, Peep and Purchase Nap and the
pool are options of :class:`~loo.games.nap.rules.NapRules`. The hand takes in two
parts kept in modules of their own: why an action is refused or allowed
(:class:`~loo.games.nap.explain.NapExplaining`) and a teaching table's irregularities and claims
(:class:`~loo.games.nap.irregular.NapIrregularities`).

:class:`NapHand` keeps the protocol of :class:`loo.core.hand.TrickHand`: ``legal_actions()``,
``push()`` (refusing with the law broken), ``pop()``, ``push_unchecked()``, ``view(seat)``,
``explain()``, ``why_illegal()`` and ``settlement``.

>>> import random
>>> from loo.games.nap.rules import NapRules
>>> hand = NapHand.deal(NapRules.preset("hoffmann"), random.Random(4), seats=4, dealer=3,
...                     names=("Ann", "Ben", "Cat", "Dan"))
>>> hand.to_act, [a.value for a in hand.legal_actions()]
(0, ['pass', '1', '2', '3', '4', 'nap'])
>>> while not hand.is_over:
...     hand.push(hand.legal_actions()[0])  # everyone passes, so Dan must call one (NAP-CALL-04)
>>> hand.settlement.call, hand.settlement.caller, sum(hand.settlement.net())
('1', 3, 0)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from loo.core.actions import CALLS, Action
from loo.core.cards import Card, Suit, full_pack
from loo.core.hand import Trick
from loo.core.reasons import Reason
from loo.core.tricks import trick_winner
from loo.games.nap import tricks as trick_laws
from loo.games.nap.explain import NapExplaining
from loo.games.nap.irregular import NapIrregularities
from loo.games.nap.rules import (
    CALL_RANK,
    GAME,
    NAP,
    TRICKS_NEEDED,
    KittyMode,
    MiseryTrumps,
    NapRules,
    call_options,
    deal_nap,
)
from loo.games.nap.settle import NapSettlement, settle_stakes
from loo.games.nap.state import NapOffence, NapPhase, NapState, NapView


class NapHand(NapExplaining, NapIrregularities):
    """One deal of Nap, from the purchases or the calling to the settlement."""

    def __init__(
        self,
        rules: NapRules,
        *,
        hands: Sequence[Sequence[Card]],
        dealer: int,
        pool: int = 0,
        stock: Sequence[Card] | None = None,
        garnet: Sequence[Card] = (),
        peep_card: Card | None = None,
        names: Sequence[str] | None = None,
        table: bool = False,
    ) -> None:
        self.rules = rules
        self.game = GAME
        self.table = table  # teaching table: revokes and the like are recorded and penalised (E.11)
        self.n = len(hands)
        if self.n < 2:
            raise ValueError("Nap needs at least two players (NAP-GEN-02)")
        self.names = tuple(names) if names is not None else tuple(f"seat {i}" for i in range(self.n))
        self.dealer = dealer
        self.pool = pool
        self.dealt: tuple[tuple[Card, ...], ...] = tuple(tuple(h) for h in hands)
        self.garnet = tuple(garnet)
        self.peep_card = peep_card
        if stock is None:
            used = {c for h in self.dealt for c in h} | set(self.garnet) | ({peep_card} if peep_card else set())
            stock = [c for c in full_pack() if c not in used]
        self.stock = tuple(stock)
        self.eldest = (dealer + 1) % self.n
        self.rotation = tuple((dealer + i) % self.n for i in range(1, self.n + 1))  # the eldest first, dealer last
        first = NapPhase.PURCHASE if rules.purchase else NapPhase.CALL
        self._s = NapState(
            phase=first,
            to_act=self.eldest,
            holding=[list(h) for h in self.dealt],
            calls=[None] * self.n,
            peeped=[False] * self.n,
            purchased=[None] * self.n,
            put_out=[[] for _ in range(self.n)],
            pool_paid=[0] * self.n,
        )
        self._history: list[tuple[Action, NapState]] = []

    @classmethod
    def deal(
        cls,
        rules: NapRules,
        rng: random.Random,
        *,
        seats: int,
        dealer: int,
        pool: int = 0,
        names: Sequence[str] | None = None,
        table: bool = False,
    ) -> NapHand:
        """Shuffle with ``rng`` and deal (:func:`deal_nap`)."""
        hands, garnet, peep_card, stock = deal_nap(rules, rng, seats=seats, dealer=dealer)
        return cls(
            rules,
            hands=hands,
            dealer=dealer,
            pool=pool,
            stock=stock,
            garnet=garnet,
            peep_card=peep_card,
            names=names,
            table=table,
        )

    # ----- public state -------------------------------------------------------------------

    @property
    def caller(self) -> int | None:
        return self._s.caller

    @property
    def call(self) -> str | None:
        return CALLS[self._s.high] if self._s.high else None

    @property
    def trump(self) -> Suit | None:
        return self._s.trump

    @property
    def offences(self) -> tuple[NapOffence, ...]:
        return tuple(self._s.offences)

    def holding(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (the engine's full knowledge: not for a seat's view)."""
        return tuple(self._s.holding[seat])

    def view(self, seat: int) -> NapView:
        """What ``seat`` may know now: its own hand, the peep card if it peeped, and the public table."""
        s = self._s
        return NapView(
            **self._public(seat),
            hand=tuple(s.holding[seat]),
            peep_card=self.peep_card if s.peeped[seat] else None,
            put_out=tuple(s.put_out[seat]),
            calls=tuple(s.calls),
            caller=s.caller,
            call=self.call,
            peeped=tuple(s.peeped),
            garnet_by=s.garnet_by,
            purchased=tuple(s.purchased),
            peep_taken=s.peep_taken,
            trump=s.trump,
            hand_sizes=tuple(len(h) for h in s.holding),
            tricks=tuple(s.tricks),
            current=tuple(s.current),
            pool_paid=tuple(s.pool_paid),
            legal=tuple(self.legal_actions()) if s.to_act == seat else (),
            settlement=s.settlement,
        )

    # ----- legal actions ------------------------------------------------------------------

    def _legal(self, s: NapState, seat: int) -> list[Action]:
        phase = s.phase
        if phase is NapPhase.PLAY:
            return [Action(seat, "play", c) for c in self._playable(seat)]
        if phase is NapPhase.CALL:
            out = [Action(seat, "call", c) for c in self._call_options(seat)]
            if self.rules.peep and not s.peeped[seat]:
                out.append(Action(seat, "peep", True))
            if self._may_take_garnet():
                out.append(Action(seat, "garnet", ()))  # taken up unseen: its cards are not shown in the offer
            return out
        if phase is NapPhase.GARNET:
            return [Action(seat, "garnet", combo) for combo in itertools.combinations(s.holding[seat], 5)]
        if phase is NapPhase.PURCHASE:
            return [Action(seat, "purchase", combo) for combo in self._purchase_options(seat)]
        if phase is NapPhase.EXCHANGE:
            return [Action(seat, "exchange", ()), *(Action(seat, "exchange", (c,)) for c in s.holding[seat])]
        return []

    def _forced(self, seat: int) -> bool:
        """NAP-CALL-04, AMB-36: the dealer, everyone else having passed, must call at least one."""
        return seat == self.dealer and self._s.high == 0 and self.rules.dealer_forced_one

    def _call_options(self, seat: int) -> tuple[str, ...]:
        return call_options(self.rules, self._s.high, forced=self._forced(seat))

    def _may_take_garnet(self) -> bool:
        """NAP-SG-02, AMB-38: untaken, and a Nap may still be called."""
        return self.rules.sir_garnet and self._s.garnet_by is None and self._s.high < NAP and bool(self.garnet)

    def _purchase_options(self, seat: int) -> list[tuple[Card, ...]]:
        """NAP-PUR-03, AMB-41, AMB-28: up to five cards, no more than the stock can replace."""
        hand = self._s.holding[seat]
        room = min(5, len(hand), len(self.stock) - self._s.stock_pos)
        out: list[tuple[Card, ...]] = []
        for size in range(room + 1):
            out.extend(itertools.combinations(hand, size))
        return out

    @classmethod
    def at_view(
        cls,
        view: NapView,
        *,
        holdings: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        stock_pos: int,
        garnet: Sequence[Card],
        peep_card: Card | None,
    ) -> NapHand:
        """A hand at the public state ``view`` shows, with these hidden cards: one guess at what
        ``view.seat`` cannot see (a sampling player's world, :func:`loo.games.nap.bots.determinize`).

        ``holdings`` are the cards each seat holds now, ``stock`` and ``stock_pos`` the stock and
        how much of it is bought, ``garnet`` Sir Garnet's five and ``peep_card`` the peep card. The
        hand cannot be taken back past this point.
        """
        n = len(view.names)
        seat = view.seat
        held = [list(h) for h in holdings]
        world = cls(
            view.rules,
            hands=held,
            stock=stock,
            garnet=garnet,
            peep_card=peep_card,
            **view.seated(),
        )
        state = NapState(
            phase=view.phase,
            to_act=view.to_act,
            holding=held,
            calls=list(view.calls),
            high=CALL_RANK[view.call] if view.call else 0,
            caller=view.caller,
            peeped=list(view.peeped),
            garnet_by=view.garnet_by,
            purchased=list(view.purchased),
            stock_pos=stock_pos,
            put_out=[[] for _ in range(n)],
            peep_taken=view.peep_taken,
            trump=view.trump,
            tricks=list(view.tricks),
            current=list(view.current),
            leader=view.current[0][0] if view.current else (view.tricks[-1].winner if view.tricks else view.caller),
            pool_paid=list(view.pool_paid),
        )
        state.put_out[seat] = list(view.put_out)
        world._s = state
        world._history = []
        return world

    def playable(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now, in the order it holds them."""
        return self._playable(seat)

    def _playable(self, seat: int) -> list[Card]:
        """NAP-PLAY-02, NAP-GEN-04: follow suit if able, otherwise any card; no heading or trumping duty."""
        hand = self._s.holding[seat]
        current = self._s.current
        if not current:
            return trick_laws.leader_choices(hand)
        led = current[0][1].suit
        return trick_laws.follow_choices(hand, lambda c: c.suit is led)[0]

    def _feeds_the_pool(self, card: Card) -> bool:
        """NAP-POOL-04, AMB-40: at a table that feeds the pool with knaves and fives, does ``card`` played now?"""
        kitty = self.rules.kitty_mode is KittyMode.KNAVE_OR_FIVE
        return kitty and trick_laws.feeds_the_pool(card.rank, card.suit is self._s.trump)

    def _winner(self) -> int:
        """NAP-PLAY-04: the seat whose card has the most power in the trick just completed."""
        s = self._s
        led, trump = s.current[0][1].suit, s.trump
        return trick_winner(s.current, lambda _seat, c: trick_laws.card_power(c.suit, c.rank, led=led, trump=trump))

    # ----- explanations: NapExplaining (loo.games.nap.explain) -------------------------------

    # ----- making moves -------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        s = self._s
        seat = action.seat
        verb = action.verb
        if verb == "play" and s.phase is NapPhase.DONE:
            self._play_on(seat, action.value)
        elif verb == "play":
            self._play(seat, action.value)
        elif verb == "call":
            self._call(seat, action.value)
        elif verb == "peep":
            s.peeped[seat] = True
            s.pool_paid[seat] += self.rules.peep_fee * self.rules.unit  # NAP-PEEP-02, AMB-38
        elif verb == "garnet" and not action.value:
            s.holding[seat] = s.holding[seat] + list(self.garnet)  # NAP-SG-02: taken into his hand
            s.garnet_by = seat
            s.phase = NapPhase.GARNET
        elif verb == "garnet":
            hand = s.holding[seat]
            for card in action.value:
                hand.remove(card)
            s.dead.extend(action.value)  # NAP-SG-03: thrown out face down
            s.put_out[seat].extend(action.value)
            s.phase = NapPhase.CALL
            self._call(seat, "nap")  # NAP-SG-04
        elif verb == "purchase":
            hand = s.holding[seat]
            for card in action.value:
                hand.remove(card)
            s.dead.extend(action.value)  # NAP-PUR-04: not shown, not used again this deal
            s.put_out[seat].extend(action.value)
            k = len(action.value)
            hand.extend(self.stock[s.stock_pos : s.stock_pos + k])
            s.stock_pos += k
            s.purchased[seat] = k
            s.pool_paid[seat] += k * self.rules.purchase_price * self.rules.unit  # NAP-PUR-02
            if seat == self.dealer:
                s.phase = NapPhase.CALL  # NAP-PUR-05: the calling then starts on the dealer's left
                s.to_act = self.eldest
            else:
                s.to_act = (seat + 1) % self.n
        elif verb == "exchange":
            if action.value:
                (card,) = action.value
                assert self.peep_card is not None
                hand = s.holding[seat]
                hand[hand.index(card)] = self.peep_card
                s.dead.append(card)
                s.put_out[seat].append(card)
                s.peep_taken = True
            self._start_play()
        else:
            raise ValueError(f"Nap has no action {verb!r}")

    def _call(self, seat: int, call: str) -> None:
        s = self._s
        s.calls[seat] = call
        rank = CALL_RANK[call]
        if rank > s.high:
            s.high = rank
            s.caller = seat
        if seat != self.dealer:
            s.to_act = (seat + 1) % self.n
            return
        # AMB-36: the dealer calls last, so the calling is over.
        if s.caller is None:
            self._finish(self._settle(Reason.REDEAL))  # AMB-36: no call, and no forced call agreed
        elif self.rules.peep and s.peeped[s.caller]:
            s.phase = NapPhase.EXCHANGE  # NAP-PEEP-03/05: only now, every later player having had his chance
            s.to_act = s.caller
        else:
            self._start_play()

    def _start_play(self) -> None:
        s = self._s
        s.phase = NapPhase.PLAY
        s.leader = s.to_act = s.caller  # NAP-PLAY-01, NAP-CALL-05
        if self.table:
            s.start_of_play = s.copy()

    def _play(self, seat: int, card: Card) -> None:
        s = self._s
        s.holding[seat].remove(card)
        if not s.current and not s.tricks:
            # NAP-PLAY-01: the first lead fixes trumps; a Misery has none unless agreed (NAP-MIS-02/03, CF-32).
            s.trump = trick_laws.first_lead_trump(self._misery_without_trumps(), card.suit)
        s.current.append((seat, card))
        if self._feeds_the_pool(card):
            s.pool_paid[seat] += self.rules.unit  # NAP-POOL-04, AMB-40
        if len(s.current) < self.n:
            s.to_act = (seat + 1) % self.n
            return
        winner = self._winner()
        assert s.leader is not None
        s.tricks.append(Trick(s.leader, tuple(s.current), winner))
        s.current = []
        if self._decided():
            self._finish(self._settle(Reason.PLAYED))  # NAP-PLAY-06, AMB-43, AMB-39
            return
        s.leader = s.to_act = winner  # NAP-PLAY-04

    def _play_on_seat(self) -> int | None:
        """NAP-PLAY-06, AMB-43: once the call is made or defeated, the seat that would play next if the
        hand is played out; None while the hand is undecided, when it ended some other way, or once every
        card is played."""
        s = self._s
        settled = s.settlement
        if s.phase is not NapPhase.DONE or settled is None or settled.reason is not Reason.PLAYED or s.caller is None:
            return None
        if s.current:
            return (s.current[-1][0] + 1) % self.n
        if not any(s.holding):
            return None
        return s.tricks[-1].winner if s.tricks else None

    def play_on_actions(self) -> list[Action]:
        """The cards that may still be played once the call is made or defeated (NAP-PLAY-06, AMB-43).

        The hand is decided, and over, at that moment: :attr:`to_act` is None and
        :meth:`legal_actions` offers nothing, so a table or a bot stops there. A record may still
        play the remaining tricks out, following suit as ever (NAP-PLAY-02); these are the cards the
        next seat may play. Playing on changes nothing that the decision settled; under the
        knave-or-five pool every such card played still pays its unit (NAP-POOL-04, AMB-40).
        """
        seat = self._play_on_seat()
        return [] if seat is None else [Action(seat, "play", c) for c in self._playable(seat)]

    def _play_on(self, seat: int, card: Card) -> None:
        """A card played after the decision (NAP-PLAY-06, AMB-43): the trick is completed and credited as
        usual, and the settlement reckoned again, its call made or lost as before (NAP-SET-01)."""
        s = self._s
        settled = s.settlement
        assert settled is not None
        s.holding[seat].remove(card)
        s.current.append((seat, card))
        if self._feeds_the_pool(card):
            s.pool_paid[seat] += self.rules.unit  # NAP-POOL-04, AMB-40: the cards played later count too
        if len(s.current) == self.n:
            winner = self._winner()
            s.tricks.append(Trick(s.current[0][0], tuple(s.current), winner))
            s.current = []
            s.leader = winner
        s.settlement = self._settle(settled.reason)  # tricks won later cannot undo a decided call

    def _decided(self) -> bool:
        s = self._s
        mine = sum(1 for t in s.tricks if t.winner == s.caller)
        call = CALLS[s.high]
        return trick_laws.call_outcome(call == "misery", TRICKS_NEEDED[call], mine, len(s.tricks)) is not None

    def _misery_without_trumps(self) -> bool:
        return CALLS[self._s.high] == "misery" and self.rules.misery_trumps is MiseryTrumps.NONE

    def _finish(self, settlement: NapSettlement) -> None:
        s = self._s
        s.phase = NapPhase.DONE
        s.to_act = None
        s.settlement = settlement

    # ----- settlement -------------------------------------------------------------------

    def _settle(self, reason: Reason) -> NapSettlement:
        """NAP-SET-01..05, NAP-WEL-01/03, NAP-MIS-05, NAP-SG-05, NAP-POOL-05..07; in table mode NAP-REV-04..06
        and NAP-WRG-02..04 (AMB-42, AMB-44)."""
        s = self._s
        n = self.n
        rules = self.rules
        won = [0] * n
        for t in s.tricks:
            won[t.winner] += 1
        caller = s.caller
        call = CALLS[s.high] if s.high else None
        if caller is None or call is None or reason in ("redeal", "misdeal"):
            return NapSettlement(
                reason,
                caller,
                call,
                None,
                tuple(s.tricks),
                tuple(won),
                (0,) * n,
                tuple(s.pool_paid),
                (0,) * n,
                self.pool + sum(s.pool_paid),
                rules.kitty,
                wrong_count=tuple(s.wrong_count),
            )
        if reason == "caller-revoke":
            made = False  # NAP-REV-06: he loses the call however many tricks he made
        elif call == "misery":
            made = won[caller] == 0
        else:
            made = won[caller] >= TRICKS_NEEDED[call]  # NAP-SET-01
        stakes, pool_paid, taken, next_pool = settle_stakes(
            rules,
            seats=n,
            caller=caller,
            call=call,
            made=made,
            pool=self.pool,
            pool_paid=s.pool_paid,
            caller_revoked=reason == "caller-revoke",
            offender=s.offender,
            wrong_count=s.wrong_count,
        )
        return NapSettlement(
            reason,
            caller,
            call,
            made,
            tuple(s.tricks),
            tuple(won),
            tuple(stakes),
            tuple(pool_paid),
            tuple(taken),
            next_pool,
            rules.kitty,
            s.offender,
            tuple(s.wrong_count),
        )

    # Table mode's irregularities and claims (E.11): NapIrregularities (loo.games.nap.irregular).
