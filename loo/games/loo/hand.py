"""A hand of three-card, five-card (Pam) or Irish Loo in progress.

Like python-chess's ``Board``: mutable, with ``legal_actions()``, ``push()``
(which checks the laws and raises :class:`IllegalActionError` naming the law
broken), ``pop()`` for take-back, ``view(seat)`` for what one seat may know,
and ``settlement`` once the hand is over.

>>> import random
>>> from loo.games.loo.rules import Rules
>>> hand = LooHand.deal(Rules.preset("peel"), random.Random(1), seats=4, dealer=3, pool=3)
>>> hand.to_act, [str(a) for a in hand.legal_actions()]
(0, ['seat 0 declare stand', 'seat 0 declare miss', 'seat 0 declare throw'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from loo.core.actions import Action, Verb
from loo.core.cards import CARDS, Card, Rank, Suit, full_pack
from loo.core.hand import Phase, Trick, made_quickly
from loo.core.reasons import Reason
from loo.core.tricks import Duty
from loo.games.loo.dealing import deal_cards
from loo.games.loo.explain import Explaining
from loo.games.loo.play import (
    ACE,
    PLAYING,
    STANDING,
    conceded,
    dealer_uncontested,
    declaration_options,
    exchange_choices,
    first_leader,
    follow_choices,
    lead_choices,
    may_miss_when_all_play,
    next_in_trick,
    players_of,
    power,
    rotation,
)
from loo.games.loo.rules import ClubLawMiss, FirstDealMode, Game, LoneOpponentRule, Pam, PamBeCivil, Rules
from loo.games.loo.settle import Settling
from loo.games.loo.state import DealKind, HandState, LooHandBase, SeatView, Settlement
from loo.games.loo.table import TableMode

# The hand's public names; its parts live in loo.games.loo (state, explain, settle, table).
__all__ = ["LooHand"]

# The members the hot paths compare against, looked up once (a class attribute costs more than a global).
_DECLARE, _EXCHANGE, _PLAY, _DONE = Phase.DECLARE, Phase.EXCHANGE, Phase.PLAY, Phase.DONE
_V_DECLARE, _V_PLAY, _V_FOR_POOL = Verb.DECLARE, Verb.PLAY, Verb.FOR_POOL
_FIVE_CARD, _THREE_CARD = Game.FIVE_CARD, Game.THREE_CARD
_NORMAL, _SINGLE, _FINAL = DealKind.NORMAL, DealKind.SINGLE, DealKind.FINAL

# Actions are values: each declaration and each play of a card by a seat is made once, and shared.
_DECLARE_ACTIONS: dict[tuple[int, tuple[str, ...]], tuple[Action, ...]] = {}  # by seat and what it may declare
_PLAY_ACTIONS: list[tuple[Action, ...]] = []  # by seat, then by card index
_NAMES: dict[int, tuple[str, ...]] = {}
_new = object.__new__
_ROTATIONS: dict[
    tuple[int, int], tuple[int, ...]
] = {}  # by dealer and seats, every seat dealt in  # the seats' default names, by the number of seats


class LooHand(Explaining, TableMode, Settling, LooHandBase):
    """One deal of a Loo game, from the declarations to the settlement.

    Its explanations (:mod:`loo.games.loo.explain`), table mode (:mod:`loo.games.loo.table`) and
    settlement (:mod:`loo.games.loo.settle`) are written in their own modules; what is legal is
    asked of the rule functions of :mod:`loo.games.loo.play`.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        hands: Sequence[Sequence[Card] | None],
        turnup: Card,
        dealer: int,
        pool: int,
        miss: Sequence[Card] = (),
        stock: Sequence[Card] | None = None,
        deal_kind: DealKind = DealKind.NORMAL,
        names: Sequence[str] | None = None,
        table: bool = False,
    ) -> None:
        self.rules = rules
        self.game = game = rules.game
        # Table mode (teaching): an offence is recorded and penalised as the sources say, not refused.
        self.table = table
        self.n = n = len(hands)
        if names is not None:
            self.names = tuple(names)
        else:
            self.names = _NAMES.get(n) or _NAMES.setdefault(n, tuple(f"seat {i}" for i in range(n)))
        self.dealer = dealer
        self.pool = pool
        self.deal_kind = deal_kind
        self.turnup = turnup
        self.dealt = dealt = tuple([tuple(h) if h is not None else None for h in hands])
        self.miss = tuple(miss)
        if stock is None:
            used = {c for h in self.dealt if h for c in h} | set(self.miss) | {turnup}
            stock = [c for c in full_pack() if c not in used]
        self.stock = tuple(stock)
        self.trump = trump = turnup.suit
        self.pam_card = None
        five = game is _FIVE_CARD
        if five:
            pam_suit = trump if rules.pam is Pam.TRUMP_KNAVE else Suit.CLUBS
            self.pam_card = Card(Rank.KNAVE, pam_suit)
        # The rule functions of loo.games.loo.play compute on card indices: trumps, Pam (-1: none), turn-up.
        self._trump = turnup.index // 13
        self._pam = self.pam_card.index if self.pam_card is not None else -1
        self._turnup = turnup.index
        self._peel_dealer = game is _THREE_CARD and rules.lone_opponent_rule is LoneOpponentRule.PEEL
        # What legal_actions() last offered, and for which state: (state, the actions). An action
        # changes the state in place only through _apply and _play (and table mode's penalties), which
        # forget the offer; while it stands, push need not ask again about an action offered.
        self._offered = None
        rot = _ROTATIONS.get((dealer, n))  # the same for every deal with every seat dealt in
        if rot is None or None in dealt:
            rot = rotation(dealer, n, dealt)
            if None not in dealt:
                _ROTATIONS[dealer, n] = rot
        self._rot = rot
        self.active = list(range(n)) if len(rot) == n else [s for s in range(n) if dealt[s] is not None]
        self.eldest = rot[0] if rot else dealer  # the first active seat on the dealer's left
        # AMB-20: when the dealer sits out, his rights pass to the last active player, the acting dealer.
        self.last = rot[-1]
        self.club_law = club_law = rules.club_law and trump is Suit.CLUBS and not five
        only_stake = pool == rules.deal_price
        first_deal_mode = rules.first_deal_mode
        self.bold_stand = first_deal_mode is FirstDealMode.BOLD_STAND and only_stake and deal_kind is _NORMAL
        self.must = five and rules.must_option and only_stake
        self.peel_single = deal_kind is _SINGLE and first_deal_mode is FirstDealMode.PEEL_SINGLE
        self.all_must_play = (
            club_law
            or self.bold_stand
            or self.must
            or deal_kind is _FINAL
            or (deal_kind is _SINGLE and not self.peel_single)
        )
        self.miss_in_play = bool(miss) and not (club_law and rules.club_law_miss is ClubLawMiss.WITHDRAWN)
        self._tricks = 5 if five else 3  # the tricks a hand is played for (Rules.tricks)
        self._follow_rules = (rules.must_head, rules.void_rule)
        self._s = HandState.start(self.eldest, [list(h) if h is not None else [] for h in dealt])
        self._history = []
        if self.peel_single:
            self._finish(self._settle_peel_single())

    # ----- construction -------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        rng: random.Random,
        *,
        seats: int,
        dealer: int,
        pool: int,
        deal_kind: DealKind = DealKind.NORMAL,
        names: Sequence[str] | None = None,
        sitting_out: Sequence[int] = (),
        table: bool = False,
    ) -> LooHand:
        """Shuffle with ``rng`` and deal in the order the rules give (L3-DEAL-08..10, CF-16, L5-GEN-01)."""
        hands, miss, turnup, stock = deal_cards(
            rules, rng, seats=seats, dealer=dealer, deal_kind=deal_kind, sitting_out=sitting_out
        )
        return cls(
            rules,
            hands=hands,
            turnup=turnup,
            dealer=dealer,
            pool=pool,
            miss=miss,
            stock=stock,
            deal_kind=deal_kind,
            names=names,
            table=table,
        )

    # ----- public state -------------------------------------------------------------------

    @classmethod
    def at_view(
        cls,
        view: SeatView,
        *,
        dealt: Sequence[tuple[Card, ...] | None],
        holdings: Sequence[Sequence[Card]],
        miss: Sequence[Card],
        stock: Sequence[Card],
        stock_pos: int,
        dead: Sequence[Card],
        put_out: Sequence[Card],
        deal_kind: DealKind,
    ) -> LooHand:
        """A hand at the public state ``view`` shows, with these hidden cards: one guess at what
        ``view.seat`` cannot see (a sampling player's world, :func:`loo.games.loo.bots.determinize`).

        ``holdings`` are the cards each seat holds now, ``dealt`` what each was dealt (only
        illustrative once declared), ``miss``, ``stock`` and ``stock_pos`` the miss and the stock
        and how much of it is drawn, ``dead`` the cards out of play, ``put_out`` what the viewing
        seat itself put out. The hand cannot be taken back past this point.
        """
        if view.turnup is None:
            raise ValueError(f"seat {view.seat} cannot see the turn-up, so trumps are unknown to it")
        world = cls(
            view.rules,
            hands=dealt,
            turnup=view.turnup,
            miss=miss,
            stock=stock,
            deal_kind=deal_kind,
            **view.seated(),
        )
        world._s.set_at_view(view, holdings, stock_pos, dead, put_out)
        world._history = []
        return world

    @property
    def stock_left(self) -> int:
        """Cards still in the stock for exchanges (five-card Loo, Irish Loo)."""
        return len(self.stock) - self._s.stock_pos

    def holding(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (the engine's full knowledge: not for a seat's view)."""
        return tuple(self._s.holding[seat])

    def declared(self, seat: int) -> str | None:
        return self._s.declared[seat]

    @property
    def miss_taken_by(self) -> int | None:
        return self._s.miss_taken_by

    @property
    def playing_for_pool(self) -> bool:
        return self._s.for_pool

    # ----- legal actions ------------------------------------------------------------------

    def _legal(self, s: HandState, seat: int) -> list[Action]:
        phase = s.phase
        if phase is _PLAY:
            hand, current, best = [c.index for c in s.holding[seat]], s.current, s.best
            if not current:  # _duty's two cases asked directly of the rule functions, as the commonest
                choices = lead_choices(hand, len(s.tricks), self._trump, self._pam, self.rules, self._turnup)[0]
            elif self._pam < 0 and best is not None:  # no Pam, so no civility
                led_card = current[0][1].index
                choices = follow_choices(hand, led_card, best[0], self._trump, -1, False, *self._follow_rules)[0]
            else:
                choices = self._duty(hand)[0]
            if seat >= len(_PLAY_ACTIONS):
                _PLAY_ACTIONS.extend(
                    tuple(Action(p, "play", c) for c in CARDS) for p in range(len(_PLAY_ACTIONS), seat + 1)
                )
            actions = _PLAY_ACTIONS[seat]
            out = [actions[i] for i in choices]
            self._offered = (s, out)
            return out
        if phase is _DECLARE:
            options = self._options(seat)
            made = _DECLARE_ACTIONS.get((seat, options))
            if made is None:
                made = tuple(
                    Action(seat, "for-pool", True) if d == "for-pool" else Action(seat, "declare", d) for d in options
                )
                _DECLARE_ACTIONS[seat, options] = made
            out = list(made)
            if seat == self.last and self._may_take_turnup():
                out.extend(Action(seat, "take-turnup", c) for c in s.holding[seat])
            self._offered = (s, out)
            return out
        if phase is _EXCHANGE:
            return [Action(seat, "exchange", combo) for combo in self._exchange_options(seat)]
        return []

    def _options(self, seat: int) -> tuple[str, ...]:
        """What ``seat`` may declare now, with the dealer's ``for-pool`` (loo.games.loo.play.declaration_options)."""
        s = self._s
        last = seat == self.last
        all_must_play = self.all_must_play
        lone_peel = False
        if last and self._peel_dealer and not all_must_play:
            declared = s.declared
            lone_peel = len([p for p in self.active if p != seat and declared[p] in STANDING]) == 1
        taken = s.miss_taken_by is not None
        return declaration_options(
            all_must_play,  # everyone must play
            self.miss_in_play and not taken,  # the miss is free
            all_must_play
            and may_miss_when_all_play(
                self.rules, club_law=self.club_law, bold_stand=self.bold_stand, eldest=seat == self.eldest
            ),  # such a hand's miss is open to this seat all the same
            last,
            lone_peel,
            taken,
        )

    def _declarations(self, seat: int) -> list[str]:
        return [d for d in self._options(seat) if d != "for-pool"]

    def _dealer_may_for_pool(self) -> bool:
        """L3-DLR-03: a lone stander on his own hand, the miss untaken, Peel's dealer rule."""
        return "for-pool" in self._options(self.last)

    def _may_take_turnup(self) -> bool:
        """L5-OPT-02, AMB-29: five-card option, at the dealer's turn to declare."""
        return self.game is Game.FIVE_CARD and self.rules.dealer_takes_turnup and not self._s.turnup_taken

    def _exchange_options(self, seat: int) -> list[tuple[Card, ...]]:
        """IRL-05, L5-DECL-02, AMB-28 (loo.games.loo.play.exchange_choices)."""
        hand = self._s.holding[seat]
        return exchange_choices(hand, min(len(hand), len(self.stock) - self._s.stock_pos))

    def _suit(self, card: Card) -> Suit:
        """The suit a card counts as: Pam is a trump for all purposes (AMB-25)."""
        return self.trump if card == self.pam_card else card.suit

    def _power(self, card: Card, led: Suit) -> int:
        """A number such that the higher card wins the trick (loo.games.loo.play.power)."""
        return power(card.index, led, self._trump, self._pam)

    def _trick_power(self, seat: int, card: Card) -> int:
        """The power of ``card``, played by ``seat`` to the current trick (AMB-26).

        Civility bars Pam from a led ace of trumps unless Pam is the holder's last card; then he
        plays it, since he has nothing else, but it lets the ace pass: it wins nothing, like a discard.
        """
        s = self._s
        led_card = s.current[0][1]
        if self._pam < 0:
            return power(card.index, led_card.index // 13, self._trump, -1)
        if card == self.pam_card and not s.holding[seat] and self._civil_applies(led_card):
            return 0
        return self._power(card, self._suit(led_card))

    def _best_so_far(self) -> tuple[int, int]:
        """(power, seat) of the card winning the current trick: the highest power, the earliest on a tie."""
        s = self._s
        best = (-1, -1)
        for seat, card in s.current:
            value = self._trick_power(seat, card)
            if value > best[0]:
                best = (value, seat)
        return best

    def _winning_card(self) -> Card:
        """The card winning the current trick so far."""
        s = self._s
        if self._pam < 0:
            led, trump = s.current[0][1].index // 13, self._trump
            return max(s.current, key=lambda sc: power(sc[1].index, led, trump, -1))[1]
        return max(s.current, key=lambda sc: self._trick_power(sc[0], sc[1]))[1]

    def _duty(self, hand: list[int]) -> tuple[list[int], str | Duty | None]:
        """The indices of the cards in ``hand`` the seat to act may play, and the law (a lead) or the
        duty (a follow) that narrowed them: loo.games.loo.play's lead_choices and follow_choices."""
        s = self._s
        if not s.current:
            return lead_choices(hand, len(s.tricks), self._trump, self._pam, self.rules, self._turnup)
        led_card = s.current[0][1]
        if s.best is None:  # a hand set up at a view: the trick as it stands
            s.best = self._best_so_far()
        best = s.best[0]
        civil = self._pam >= 0 and self._civil_applies(led_card)
        rules = self.rules
        must_head, void_rule = rules.must_head, rules.void_rule
        return follow_choices(hand, led_card.index, best, self._trump, self._pam, civil, must_head, void_rule)

    def playable(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now, in the order it holds them."""
        return self._playable(seat)

    def _playable(self, seat: int) -> list[Card]:
        choices, _ = self._duty([c.index for c in self._s.holding[seat]])
        return [CARDS[i] for i in choices]

    def _civil_applies(self, led_card: Card) -> bool:
        """L5-RANK-05, CF-22, AMB-26: the ace of trumps was led and civility is enforced."""
        if self.pam_card is None or led_card.index != self._trump * 13 + ACE:
            return False
        mode = self.rules.pam_be_civil
        return mode is PamBeCivil.MANDATORY or (mode is PamBeCivil.ON_ANNOUNCE and self._s.civil_said)

    def _who(self, seat: int) -> str:
        if self._s.for_pool and seat == self.last:
            return "the miss (played for the pool)"
        return self.names[seat]

    def push(self, action: Action) -> None:
        """Take ``action`` if the laws allow it; otherwise raise :class:`~loo.core.actions.IllegalActionError`
        naming the law broken and change nothing (at a teaching table, record and penalise it).

        An action legal_actions() offered for this very position is taken at once: it is one of the
        choices the rule functions allowed, so the check is that it is among them.
        """
        s = self._s
        offered = self._offered
        if offered is not None and offered[0] is s:
            for made in offered[1]:
                if made is action:
                    kept = _new(HandState)  # s.copy(), written out: every field shared (copy-on-write)
                    kept.__dict__ = s.__dict__.copy()
                    self._history.append((action, kept))
                    if action.verb is _V_PLAY:
                        self._play(action.seat, action.value, action.civil)
                    else:
                        self._apply(action)
                    return
        super().push(action)

    def _apply(self, action: Action) -> None:
        s = self._s
        seat = action.seat
        verb = action.verb
        if verb is _V_PLAY:
            self._play(seat, action.value, action.civil)
            return
        self._offered = None  # the state changes in place
        if verb is _V_DECLARE:
            what = action.value
            declared = s.declared.copy()  # copy-on-write (HandState): each table changed is copied first
            declared[seat] = what
            s.declared = declared
            if what == "miss" or what == "throw":
                held = s.holding[seat]
                put_out = s.put_out.copy()
                put_out[seat] = [*put_out[seat], *held]
                s.put_out = put_out
                s.dead = [*s.dead, *held]  # L3-DECL-03: a miss's taker's own cards go to the stock unseen
                holding = s.holding.copy()
                if what == "miss":
                    holding[seat] = list(self.miss)
                    s.miss_taken_by = seat
                else:
                    holding[seat] = []
                s.holding = holding
            self._after_declaration(seat)
            return
        s.unshare()  # the other declarations and the exchanges change the per-seat tables in place
        if verb is _V_FOR_POOL:
            s.declared[seat] = "for-pool"
            s.put_out[seat] = [*s.put_out[seat], *s.holding[seat]]
            s.dead = [*s.dead, *s.holding[seat]]
            s.holding[seat] = list(self.miss)
            s.for_pool = True
            self._after_declaration(seat)
        elif verb is Verb.TAKE_TURNUP:
            held = list(s.holding[seat])
            held.remove(action.value)
            s.holding[seat] = [*held, self.turnup]
            s.dead = [*s.dead, action.value]
            s.put_out[seat] = [*s.put_out[seat], action.value]
            s.turnup_taken = True
            s.declared[seat] = "stand"  # taking the turn-up is only allowed to a dealer who plays (AMB-29)
            self._after_declaration(seat)
        elif verb is Verb.EXCHANGE:
            hand = list(s.holding[seat])
            for card in action.value:
                hand.remove(card)
            s.dead = [*s.dead, *action.value]
            s.put_out[seat] = [*s.put_out[seat], *action.value]
            k = len(action.value)
            hand.extend(self.stock[s.stock_pos : s.stock_pos + k])
            s.holding[seat] = hand
            s.stock_pos += k
            s.exchanged[seat] = k
            nxt = self._next_of(seat, self._exchangers())
            if nxt is None:
                self._start_play()
            else:
                s.to_act = nxt

    def _after_declaration(self, seat: int) -> None:
        s = self._s
        declared = s.declared
        last = self.last
        if seat != last:
            rot = self._rot
            nxt = rot[rot.index(seat) + 1]
            # (the standers are counted only when the dealer is next: before, the pool cannot go uncontested)
            if nxt == last and dealer_uncontested(True, len([d for d in declared if d in PLAYING]), self.all_must_play):
                self._finish(self._uncontested(last, Reason.DEALER_UNCONTESTED))
                return
            s.to_act = nxt
            return
        standers = [p for p in self.active if declared[p] in PLAYING]
        if conceded(len(standers), s.for_pool):
            self._finish(self._uncontested(standers[0], Reason.CONCEDED))
            return
        if self.game.exchanges:
            s.phase = Phase.EXCHANGE
            s.to_act = self._exchangers()[0]
        else:
            self._start_play()

    def _exchangers(self) -> list[int]:
        """Standers from the dealer's left, the dealer last (AMB-28, AMB-33)."""
        return [p for p in self._rot if self._s.declared[p] in STANDING]

    def _players(self) -> tuple[int, ...]:
        """The players, from the dealer's left: fixed once play begins, so kept in the state from then."""
        players = self._s.players
        if players is None:
            players = players_of(self._rot, self._s.declared)
            if self._s.phase is Phase.PLAY:
                self._s.players = players
        return players

    def _rotation(self) -> tuple[int, ...]:
        """Active seats clockwise from the dealer's left, the dealer last."""
        return self._rot

    @staticmethod
    def _next_of(seat: int, order: Sequence[int]) -> int | None:
        i = order.index(seat)
        return order[i + 1] if i + 1 < len(order) else None

    def _start_play(self) -> None:
        s = self._s
        if self.game is Game.FIVE_CARD:
            flush = self._find_flush()
            if flush is not None:
                self._finish(self._settle_flush(*flush))
                return
        taker = s.miss_taken_by
        players = self._players()
        leader = first_leader(players, -1 if taker is None else taker, s.for_pool, self.rules.miss_holder_leads)
        s.phase = _PLAY
        s.players = players  # fixed from here
        s.leader = leader
        s.to_act = leader
        if self.table:
            s.start_of_play = s.copy()

    def _play(self, seat: int, card: Card, civil: bool) -> None:
        self._offered = None  # the state changes in place
        s = self._s
        held = list(s.holding[seat])
        held.remove(card)
        holding = s.holding.copy()
        holding[seat] = held
        s.holding = holding
        current = s.current
        if not current:
            s.civil_said = civil
            s.current = current = [(seat, card)]
            if self._pam < 0:  # no Pam, so no civility: the power of the card led
                i = card.index
                s.best = best = (power(i, i // 13, self._trump, -1), seat)  # the lead holds the trick so far
            else:
                s.best = best = (self._trick_power(seat, card), seat)
        else:
            s.current = current = [*current, (seat, card)]
            known = s.best
            if known is None:
                s.best = best = self._best_so_far()
            else:
                best = known
                if self._pam < 0:  # no Pam, so no civility: the card's power as it lies
                    value = power(card.index, current[0][1].index // 13, self._trump, -1)
                else:
                    value = self._trick_power(seat, card)
                if value > best[0]:  # the earliest of equal cards keeps the trick
                    s.best = best = (value, seat)
        players = s.players or self._players()
        assert s.leader is not None
        if len(current) < len(players):
            s.to_act = next_in_trick(players, s.leader, len(current))
            return
        winner = best[1]
        s.tricks = tricks = [
            *s.tricks,
            made_quickly(Trick, {"leader": s.leader, "plays": tuple(current), "winner": winner}),
        ]
        s.current = []
        s.best = None
        if len(tricks) == self._tricks:
            self._finish(self._settle_play())
            return
        s.leader = winner  # L3-LEAD-09
        s.to_act = winner

    def _finish(self, settlement: Settlement) -> None:
        s = self._s
        s.phase = _DONE
        s.to_act = None
        s.settlement = settlement
