"""A hand of Domino Loo or Domino Rounce in progress (catalogue group F).

The same protocol as :class:`loo.hand.LooHand`: ``legal_actions()`` in a stable order,
``push()`` (checks the laws and raises :class:`~loo.actions.IllegalActionError` naming the law
broken, changing nothing), ``pop()`` for take-back, ``push_unchecked()`` for simulations,
``view(seat)`` for what one seat may know, ``explain()`` and ``why_illegal()``, and a
``settlement`` once the hand is over.  What differs from the cards is written here: suits
read off the tiles (AMB-46), the announced suit of a lead (DL-LEAD-04/05), the misses drawn
from the boneyard (AMB-45) or laid out as Rounce's dummies (DR-03, AMB-52), dropping out, and
the dealer's rights (the turn-up, playing for the pool).

>>> import random
>>> from loo.dominoes_rules import DominoRules
>>> hand = DominoHand.deal(DominoRules.preset("celko"), random.Random(1), seats=4, dealer=3, pool=25)
>>> hand.to_act, [str(a) for a in hand.legal_actions()]
(0, ['seat 0 declare stand', 'seat 0 declare miss', 'seat 0 declare throw'])
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from loo.actions import Action
from loo.core.hand import Explanation, TrickHand
from loo.core.tricks import VoidRule
from loo.dominoes_rules import DominoLoneOpponentRule, DominoRules, DominoScoring
from loo.hand import Phase
from loo.reasons import Reason
from loo.rules import FirstLeadRule, WinnerLeadsTrump
from loo.tiles import NUMBERS, Tile, full_set

__all__ = [
    "HAND_SIZE",
    "TRICKS",
    "DominoAction",
    "DominoHand",
    "DominoSettlement",
    "DominoTrick",
    "DominoView",
    "deal_tiles",
    "dummy_sizes",
    "follows",
    "led_suit",
    "power",
    "rank_in",
    "suit_name",
]

HAND_SIZE = 5  # DL-DEAL-03
TRICKS = 5
PLAYERS = range(2, 5)  # DL-EQP-02
PLURALS = ("blanks", "ones", "twos", "threes", "fours", "fives", "sixes")


# ----- suits (DL-SUIT-01..03, AMB-46) ----------------------------------------------------------


def suit_name(number: int) -> str:
    """``suit_name(6) == 'sixes'``."""
    return PLURALS[number]


def rank_in(tile: Tile, suit: int) -> int:
    """A tile's rank within ``suit``, which it carries: its other end, the double above all (DL-SUIT-01).

    >>> rank_in(Tile.parse("6-3"), 6), rank_in(Tile.parse("6-3"), 3), rank_in(Tile.parse("3-3"), 3)
    (3, 6, 7)
    """
    return 7 if tile.is_double else tile.other(suit)


def follows(tile: Tile, led: int, trump: int) -> bool:
    """Does ``tile`` follow the suit ``led``? A trump follows only trumps (DL-SUIT-02, AMB-46).

    >>> follows(Tile.parse("6-3"), 6, 3), follows(Tile.parse("6-3"), 3, 3), follows(Tile.parse("6-1"), 6, 3)
    (False, True, True)
    """
    if led == trump:
        return tile.has(trump)
    return tile.has(led) and not tile.has(trump)


def power(tile: Tile, led: int, trump: int) -> int:
    """A number such that the higher tile wins the trick (DL-TRK-01): trumps, then the suit led."""
    if tile.has(trump):
        return 200 + rank_in(tile, trump)
    if tile.has(led):
        return 100 + rank_in(tile, led)
    return 0


def led_suit(tile: Tile, trump: int, announced: int | None) -> int | None:
    """The suit a lead calls for: trumps for a trump (DL-LEAD-05), a double's own number, else the
    end the leader announced (DL-LEAD-04); None if he had to announce one and did not."""
    if tile.has(trump):
        return trump
    if tile.is_double:
        return tile.high
    return announced


def dummy_sizes(players: int) -> tuple[int, ...]:
    """DR-03: two dummies of six tiles for two or three players, one of seven for four."""
    return (6, 6) if players <= 3 else (7,)


def _list(tiles: Sequence[Tile]) -> str:
    names = [str(t) for t in tiles]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# ----- values -----------------------------------------------------------------------------------


# Domino actions are plain :class:`~loo.actions.Action` values; the name stays for readability.
DominoAction = Action


def _act(seat: int, verb: str, value: Any, suit: int | None = None) -> DominoAction:
    return DominoAction(seat, verb, value, False, suit)


@dataclass(frozen=True)
class DominoTrick:
    """One trick: who led, the tiles in the order played, the suit led, and who won it."""

    leader: int
    plays: tuple[tuple[int, Tile], ...]
    winner: int
    suit: int

    def to_record(self) -> dict[str, Any]:
        return {"leader": self.leader, "plays": [[s, str(t)] for s, t in self.plays], "winner": self.winner,
                "suit": self.suit}  # fmt: skip


@dataclass(frozen=True)
class DominoSettlement:
    """How a finished hand scores; the shape of :class:`loo.hand.Settlement`, plus ``points``.

    With chips, ``payouts`` are what each seat takes from this pool and ``loos`` what each pays
    into the next one. With points or Rounce scoring no chips move (those lists are zeros and the
    pool passes on untouched) and ``points`` is each seat's change of score this hand.
    """

    reason: Reason
    tricks: tuple[DominoTrick, ...]
    tricks_won: tuple[int, ...]
    looed: tuple[int, ...]
    payouts: tuple[int, ...]
    loos: tuple[int, ...]
    next_pool: int
    scoring: DominoScoring = DominoScoring.CHIPS
    points: tuple[int, ...] | None = None

    @property
    def loo_free(self) -> bool:
        """A hand that was played and in which nobody was looed (CF-34)."""
        return self.reason is Reason.PLAYED and not self.looed

    def net(self) -> tuple[int, ...]:
        """Each seat's gain this hand, higher always better: chips won less chips paid, or points;
        at Rounce, where scores count down, the points taken off."""
        if self.scoring is DominoScoring.CHIPS:
            return tuple(p - loo for p, loo in zip(self.payouts, self.loos, strict=True))
        assert self.points is not None
        sign = -1 if self.scoring is DominoScoring.ROUNCE else 1
        return tuple(sign * p for p in self.points)

    def to_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tricks": [t.to_record() for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "looed": list(self.looed),
            "payouts": list(self.payouts),
            "loos": list(self.loos),
            "next_pool": self.next_pool,
        }
        if self.points is not None:
            out["points"] = list(self.points)
        return out


@dataclass(frozen=True)
class DominoView:
    """What one seat may know: its own tiles, the turn-up and the public table, nothing else.

    Never the boneyard, the misses or dummies, another seat's tiles or what others put out.
    """

    seat: int
    rules: DominoRules
    names: tuple[str, ...]
    dealer: int
    pool: int
    phase: Phase
    to_act: int | None
    turnup: Tile  # face up for the whole hand (DL-DEAL-05), even once the dealer takes it
    hand: tuple[Tile, ...]
    turnup_taken: bool
    put_out: tuple[Tile, ...]  # the tiles this seat itself put out of play
    declared: tuple[str | None, ...]
    misses_taken: tuple[int, ...]  # seats that took a miss (a dummy at Rounce), in order
    misses_left: int
    for_pool: bool
    hand_sizes: tuple[int, ...]
    tricks: tuple[DominoTrick, ...]
    current: tuple[tuple[int, Tile], ...]
    led: int | None  # the suit of the trick in progress
    legal: tuple[DominoAction, ...]
    settlement: DominoSettlement | None

    @property
    def trump(self) -> int:
        """DL-DEAL-04: the higher end of the turn-up."""
        return self.turnup.high


@dataclass
class _State:
    """Everything that changes during a hand; copied for take-back."""

    phase: Phase
    to_act: int | None
    declared: list[str | None]
    holding: list[list[Tile]]
    put_out: list[list[Tile]]
    misses_taken: list[int] = field(default_factory=list)
    stock_pos: int = 0
    for_pool: bool = False
    turnup_taken: bool = False
    announcing: bool = False  # the dealer took the turn-up and must still say for whom he plays
    dead: list[Tile] = field(default_factory=list)
    players: tuple[int, ...] = ()
    tricks: list[DominoTrick] = field(default_factory=list)
    current: list[tuple[int, Tile]] = field(default_factory=list)
    led: int | None = None
    leader: int | None = None
    settlement: DominoSettlement | None = None

    def copy(self) -> _State:
        return _State(
            self.phase,
            self.to_act,
            list(self.declared),
            [list(h) for h in self.holding],
            [list(p) for p in self.put_out],
            list(self.misses_taken),
            self.stock_pos,
            self.for_pool,
            self.turnup_taken,
            self.announcing,
            list(self.dead),
            self.players,
            list(self.tricks),
            list(self.current),
            self.led,
            self.leader,
            self.settlement,
        )


class DominoHand(TrickHand):
    """One deal of Domino Loo or Domino Rounce, from the declarations to the settlement."""

    _s: _State
    _history: list[tuple[Action, _State]]

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
        self._s = _State(
            phase=Phase.DECLARE,
            to_act=self.eldest,
            declared=[None] * n,
            holding=[list(h) for h in self.dealt],
            put_out=[[] for _ in range(n)],
        )
        self._history: list[tuple[DominoAction, _State]] = []

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
        ``view.seat`` cannot see (a sampling player's world, :func:`loo.dominoes_bots.determinize`).

        ``holdings`` are the tiles each seat holds now, ``stock`` the boneyard top first (misses
        already drawn at its head, ``stock_pos`` tiles of them), ``dead`` the tiles out of play
        that the viewing seat did not put out itself. The hand cannot be taken back past this point.
        """
        n = len(view.names)
        seat = view.seat
        world = cls(view.rules, hands=holdings, turnup=view.turnup, dealer=view.dealer, pool=view.pool,
                    stock=stock, names=view.names)  # fmt: skip
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

    def clone(self) -> DominoHand:
        """A copy to play on (a simulation's): the fixed parts shared, the state copied, no history."""
        other = copy.copy(self)
        other._s = self._s.copy()
        other._history = []
        return other

    # ----- public state ------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def settlement(self) -> DominoSettlement | None:
        return self._s.settlement

    @property
    def tricks(self) -> tuple[DominoTrick, ...]:
        return tuple(self._s.tricks)

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

    def misses_left(self) -> int:
        """Misses (dummies) still to be taken (DL-DECL-04, DR-03)."""
        return len(self.misses) - len(self._s.misses_taken)

    def view(self, seat: int) -> DominoView:
        """What ``seat`` may know now."""
        s = self._s
        return DominoView(
            seat=seat,
            rules=self.rules,
            names=self.names,
            dealer=self.dealer,
            pool=self.pool,
            phase=s.phase,
            to_act=s.to_act,
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

    # ----- legal actions -----------------------------------------------------------------------

    def legal_actions(self) -> list[DominoAction]:
        """Every action the seat to act may take, in a stable order.

        A lead of a tile that is neither a trump nor a double comes once for each suit the leader
        may announce, its higher end first (DL-LEAD-04). A trump or a double is listed without a
        suit, since it calls for its own; :meth:`push` also accepts it announced with that suit.
        """
        s = self._s
        seat = s.to_act
        if seat is None:
            return []
        if s.phase is Phase.PLAY:
            hand = s.holding[seat]
            if s.current:
                return [_act(seat, "play", t) for t in self._followers(hand)]
            out = []
            trump = self.trump
            for t in self._leads(hand):
                if t.is_double or t.has(trump):
                    out.append(_act(seat, "play", t))
                else:
                    out.append(_act(seat, "play", t, t.high))
                    out.append(_act(seat, "play", t, t.low))
            return out
        if s.phase is Phase.EXCHANGE:
            hand = s.holding[seat]
            return [_act(seat, "exchange", combo) for combo in _combinations(hand, len(hand) - HAND_SIZE)]
        if s.announcing:
            return [_act(seat, "declare", "stand"), _act(seat, "for-pool", True)]
        out = [_act(seat, "declare", d) for d in self._declarations()]
        if seat == self.dealer:
            if self._may_play_for_pool():
                out.append(_act(seat, "for-pool", True))
            if self._may_take_turnup():
                out.extend(_act(seat, "take-turnup", t) for t in s.holding[seat])
        return out

    def _declarations(self) -> list[str]:
        options = ["stand"]
        if self.misses_left() > 0:
            options.append("miss")  # DL-DECL-02, DL-DECL-04, DR-03
        if self.n >= 3:
            options.append("throw")  # DL-DECL-05, AMB-45
        return options

    def _may_play_for_pool(self) -> bool:
        """DL-DLR-03, DL-DLR-07: four players, one other in play, on the miss, and no miss left."""
        s = self._s
        if self.rules.lone_opponent_rule is not DominoLoneOpponentRule.DOMINO_FOR_POOL or self.n != 4:
            return False
        others = [p for p in self.rotation[:-1] if s.declared[p] in ("stand", "miss")]
        return len(others) == 1 and s.declared[others[0]] == "miss" and self.misses_left() == 0

    def _may_take_turnup(self) -> bool:
        """DL-DLR-01, AMB-48: an agreed right of the dealer who keeps his hand."""
        return self.rules.dealer_takes_turnup and not self._s.turnup_taken

    def top_trump(self, tiles: Sequence[Tile]) -> Tile:
        """The highest trump among ``tiles`` (AMB-46: by the other end, the trump double highest)."""
        trump = self.trump
        return max((t for t in tiles if t.has(trump)), key=lambda t: rank_in(t, trump))

    def _leads(self, hand: list[Tile]) -> list[Tile]:
        """The tiles the leader may lead (DL-LEAD-02/03, DL-PLAY-05, AMB-47)."""
        trump = self.trump
        trumps = [t for t in hand if t.has(trump)]
        allowed = hand
        if len(trumps) >= 2:
            allowed = trumps if self.rules.first_lead_rule is FirstLeadRule.ANY_TRUMP else [self.top_trump(trumps)]
        rule = self.rules.winner_must_lead_trump
        if self._s.tricks and trumps and rule is not WinnerLeadsTrump.OFF:
            duty = trumps if rule is WinnerLeadsTrump.ANY else [self.top_trump(trumps)]
            allowed = [t for t in allowed if t in duty]
        return allowed

    def _followers(self, hand: list[Tile]) -> list[Tile]:
        """The tiles a follower may play (DL-PLAY-01..04, DR-04, CF-04)."""
        s = self._s
        trump = self.trump
        led = s.led
        assert led is not None
        follow = [t for t in hand if follows(t, led, trump)]
        if follow or led == trump:
            return follow or hand
        rule = self.rules.void_rule
        if rule is VoidRule.FREE:
            return hand
        trumps = [t for t in hand if t.has(trump)]
        if rule is VoidRule.MUST_OVERTRUMP_IF_POSSIBLE:
            best = max(power(t, led, trump) for _, t in s.current)
            trumps = [t for t in trumps if power(t, led, trump) > best]
        return trumps or hand

    # ----- why not --------------------------------------------------------------------------------

    def _who(self, seat: int) -> str:
        return self.names[seat]

    def why_illegal(self, action: Action) -> tuple[str, str] | None:
        """None if ``action`` is legal now, else (law ID, a plain sentence saying what the law requires)."""
        s = self._s
        if s.phase is Phase.DONE:
            return ("DL-TRK-01", "the hand is over: all five tricks are played or the pool is settled")
        seat = action.seat
        if not 0 <= seat < self.n:
            return ("DL-EQP-02", f"there is no seat {seat}: seats are 0 to {self.n - 1}")
        if action.civil:
            return ("DL-GEN-01", "dominoes have no Pam, so no action says 'Pam be civil'")
        if action.verb == "take-turnup" and seat == self.dealer and s.declared[seat] is not None:
            return self._why_not_turnup_after_declaring(seat)
        assert s.to_act is not None
        if seat != s.to_act:
            if s.phase is Phase.PLAY:
                law = "AMB-01" if s.current else "DL-TRK-01" if s.tricks else "DL-LEAD-01"
            else:
                law = "AMB-52" if s.phase is Phase.EXCHANGE else "DL-DECL-01"
            return (law, f"it is {self._who(s.to_act)}'s turn, not {self._who(seat)}'s")
        if s.phase is Phase.DECLARE:
            return self._why_not_declare(action)
        if s.phase is Phase.EXCHANGE:
            return self._why_not_discard(action)
        return self._why_not_play(action)

    def _why_not_declare(self, action: Action) -> tuple[str, str] | None:
        s = self._s
        seat = action.seat
        who = self._who(seat)
        if s.announcing:
            if (action.verb, action.value) in (("declare", "stand"), ("for-pool", True)):
                return None
            return ("DL-DLR-04", f"{who} has taken the turn-up and must now say whether he plays for himself "
                                 "(stand) or for the pool")  # fmt: skip
        if action.verb == "declare":
            what = action.value
            if what == "stand":
                return None
            if what == "miss":
                if self.misses_left() > 0:
                    return None
                if self.rules.dummies:
                    return ("DR-03", f"every dummy has been taken, so {who} must play his tiles or drop out")
                law = "DL-DECL-04"
                return (law, f"with {self.n} players only {len(self.misses)} may take the miss, and no miss is left")
            if what == "throw":
                if self.n >= 3:
                    return None
                return ("DL-DECL-05", f"with two players nobody may drop out: {who} must play or take the miss")
            return ("DL-DECL-01", f"{who} may play his tiles (stand), take the miss, or drop out (throw)")
        if action.verb == "take-turnup":
            if seat != self.dealer:
                return ("DL-DLR-01", f"only the dealer may take the turn-up, and {who} is not the dealer")
            if not self.rules.dealer_takes_turnup:
                return ("DL-DLR-01", "taking the turn-up is a right the players have not agreed here")
            if action.value not in s.holding[seat]:
                return ("DL-DLR-01", f"{who} does not hold {action.value} to discard for the turn-up")
            return None
        if action.verb == "for-pool":
            if seat != self.dealer:
                return ("DL-DLR-03", f"only the dealer may play for the pool, and {who} is not the dealer")
            if self.rules.lone_opponent_rule is DominoLoneOpponentRule.OFF:
                return ("DL-DLR-03", "playing for the pool is an option the players have not agreed here")
            if self.n != 4:
                return ("DL-DLR-03", f"the dealer may play for the pool only with four players, not {self.n}")
            if self._may_play_for_pool():
                return None
            return ("DL-DLR-07", "the dealer may play for the pool only when a single other player is in, on the "
                                 "miss, and no miss is left for the dealer")  # fmt: skip
        if action.verb == "play":
            return ("DL-DECL-01", f"play begins only when every player has declared: {who} must declare first")
        return ("DL-DECL-01", f"{who} must declare now: stand, take the miss or drop out, not {action.verb}")

    def _why_not_turnup_after_declaring(self, seat: int) -> tuple[str, str]:
        """DL-DLR-01: the dealer takes the turn-up at his turn to declare, instead of the miss, or not at all."""
        who = self._who(seat)
        if not self.rules.dealer_takes_turnup:
            return ("DL-DLR-01", "taking the turn-up is a right the players have not agreed here")
        declared = self._s.declared[seat]
        if declared == "miss":
            miss = "a dummy" if self.rules.dummies else "the miss"
            return ("DL-DLR-01", f"{who} took {miss}, and a dealer who takes {miss} may not take the turn-up: "
                                 "only a dealer keeping his own hand may")  # fmt: skip
        if self._s.turnup_taken:
            return ("DL-DLR-01", f"{who} has already taken the turn-up: it is taken once")
        return ("DL-DLR-01", f"{who} has declared ({declared}): the dealer may take the turn-up only at his turn "
                             "to declare, not afterwards")  # fmt: skip

    def _why_not_discard(self, action: Action) -> tuple[str, str] | None:
        """AMB-52: a Rounce player who took a dummy discards down to five tiles."""
        hand = self._s.holding[action.seat]
        who = self._who(action.seat)
        need = len(hand) - HAND_SIZE
        if action.verb != "exchange":
            return ("AMB-52", f"{who} took a dummy and must now discard {need} tile{'s' if need > 1 else ''}")
        missing = [t for t in action.value if t not in hand]
        if missing:
            return ("AMB-52", f"{who} does not hold {_list(missing)}")
        if len(action.value) != need:
            return ("AMB-52", f"{who} holds {len(hand)} tiles and must discard exactly {need} to keep five, "
                              f"not {len(action.value)}")  # fmt: skip
        return None

    def _why_not_play(self, action: Action) -> tuple[str, str] | None:
        s = self._s
        seat = action.seat
        who = self._who(seat)
        if action.verb != "play":
            if action.verb == "declare" and action.value == "throw" and s.declared[seat] == "miss":
                return ("DL-DECL-03", f"{who} took the miss and must play it: he may not drop out now")
            return ("DL-DECL-01", f"the declarations are over: {who} must play a tile, not {action.verb}")
        tile = action.value
        hand = s.holding[seat]
        if not isinstance(tile, Tile) or tile not in hand:
            return ("DL-PLAY-01", f"{who} does not hold {tile}")
        trump = self.trump
        if s.current:
            if action.suit is not None:
                return ("DL-LEAD-04", f"only the leader announces a suit: {who} plays {tile} without one")
            if tile in self._followers(hand):
                return None
            led = s.led
            assert led is not None
            follow = [t for t in hand if follows(t, led, trump)]
            if follow:
                return ("DL-PLAY-01", f"{who} must follow suit: {who} holds {_list(follow)} of the "
                                      f"{suit_name(led)}, so {tile} may not be played")  # fmt: skip
            trumps = self._followers(hand)
            if self.rules.void_rule is VoidRule.MUST_OVERTRUMP_IF_POSSIBLE:
                return ("DL-PLAY-02", f"{who} cannot follow {suit_name(led)} and must beat the trick with a trump: "
                                      f"{_list(trumps)}, not {tile}")  # fmt: skip
            return ("DL-PLAY-02", f"{who} cannot follow {suit_name(led)} and must trump with {_list(trumps)}, "
                                  f"so {tile} may not be played")  # fmt: skip
        # a lead: the duties first (DL-PLAY-05 puts rules 1 and 2 before the rest), then the announcement
        allowed = self._leads(hand)
        if tile not in allowed:
            trumps = [t for t in hand if t.has(trump)]
            winner_duty = bool(s.tricks) and self.rules.winner_must_lead_trump is not WinnerLeadsTrump.OFF
            if not tile.has(trump):
                if len(trumps) >= 2:
                    return ("DL-LEAD-02", f"{who} holds {len(trumps)} trumps ({_list(trumps)}) and must lead one "
                                          f"of them, not {tile}")  # fmt: skip
                return ("DL-LEAD-03", f"{who} won the last trick and holds the trump {trumps[0]}, so must lead it, "
                                      f"not {tile}")  # fmt: skip
            top = self.top_trump(trumps)
            if winner_duty and self.rules.winner_must_lead_trump is WinnerLeadsTrump.HIGHER:
                return ("DL-LEAD-03", f"{who} won the last trick and must lead his highest trump, {top}, not {tile}")
            return ("DL-LEAD-02", f"{who} holds {len(trumps)} trumps and must lead the highest, {top}, not {tile}")
        suit = action.suit
        if tile.has(trump):
            if suit is not None and suit != trump:
                return ("DL-LEAD-05", f"{tile} carries the trump number {trump}, so it is a trump and is announced "
                                      f"with the {suit_name(trump)} first, not the {suit_name(suit)}")  # fmt: skip
            return None
        if tile.is_double:
            if suit is not None and suit != tile.high:
                return ("AMB-46", f"a double belongs only to its own number: {tile} leads the {suit_name(tile.high)}")
            return None
        if suit is None:
            return ("DL-LEAD-04", f"{who} must announce the suit of {tile}: the {suit_name(tile.high)} or the "
                                  f"{suit_name(tile.low)}")  # fmt: skip
        if not tile.has(suit):
            return ("DL-LEAD-04", f"{tile} cannot be led as a {NUMBERS[suit]}: announce one of its own ends, "
                                  f"{tile.high} or {tile.low}")  # fmt: skip
        return None

    # ----- explanations -------------------------------------------------------------------------

    def explain(self) -> list[Explanation]:
        """For the seat to act: every action it might try now, legal or not, with the law and a plain reason.

        In the declarations that is each declaration (and the dealer's rights); in play, each tile
        held, a lead once for each suit it might be announced as.
        """
        s = self._s
        seat = s.to_act
        if seat is None:
            return []
        legal = self.legal_actions()
        tries: list[DominoAction]
        if s.phase is Phase.PLAY:
            tries = []
            for t in s.holding[seat]:
                if s.current or t.is_double or t.has(self.trump):
                    tries.append(_act(seat, "play", t))
                else:
                    tries += [_act(seat, "play", t, t.high), _act(seat, "play", t, t.low)]
        elif s.phase is Phase.DECLARE and not s.announcing:
            tries = [_act(seat, "declare", d) for d in ("stand", "miss", "throw")]
            if seat == self.dealer and not any(a.verb == "for-pool" for a in legal):
                tries.append(_act(seat, "for-pool", True))
            tries += [a for a in legal if a.verb != "declare"]
        else:
            tries = legal
        return self._explanations(tries, legal)

    def _why_legal(self, action: DominoAction) -> tuple[str, str]:
        s = self._s
        who = self._who(action.seat)
        if action.verb == "declare":
            if s.announcing:
                return ("DL-DLR-04", f"{who} plays for himself: unless announced, that is what the dealer does")
            if action.value == "stand":
                return ("DL-DECL-01", f"{who} may play the tiles dealt to him")
            if action.value == "miss":
                if self.rules.dummies:
                    size = len(self.misses[len(s.misses_taken)])
                    return ("DR-03", f"{who} may take a dummy of {size} tiles for his hand, then discard to five")
                return ("DL-DECL-02", f"{who} may take the miss: five fresh tiles from the boneyard, unseen, "
                                      "which he must then play (DL-DECL-03)")  # fmt: skip
            return ("DL-DECL-05", f"{who} may drop out: he can win nothing and cannot be looed")
        if action.verb == "take-turnup":
            return (
                "DL-DLR-01",
                f"the dealer may take the turn-up {self.turnup} into his hand and discard {action.value}",
            )
        if action.verb == "for-pool":
            return ("DL-DLR-03", "the dealer may announce that he plays for the pool: he wins nothing for his "
                                 "tricks and cannot be looed, and the miss cannot sweep every trick")  # fmt: skip
        if action.verb == "exchange":
            return ("AMB-52", f"{who} may discard {_list(action.value)} to keep five tiles")
        tile: Tile = action.value
        trump = self.trump
        if s.current:
            led = s.led
            assert led is not None
            if follows(tile, led, trump):
                return ("DL-PLAY-01", f"{tile} follows the {suit_name(led)}")
            free = self.rules.void_rule is VoidRule.FREE
            if tile.has(trump):
                if free:
                    return ("DR-04", f"{who} cannot follow the {suit_name(led)} and may trump with {tile}, "
                                     "though he need not")  # fmt: skip
                return ("DL-PLAY-02", f"{who} cannot follow the {suit_name(led)}, so trumps with {tile}")
            if led != trump and any(t.has(trump) for t in s.holding[action.seat]):
                if not free:
                    return ("CF-04", f"{who} cannot follow the {suit_name(led)} and no trump of his would beat the "
                                     f"trick, so under the agreed rule {tile} may be played")  # fmt: skip
                law = "DR-04"
                return (law, f"{who} cannot follow the {suit_name(led)} and need not trump, so {tile} may be played")
            if led == trump:
                return ("DL-PLAY-03", f"{who} holds no trump, so {tile} or any other tile may be played")
            return ("DL-PLAY-03", f"{who} holds neither a trump nor one of the {suit_name(led)}, so {tile} or any "
                                  "other tile may be played")  # fmt: skip
        hand = s.holding[action.seat]
        trumps = [t for t in hand if t.has(trump)]
        if s.tricks and trumps and self.rules.winner_must_lead_trump is not WinnerLeadsTrump.OFF:
            return ("DL-LEAD-03", f"{who} won the last trick and leads the trump {tile}")
        if len(trumps) >= 2:
            return ("DL-LEAD-02", f"{who} holds two or more trumps and leads the trump {tile}")
        if tile.has(trump) and not tile.is_double:
            return ("DL-LEAD-05", f"{who} leads {tile} as a trump, the trump end named first")
        if action.suit is not None:
            return ("DL-LEAD-04", f"{who} may lead {tile} announced as one of the {suit_name(action.suit)}: the "
                                  f"others must follow with {suit_name(action.suit)}")  # fmt: skip
        return ("DL-LEAD-01" if not s.tricks else "DL-TRK-01", f"{who} may lead {tile}")

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
            s.led = trump if tile.has(trump) else tile.high if tile.is_double else suit
        s.current.append((seat, tile))
        players = s.players
        if len(s.current) < len(players):
            s.to_act = players[(players.index(seat) + 1) % len(players)]
            return
        led = s.led
        assert led is not None and s.leader is not None
        winner = max(s.current, key=lambda st: power(st[1], led, trump))[0]  # DL-TRK-01
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
        """DL-DLR-02, AMB-49: the pool to one player without play; DR-07 at Rounce, five off his score.

        With points scoring (which 004 does not cover here) he scores five, as for all five tricks.
        """
        n = self.n
        zero = (0,) * n
        scoring = self.rules.domino_scoring
        if scoring is DominoScoring.CHIPS:
            payouts = [0] * n
            payouts[winner] = self.pool
            return DominoSettlement(reason, (), zero, (), tuple(payouts), zero, 0)
        points = [0] * n
        points[winner] = -TRICKS if scoring is DominoScoring.ROUNCE else TRICKS
        return DominoSettlement(reason, (), zero, (), zero, zero, self.pool, scoring, tuple(points))

    def _settle_play(self) -> DominoSettlement:
        """DL-SC-03/04, DL-SC-08, DL-DLR-05, AMB-14, AMB-50; DL-PTS-01; DR-06, DR-08, DR-09."""
        s = self._s
        n = self.n
        won = [0] * n
        for trick in s.tricks:
            won[trick.winner] += 1
        for_pool = self.dealer if s.for_pool else None
        looed = tuple(sorted(p for p in s.players if won[p] == 0 and p != for_pool))  # in seat order (docs/records.md)
        scoring = self.rules.domino_scoring
        zero = (0,) * n
        if scoring is not DominoScoring.CHIPS:
            sign = -1 if scoring is DominoScoring.ROUNCE else 1
            points = [0] * n
            for p in s.players:
                if p != for_pool:
                    points[p] = sign * won[p] - sign * 5 * (p in looed)
            return DominoSettlement(Reason.PLAYED, tuple(s.tricks), tuple(won), looed, zero, zero, self.pool, scoring,
                                    tuple(points))  # fmt: skip
        payouts = [0] * n
        share, remainder = divmod(self.pool, TRICKS)
        for i, trick in enumerate(s.tricks):
            if trick.winner != for_pool:  # DL-SC-08: the for-pool dealer's share stays in the pool
                payouts[trick.winner] += share + (1 if i < remainder else 0)
        amount = self.rules.loo_for(self.pool, n)
        loos = tuple(amount if p in looed else 0 for p in range(n))
        next_pool = self.pool - sum(payouts) + sum(loos)
        return DominoSettlement(Reason.PLAYED, tuple(s.tricks), tuple(won), looed, tuple(payouts), loos, next_pool)


def _combinations(tiles: Sequence[Tile], size: int) -> list[tuple[Tile, ...]]:
    if size == 0:
        return [()]
    if size > len(tiles):
        return []
    out = []
    for i, tile in enumerate(tiles):
        for rest in _combinations(tiles[i + 1 :], size - 1):
            out.append((tile, *rest))
    return out


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
