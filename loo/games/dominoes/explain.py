"""What a hand of dominoes allows now and why: the legal actions in a stable order, and for any
action the law that allows it or the law it breaks, in plain words.

:class:`DominoExplainer` is the part of :class:`loo.games.dominoes.hand.DominoHand` that reads the
laws; the hand itself makes the moves. The duties of play come from :mod:`loo.games.dominoes.suits`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from loo.core.actions import Action
from loo.core.hand import Phase, TrickHand, declaring_tries
from loo.core.tiles import NUMBERS, Tile
from loo.core.tricks import VoidRule, WinnerLeadsTrump
from loo.games.dominoes.declare import declarations, may_play_for_pool, may_take_turnup
from loo.games.dominoes.rules import DominoLoneOpponentRule, DominoRules
from loo.games.dominoes.settle import DominoSettlement, DominoTrick
from loo.games.dominoes.state import HAND_SIZE, DominoAction, DominoState, act
from loo.games.dominoes.suits import (
    follower_tiles,
    followers_of,
    follows,
    lead_choices,
    powers_of,
    rank_in,
    suit_name,
    trumps_of,
)

__all__ = ["DominoExplainer"]


def _list(tiles: Sequence[Tile]) -> str:
    names = [str(t) for t in tiles]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class DominoExplainer(TrickHand[Phase, DominoSettlement, DominoTrick]):
    """The legal actions, the refusals and the explanations of a domino hand (its laws, read)."""

    _s: DominoState
    _history: list[tuple[Action, DominoState]]
    rules: DominoRules
    n: int
    names: tuple[str, ...]
    dealer: int
    turnup: Tile
    trump: int
    rotation: tuple[int, ...]
    misses: tuple[tuple[Tile, ...], ...]

    def misses_left(self) -> int:
        """Misses (dummies) still to be taken (DL-DECL-04, DR-03)."""
        return len(self.misses) - len(self._s.misses_taken)

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
                return [act(seat, "play", t) for t in self._followers(hand)]
            out = []
            trump = self.trump
            for t in self._leads(hand):
                if t.is_double or t.has(trump):
                    out.append(act(seat, "play", t))
                else:
                    out.append(act(seat, "play", t, t.high))
                    out.append(act(seat, "play", t, t.low))
            return out
        if s.phase is Phase.EXCHANGE:
            hand = s.holding[seat]
            return [act(seat, "exchange", combo) for combo in combinations(hand, len(hand) - HAND_SIZE)]
        if s.announcing:
            return [act(seat, "declare", "stand"), act(seat, "for-pool", True)]
        out = [act(seat, "declare", d) for d in self._declarations()]
        if seat == self.dealer:
            if self._may_play_for_pool():
                out.append(act(seat, "for-pool", True))
            if self._may_take_turnup():
                out.extend(act(seat, "take-turnup", t) for t in s.holding[seat])
        return out

    def _declarations(self) -> list[str]:
        return declarations(seats=self.n, misses_left=self.misses_left())

    def _may_play_for_pool(self) -> bool:
        """DL-DLR-03, DL-DLR-07: four players, one other in play, on the miss, and no miss left."""
        before = [self._s.declared[p] for p in self.rotation[:-1]]
        return may_play_for_pool(self.rules, seats=self.n, before_dealer=before, misses_left=self.misses_left())

    def _may_take_turnup(self) -> bool:
        """DL-DLR-01, AMB-48: an agreed right of the dealer who keeps his hand."""
        return may_take_turnup(self.rules, turnup_taken=self._s.turnup_taken)

    def top_trump(self, tiles: Sequence[Tile]) -> Tile:
        """The highest trump among ``tiles`` (AMB-46: by the other end, the trump double highest)."""
        trump = self.trump
        return max((t for t in tiles if t.has(trump)), key=lambda t: rank_in(t, trump))

    def _leads(self, hand: list[Tile]) -> list[Tile]:
        """The tiles the leader may lead (DL-LEAD-02/03, DL-PLAY-05, AMB-47)."""
        trump = self.trump
        return lead_choices(
            hand,
            is_trump=trumps_of(trump).__contains__,
            trump_rank=lambda t: rank_in(t, trump),
            first_lead_rule=self.rules.first_lead_rule,
            winner_rule=self.rules.winner_must_lead_trump,
            after_a_trick=bool(self._s.tricks),
        )

    def _followers(self, hand: list[Tile]) -> list[Tile]:
        """The tiles a follower may play (DL-PLAY-01..04, DR-04, CF-04)."""
        s = self._s
        trump = self.trump
        led = s.led
        assert led is not None
        current = s.current
        powers = powers_of(led, trump)

        def beats(tile: Tile) -> bool:  # asked only of a trump, when a void player must overtrump
            return powers[tile] > max(powers[t] for _, t in current)

        return follower_tiles(
            hand,
            follows=followers_of(led, trump).__contains__,
            is_trump=trumps_of(trump).__contains__,
            beats=beats,
            void_rule=self.rules.void_rule,
        )

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
        if action.verb == "declare" and seat == self.dealer and s.turnup_taken and not s.announcing:
            return (
                "DL-DLR-04",
                f"{self._who(seat)} has declared: a dealer who takes the turn-up says stand or "
                "for the pool after it only when playing for the pool is open (DL-DLR-03, DL-DLR-07); "
                "otherwise taking it is the dealer's stand",
            )
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
            return (
                "DL-DLR-04",
                f"{who} has taken the turn-up and must now say whether they play on their own account "
                "(stand) or for the pool",
            )
        if action.verb == "declare":
            what = action.value
            if what == "stand":
                return None
            if what == "miss":
                if self.misses_left() > 0:
                    return None
                if self.rules.dummies:
                    return ("DR-03", f"every dummy has been taken, so {who} must play their tiles or drop out")
                law = "DL-DECL-04"
                return (law, f"with {self.n} players only {len(self.misses)} may take the miss, and no miss is left")
            if what == "throw":
                if self.n >= 3:
                    return None
                return ("DL-DECL-05", f"with two players nobody may drop out: {who} must play or take the miss")
            return ("DL-DECL-01", f"{who} may play their tiles (stand), take the miss, or drop out (throw)")
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
            return (
                "DL-DLR-07",
                "the dealer may play for the pool only when a single other player is in, on the "
                "miss, and no miss is left for the dealer",
            )
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
            return (
                "DL-DLR-01",
                f"{who} took {miss}, and a dealer who takes {miss} may not take the turn-up: "
                "only a dealer keeping their own hand may",
            )
        if self._s.turnup_taken:
            return ("DL-DLR-01", f"{who} has already taken the turn-up: it is taken once")
        return (
            "DL-DLR-01",
            f"{who} has declared ({declared}): the dealer may take the turn-up only at their turn "
            "to declare, not afterwards",
        )

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
            return (
                "AMB-52",
                f"{who} holds {len(hand)} tiles and must discard exactly {need} to keep five, not {len(action.value)}",
            )
        return None

    def _why_not_play(self, action: Action) -> tuple[str, str] | None:
        s = self._s
        seat = action.seat
        who = self._who(seat)
        if action.verb != "play":
            if action.verb == "declare" and action.value == "throw" and s.declared[seat] == "miss":
                return ("DL-DECL-03", f"{who} took the miss and must play it: they may not drop out now")
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
                return (
                    "DL-PLAY-01",
                    f"{who} must follow suit: {who} holds {_list(follow)} of the "
                    f"{suit_name(led)}, so {tile} may not be played",
                )
            trumps = self._followers(hand)
            if self.rules.void_rule is VoidRule.MUST_OVERTRUMP_IF_POSSIBLE:
                return (
                    "DL-PLAY-02",
                    f"{who} cannot follow {suit_name(led)} and must beat the trick with a trump: "
                    f"{_list(trumps)}, not {tile}",
                )
            return (
                "DL-PLAY-02",
                f"{who} cannot follow {suit_name(led)} and must trump with {_list(trumps)}, "
                f"so {tile} may not be played",
            )
        # a lead: the duties first (DL-PLAY-05 puts rules 1 and 2 before the rest), then the announcement
        allowed = self._leads(hand)
        if tile not in allowed:
            trumps = [t for t in hand if t.has(trump)]
            winner_duty = bool(s.tricks) and self.rules.winner_must_lead_trump is not WinnerLeadsTrump.OFF
            if not tile.has(trump):
                if len(trumps) >= 2:
                    return (
                        "DL-LEAD-02",
                        f"{who} holds {len(trumps)} trumps ({_list(trumps)}) and must lead one of them, not {tile}",
                    )
                return (
                    "DL-LEAD-03",
                    f"{who} won the last trick and holds the trump {trumps[0]}, so must lead it, not {tile}",
                )
            top = self.top_trump(trumps)
            if winner_duty and self.rules.winner_must_lead_trump is WinnerLeadsTrump.HIGHER:
                return ("DL-LEAD-03", f"{who} won the last trick and must lead their highest trump, {top}, not {tile}")
            return ("DL-LEAD-02", f"{who} holds {len(trumps)} trumps and must lead the highest, {top}, not {tile}")
        suit = action.suit
        if tile.has(trump):
            if suit is not None and suit != trump:
                return (
                    "DL-LEAD-05",
                    f"{tile} carries the trump number {trump}, so it is a trump and is announced "
                    f"with the {suit_name(trump)} first, not the {suit_name(suit)}",
                )
            return None
        if tile.is_double:
            if suit is not None and suit != tile.high:
                return ("AMB-46", f"a double belongs only to its own number: {tile} leads the {suit_name(tile.high)}")
            return None
        if suit is None:
            return (
                "DL-LEAD-04",
                f"{who} must announce the suit of {tile}: the {suit_name(tile.high)} or the {suit_name(tile.low)}",
            )
        if not tile.has(suit):
            return (
                "DL-LEAD-04",
                f"{tile} cannot be led as a {NUMBERS[suit]}: announce one of its own ends, {tile.high} or {tile.low}",
            )
        return None

    # ----- explanations -------------------------------------------------------------------------

    def _tries(self, seat: int, legal: Sequence[Action]) -> Sequence[Action]:
        """In the declarations each declaration (and the dealer's rights); in play, each tile held, a lead
        once for each suit it might be announced as."""
        s = self._s
        tries: list[Action] = []
        if s.phase is Phase.PLAY:
            for t in s.holding[seat]:
                if s.current or t.is_double or t.has(self.trump):
                    tries.append(act(seat, "play", t))
                else:
                    tries += [act(seat, "play", t, t.high), act(seat, "play", t, t.low)]
            return tries
        if s.phase is Phase.DECLARE and not s.announcing:
            dealer_may = seat == self.dealer and not any(a.verb == "for-pool" for a in legal)
            return declaring_tries(seat, legal, act, [act(seat, "for-pool", True)] if dealer_may else [])
        return legal

    def _why_legal(self, action: DominoAction) -> tuple[str, str]:
        s = self._s
        who = self._who(action.seat)
        if action.verb == "declare":
            if s.announcing:
                return (
                    "DL-DLR-04",
                    f"{who} plays on their own account: unless announced, that is what the dealer does",
                )
            if action.value == "stand":
                return ("DL-DECL-01", f"{who} may play the tiles dealt to them")
            if action.value == "miss":
                if self.rules.dummies:
                    size = len(self.misses[len(s.misses_taken)])
                    return ("DR-03", f"{who} may take a dummy of {size} tiles for their hand, then discard to five")
                return (
                    "DL-DECL-02",
                    f"{who} may take the miss: five fresh tiles from the boneyard, unseen, "
                    "which they must then play (DL-DECL-03)",
                )
            return ("DL-DECL-05", f"{who} may drop out: they can win nothing and cannot be looed")
        if action.verb == "take-turnup":
            return (
                "DL-DLR-01",
                f"the dealer may take the turn-up {self.turnup} into their hand and discard {action.value}",
            )
        if action.verb == "for-pool":
            return (
                "DL-DLR-03",
                "the dealer may announce that they play for the pool: they win nothing for their "
                "tricks and cannot be looed, and the miss cannot sweep every trick",
            )
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
                    return (
                        "DR-04",
                        f"{who} cannot follow the {suit_name(led)} and may trump with {tile}, though they need not",
                    )
                return ("DL-PLAY-02", f"{who} cannot follow the {suit_name(led)}, so trumps with {tile}")
            if led != trump and any(t.has(trump) for t in s.holding[action.seat]):
                if not free:
                    return (
                        "CF-04",
                        f"{who} cannot follow the {suit_name(led)} and no trump of theirs would beat the "
                        f"trick, so under the agreed rule {tile} may be played",
                    )
                law = "DR-04"
                return (law, f"{who} cannot follow the {suit_name(led)} and need not trump, so {tile} may be played")
            if led == trump:
                return ("DL-PLAY-03", f"{who} holds no trump, so {tile} or any other tile may be played")
            return (
                "DL-PLAY-03",
                f"{who} holds neither a trump nor one of the {suit_name(led)}, so {tile} or any "
                "other tile may be played",
            )
        hand = s.holding[action.seat]
        trumps = [t for t in hand if t.has(trump)]
        if s.tricks and trumps and self.rules.winner_must_lead_trump is not WinnerLeadsTrump.OFF:
            return ("DL-LEAD-03", f"{who} won the last trick and leads the trump {tile}")
        if len(trumps) >= 2:
            return ("DL-LEAD-02", f"{who} holds two or more trumps and leads the trump {tile}")
        if tile.has(trump) and not tile.is_double:
            return ("DL-LEAD-05", f"{who} leads {tile} as a trump, the trump end named first")
        if action.suit is not None:
            return (
                "DL-LEAD-04",
                f"{who} may lead {tile} announced as one of the {suit_name(action.suit)}: the "
                f"others must follow with {suit_name(action.suit)}",
            )
        return ("DL-LEAD-01" if not s.tricks else "DL-TRK-01", f"{who} may lead {tile}")
