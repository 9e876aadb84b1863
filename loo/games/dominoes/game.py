"""Games of many hands of dominoes: the pool and its ledger, or the scores, and the deal passing to the left."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from loo.core.ledger import ChipLedger
from loo.core.tiles import Tile
from loo.games.dominoes.hand import DominoHand, deal_tiles
from loo.games.dominoes.record import Deal
from loo.games.dominoes.rules import DominoRules, DominoScoring
from loo.games.dominoes.settle import DominoSettlement
from loo.games.dominoes.state import PLAYERS

__all__ = ["DominoGame", "DominoHandResult"]


# ----- games of many hands -------------------------------------------------------------------------


@dataclass(frozen=True)
class DominoHandResult:
    number: int
    dealer: str
    pool_before: int
    settlement: DominoSettlement
    players: tuple[str, ...]


class DominoGame(ChipLedger):
    """Hands of one domino game in sequence, the deal passing to the left (DL-DEAL-01).

    With chips the pool escalates and a double-entry ledger records every chip (balances and
    the pool always add up to zero); with points the scores run up to 15 (AMB-51), at Rounce
    down from 15 to nothing (DR-05..10, AMB-52).

    >>> game = DominoGame(DominoRules.preset("celko"), ["Ann", "Ben", "Cat", "Dan"], random.Random(3))
    >>> hand = game.next_hand()  # Ann deals into an empty pool: all ante five, and she five more
    >>> game.pool, game.balances()
    (25, {'Ann': -10, 'Ben': -5, 'Cat': -5, 'Dan': -5})
    """

    def __init__(
        self, rules: DominoRules, players: Sequence[str], rng: random.Random, *, first_dealer: int = 0
    ) -> None:
        if len(players) not in PLAYERS:
            raise ValueError(f"the domino games are for two to four players (DL-EQP-02), not {len(players)}")
        self.rules = rules
        self._seat(players, rng, first_dealer)  # DL-DEAL-01: a first dealer is designated
        self.results: list[DominoHandResult] = []
        start = rules.game_points if rules.domino_scoring is DominoScoring.ROUNCE else 0
        self.scores: dict[str, int] = dict.fromkeys(self.players, start)  # DR-05
        self.hand: DominoHand | None = None

    # ----- the ledger -------------------------------------------------------------------------

    def _own_books(self) -> tuple[Any, ...]:
        return (dict(self.scores),)  # a hand scored in points changes them

    def _restore_own(self, own: tuple[Any, ...]) -> None:
        self.scores = dict(own[0])

    # ----- the end --------------------------------------------------------------------------------

    @property
    def winner(self) -> str | None:
        """Who has won, once a hand has ended the game; a tie plays on (AMB-51, AMB-52). Chips games never end."""
        scoring = self.rules.domino_scoring
        if scoring is DominoScoring.CHIPS:
            return None
        if scoring is DominoScoring.POINTS:
            best = max(self.scores.values())
            if best < self.rules.game_points:  # DL-PTS-02
                return None
        else:
            best = min(self.scores.values())
            if best > 0:  # DR-10
                return None
        leaders = [p for p, score in self.scores.items() if score == best]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    # ----- dealing --------------------------------------------------------------------------------

    def next_hand(self, *, deal: Deal | None = None) -> DominoHand:
        """Take the stakes and deal the next hand: from ``self.rng``, or the given (hands, turn-up, stock).

        With chips, a deal into an empty pool is anted by everyone and the dealer adds his stake
        on top; otherwise only the dealer pays (DL-SC-01, DL-SC-02, DL-SC-05, AMB-50).
        """
        if self.hand is not None and not self.hand.is_over:
            raise ValueError("the current hand is not finished")
        if self.hand is not None and (not self.results or self.results[-1].settlement is not self.hand.settlement):
            self.settle()
        if self.is_over:
            raise ValueError(f"the game is over: {self.winner} has won")
        names = self.players
        dealer_name = names[self.dealer]
        if self.rules.domino_scoring is DominoScoring.CHIPS:
            if self.pool == 0:
                for p in names:
                    self._pay(p, self.rules.deal_price, "ante")
            self._pay(dealer_name, self.rules.deal_price, "deal")
        hands: Sequence[Sequence[Tile]]
        stock: Sequence[Tile]
        if deal is None:
            hands, turnup, stock = deal_tiles(self.rules, self.rng, seats=len(names), dealer=self.dealer)
        else:
            hands, turnup, stock = deal
        self.hand = DominoHand(
            self.rules, hands=hands, turnup=turnup, dealer=self.dealer, pool=self.pool, stock=stock, names=names
        )
        return self.hand

    def settle(self) -> DominoHandResult:
        """Record the finished hand's payments or scores, and pass the deal to the left."""
        hand = self.hand
        if hand is None or hand.settlement is None:
            raise ValueError("there is no finished hand to settle")
        s = hand.settlement
        if self.results and self.results[-1].settlement is s:
            return self.results[-1]
        names = hand.names
        for seat, amount in enumerate(s.payouts):
            self._pay(names[seat], -amount, "trick" if s.reason == "played" else "pool")
        for seat, amount in enumerate(s.loos):
            self._pay(names[seat], amount, "loo")
        if s.scoring is DominoScoring.CHIPS:
            assert self.pool == s.next_pool, (self.pool, s.next_pool)
        for seat, change in enumerate(s.points or ()):
            self.scores[names[seat]] += change
        result = DominoHandResult(len(self.results), names[hand.dealer], hand.pool, s, names)
        self.results.append(result)
        self.dealer = (self.dealer + 1) % len(names)  # DL-DEAL-01
        return result
