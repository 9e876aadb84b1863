"""A hand of Domino Loo or Domino Rounce in progress (catalogue group F).

The same protocol as :class:`loo.games.loo.hand.LooHand`: ``legal_actions()`` in a stable order,
``push()`` (checks the laws and raises :class:`~loo.core.actions.IllegalActionError` naming the law
broken, changing nothing), ``pop()`` for take-back, ``push_unchecked()`` for simulations,
``view(seat)`` for what one seat may know, ``explain()`` and ``why_illegal()``, and a
``settlement`` once the hand is over.  What differs from the cards is written in this package:
suits read off the tiles (AMB-46, :mod:`~loo.games.dominoes.suits`), the announced suit of a
lead (DL-LEAD-04/05), the misses drawn from the boneyard (AMB-45) or laid out as Rounce's
dummies (DR-03, AMB-52), dropping out, and the dealer's rights (the turn-up, playing for the
pool). What is allowed and why is read in :mod:`~loo.games.dominoes.explain`; this module makes
the moves.

>>> import random
>>> from loo.games.dominoes.rules import DominoRules
>>> hand = DominoHand.deal(DominoRules.preset("celko"), random.Random(1), seats=4, dealer=3, pool=25)
>>> hand.to_act, [str(a) for a in hand.legal_actions()]
(0, ['seat 0 declare stand', 'seat 0 declare miss', 'seat 0 declare throw'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from loo.core.actions import Action
from loo.core.hand import Phase
from loo.core.reasons import Reason
from loo.core.tiles import Tile, full_set
from loo.core.tricks import trick_winner
from loo.games.dominoes.explain import DominoExplainer
from loo.games.dominoes.rules import DominoRules
from loo.games.dominoes.settle import TRICKS, DominoSettlement, DominoTrick, settle_play, settle_uncontested
from loo.games.dominoes.state import HAND_SIZE, PLAYERS, DominoAction, DominoState, DominoView, dummy_sizes
from loo.games.dominoes.suits import led_suit, powers_of

__all__ = ["DominoHand", "deal_tiles"]


class DominoHand(DominoExplainer):
    """One deal of Domino Loo or Domino Rounce, from the declarations to the settlement."""

    def __init__(
        self,
        rules: DominoRules,
        *,
        hands: Sequence[Sequence[Tile]],
        turnup: Tile,
        dealer: int,
        pool: int,
        stock: Sequence[Tile] | None = None,
        names: Sequence[str] | None = None,
    ) -> None:
        n = len(hands)
        if n not in PLAYERS:
            raise ValueError(f"the domino games are for two to four players (DL-EQP-02), not {n}")
        if not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer} is not a seat: seats are numbered 0 to {n - 1}")
        self.rules = rules
        self.variant = rules.game
        self.n = n
        self.names = tuple(names) if names is not None else tuple(f"seat {i}" for i in range(n))
        self.dealer = dealer
        self.pool = pool
        self.turnup = turnup
        self.trump = turnup.high  # DL-DEAL-04
        self.dealt: tuple[tuple[Tile, ...], ...] = tuple(tuple(h) for h in hands)
        if stock is None:
            used = {t for h in self.dealt for t in h} | {turnup}
            stock = [t for t in full_set() if t not in used]
        self.stock = tuple(stock)
        self.eldest = (dealer + 1) % n
        self.rotation = tuple((dealer + i) % n for i in range(1, n + 1))  # the dealer last (DL-DECL-01)
        if rules.dummies:
            # DR-03, AMB-52: the dummies lie at the top of the stock, laid out at the deal.
            sizes = dummy_sizes(n)
            starts = [sum(sizes[:i]) for i in range(len(sizes))]
            self.misses = tuple(self.stock[a : a + k] for a, k in zip(starts, sizes, strict=True))
        else:
            # AMB-45: each miss is five fresh tiles drawn from the boneyard; as many as it holds (DL-DECL-04).
            self.misses = tuple(self.stock[i : i + HAND_SIZE] for i in range(0, len(self.stock) - 4, HAND_SIZE))
        self._s = DominoState(
            phase=Phase.DECLARE,
            to_act=self.eldest,
            declared=[None] * n,
            holding=[list(h) for h in self.dealt],
            put_out=[[] for _ in range(n)],
        )
        self._history: list[tuple[DominoAction, DominoState]] = []

    # ----- construction --------------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: DominoRules,
        rng: random.Random,
        *,
        seats: int,
        dealer: int,
        pool: int,
        names: Sequence[str] | None = None,
    ) -> DominoHand:
        """Shuffle with ``rng`` and deal (:func:`deal_tiles`)."""
        hands, turnup, stock = deal_tiles(rules, rng, seats=seats, dealer=dealer)
        return cls(rules, hands=hands, turnup=turnup, dealer=dealer, pool=pool, stock=stock, names=names)

    @classmethod
    def at_view(
        cls,
        view: DominoView,
        *,
        holdings: Sequence[Sequence[Tile]],
        stock: Sequence[Tile],
        stock_pos: int,
        dead: Sequence[Tile],
    ) -> DominoHand:
        """A hand at the public state ``view`` shows, with these hidden tiles: one guess at what
        ``view.seat`` cannot see (a sampling player's world, :func:`loo.games.dominoes.bots.determinize`).

        ``holdings`` are the tiles each seat holds now, ``stock`` the boneyard top first (misses
        already drawn at its head, ``stock_pos`` tiles of them), ``dead`` the tiles out of play
        that the viewing seat did not put out itself. The hand cannot be taken back past this point.
        """
        n = len(view.names)
        seat = view.seat
        world = cls(
            view.rules,
            hands=holdings,
            turnup=view.turnup,
            stock=stock,
            **view.seated(),
        )
        s = world._s
        s.phase = view.phase
        s.to_act = view.to_act
        s.declared = list(view.declared)
        s.put_out = [[] for _ in range(n)]
        s.put_out[seat] = list(view.put_out)
        s.misses_taken = list(view.misses_taken)
        s.stock_pos = stock_pos
        s.for_pool = view.for_pool
        s.turnup_taken = view.turnup_taken
        s.announcing = view.phase is Phase.DECLARE and view.turnup_taken and view.declared[view.dealer] is None
        s.dead = list(dead)
        if view.phase is Phase.PLAY:
            s.players = tuple(p for p in world.rotation if view.declared[p] in ("stand", "miss", "for-pool"))
        s.tricks = list(view.tricks)
        s.current = list(view.current)
        s.led = view.led
        if view.current:
            s.leader = view.current[0][0]
        elif view.phase is Phase.PLAY:
            s.leader = view.to_act
        return world

    # ----- public state ------------------------------------------------------------------------

    @property
    def misses_taken(self) -> tuple[int, ...]:
        return tuple(self._s.misses_taken)

    @property
    def playing_for_pool(self) -> bool:
        return self._s.for_pool

    @property
    def turnup_taken(self) -> bool:
        return self._s.turnup_taken

    @property
    def players(self) -> tuple[int, ...]:
        """The seats in play, clockwise from the dealer's left (empty until the declarations end)."""
        return self._s.players

    def holding(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds now (the engine's full knowledge: not for a seat's view)."""
        return tuple(self._s.holding[seat])

    def declared(self, seat: int) -> str | None:
        return self._s.declared[seat]

    def put_out(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` has put out of play: a hand thrown or changed for the miss, a discard."""
        return tuple(self._s.put_out[seat])

    @property
    def led(self) -> int | None:
        """The suit the trick in progress calls for (DL-LEAD-04/05); None between tricks."""
        return self._s.led if self._s.current else None

    def playable(self, seat: int) -> list[Tile]:
        """The tiles ``seat`` may play now, in hand order: as a follower (DL-PLAY-01..04) once a
        tile is led, else as the leader (DL-LEAD-02/03). Empty outside the play."""
        if self._s.phase is not Phase.PLAY:
            return []
        hand = self._s.holding[seat]
        return self._followers(hand) if self._s.current else self._leads(hand)

    def view(self, seat: int) -> DominoView:
        """What ``seat`` may know now."""
        s = self._s
        return DominoView(
            **self._public(seat),
            turnup=self.turnup,
            hand=tuple(s.holding[seat]),
            turnup_taken=s.turnup_taken,
            put_out=tuple(s.put_out[seat]),
            declared=tuple(s.declared),
            misses_taken=tuple(s.misses_taken),
            misses_left=self.misses_left(),
            for_pool=s.for_pool,
            hand_sizes=tuple(len(h) for h in s.holding),
            tricks=tuple(s.tricks),
            current=tuple(s.current),
            led=s.led if s.current else None,
            legal=tuple(self.legal_actions()) if s.to_act == seat else (),
            settlement=s.settlement,
        )

    # ----- making moves -------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        s = self._s
        seat = action.seat
        verb = action.verb
        if verb == "play":
            self._play(seat, action.value, action.suit)
            return
        if verb == "declare":
            what = action.value
            s.declared[seat] = what
            if s.announcing:
                s.announcing = False  # he plays for himself (DL-DLR-04)
            elif what == "miss":
                self._take_miss(seat)
                if s.phase is Phase.EXCHANGE:
                    return  # AMB-52: he discards before the next player declares
            elif what == "throw":
                s.put_out[seat].extend(s.holding[seat])
                s.dead.extend(s.holding[seat])  # DL-DECL-05: out of the game, no replacement
                s.holding[seat] = []
        elif verb == "take-turnup":
            hand = s.holding[seat]
            hand.remove(action.value)
            hand.append(self.turnup)
            s.dead.append(action.value)  # AMB-48: the discard goes face down out of play
            s.put_out[seat].append(action.value)
            s.turnup_taken = True
            if self._may_play_for_pool():
                s.announcing = True  # DL-DLR-04: he has still to say for whom he plays
                return
            s.declared[seat] = "stand"
        elif verb == "for-pool":
            s.announcing = False
            s.declared[seat] = "for-pool"
            s.for_pool = True
        elif verb == "exchange":
            hand = s.holding[seat]
            for t in action.value:
                hand.remove(t)
            s.dead.extend(action.value)
            s.put_out[seat].extend(action.value)
            s.phase = Phase.DECLARE
        self._after_declaration(seat)

    def _take_miss(self, seat: int) -> None:
        """DL-DECL-02, AMB-45: his hand goes out of play and he takes the next miss (a dummy at Rounce)."""
        s = self._s
        s.put_out[seat].extend(s.holding[seat])
        s.dead.extend(s.holding[seat])
        s.holding[seat] = list(self.misses[len(s.misses_taken)])
        s.misses_taken.append(seat)
        s.stock_pos += len(s.holding[seat])
        if len(s.holding[seat]) > HAND_SIZE:
            s.phase = Phase.EXCHANGE

    def _after_declaration(self, seat: int) -> None:
        s = self._s
        if seat != self.dealer:
            nxt = (seat + 1) % self.n
            if nxt == self.dealer and all(s.declared[p] == "throw" for p in self.rotation[:-1]):
                self._finish(self._uncontested(self.dealer, Reason.DEALER_UNCONTESTED))  # DL-DLR-02, DR-07
                return
            s.to_act = nxt
            return
        players = tuple(p for p in self.rotation if s.declared[p] in ("stand", "miss", "for-pool"))
        if len(players) == 1:
            self._finish(self._uncontested(players[0], Reason.CONCEDED))  # AMB-49
            return
        s.players = players
        s.phase = Phase.PLAY
        s.leader = s.to_act = players[0]  # DL-LEAD-01; the first in play if the eldest dropped out (CF-01)

    def _play(self, seat: int, tile: Tile, suit: int | None) -> None:
        s = self._s
        s.holding[seat].remove(tile)
        trump = self.trump
        if not s.current:
            s.led = led_suit(tile, trump, suit)  # DL-LEAD-04/05
        s.current.append((seat, tile))
        players = s.players
        if len(s.current) < len(players):
            s.to_act = players[(players.index(seat) + 1) % len(players)]
            return
        led = s.led
        assert led is not None and s.leader is not None
        powers = powers_of(led, trump)
        winner = trick_winner(s.current, lambda _, t: powers[t])  # DL-TRK-01
        s.tricks.append(DominoTrick(s.leader, tuple(s.current), winner, led))
        s.current = []
        if len(s.tricks) == TRICKS:
            self._finish(self._settle_play())
            return
        s.leader = s.to_act = winner  # DL-TRK-01: the winner leads

    def _finish(self, settlement: DominoSettlement) -> None:
        self._s.phase = Phase.DONE
        self._s.to_act = None
        self._s.settlement = settlement

    # ----- settlement ----------------------------------------------------------------------------

    def _uncontested(self, winner: int, reason: Reason) -> DominoSettlement:
        """DL-DLR-02, AMB-49, DR-07: the pool to one player without play (:func:`settle_uncontested`)."""
        return settle_uncontested(self.rules, seats=self.n, pool=self.pool, winner=winner, reason=reason)

    def _settle_play(self) -> DominoSettlement:
        """The hand played out, settled by :func:`settle_play`."""
        s = self._s
        tricks = tuple(s.tricks)
        return settle_play(
            self.rules,
            seats=self.n,
            pool=self.pool,
            players=s.players,
            winners=[t.winner for t in tricks],
            for_pool=self.dealer if s.for_pool else None,
            tricks=tricks,
        )


def deal_tiles(
    rules: DominoRules, rng: random.Random, *, seats: int, dealer: int
) -> tuple[list[list[Tile]], Tile, list[Tile]]:
    """Shuffle the set and deal: five tiles to each player from the dealer's left (DL-DEAL-03, drawn
    in turn from the boneyard), then the turn-up (DL-DEAL-04). At Rounce the dummies are laid out
    first and the player on the dealer's right turns the trump from what is left (DR-02, DR-03,
    AMB-52). Returns the hands, the turn-up and the stock (the dummies first at Rounce, top first).
    """
    if seats not in PLAYERS:
        raise ValueError(f"the domino games are for two to four players (DL-EQP-02), not {seats}")
    if not 0 <= dealer < seats:
        raise ValueError(f"dealer {dealer} is not a seat: seats are numbered 0 to {seats - 1}")
    tiles = list(full_set())
    rng.shuffle(tiles)
    hands: list[list[Tile]] = [[] for _ in range(seats)]
    top = 0
    for i in range(1, seats + 1):
        seat = (dealer + i) % seats
        hands[seat] = tiles[top : top + HAND_SIZE]
        top += HAND_SIZE
    laid_out = sum(dummy_sizes(seats)) if rules.dummies else 0
    dummies = tiles[top : top + laid_out]
    top += laid_out
    turnup = tiles[top]
    return hands, turnup, dummies + tiles[top + 1 :]
