"""One accounting of each finished hand's chips (or points), read from the game's ledger: every place
that shows what a hand cost or paid reads it here, and nowhere else.

The engine's settlement says what the play decided: what each seat took from the pool, what it paid
for being looed, what passed between players. The game's ledger books that and also what was paid
before the cards were dealt: the dealer's stake (L3-STK-07, L5-STK-01, DL-SC-05), an ante when the
pool is empty (DL-SC-01/02), a Nap kitty's feed (NAP-POOL-02/03). A hand's net is the ledger's, so
the dealer's stake counts in the hand it was paid for, and each part is kept so that a reader can
see why the net is what it is:

>>> seat = SeatChips("Ann", dealer=True, dealt=3, looed=6)
>>> seat.net, seat.words()
(-9, 'put 3 in as dealer, looed 6: −9')

The dominoes scored in points move no chip: their hand changes each score, and which way is good
is said in words (at Rounce a score counts down to nothing, so fewer points is better).

>>> points_words(-2, "rounce"), points_words(5, "rounce"), points_words(2, "points")
('2 points nearer to out', '5 points further from out', '2 points nearer to the game')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from loo.core.protocols import PointsSettlement

MINUS = "\u2212"  # a true minus sign: read as "minus", and as wide as a plus

# The ledger's reasons (loo.core.ledger.Entry.why), by what they mean to a reader.
STAKES = frozenset({"deal", "ante", "kitty"})  # paid before the deal
WON = frozenset({"trick", "pool", "division"})  # taken out of the pool
DIRECT = frozenset({"stake", "flush"})  # paid from player to player (passing through the pool)
FEES = frozenset({"fees"})  # Nap: peeps, purchases, knaves and fives, a failed Nap's doubling
PENALTIES = frozenset({"penalty", "misdeal"})


def signed(amount: int) -> str:
    """A number with its sign: ``+3``, ``−3`` (a true minus sign), ``0``.

    >>> signed(3), signed(-3), signed(0)
    ('+3', '−3', '0')
    """
    if amount > 0:
        return f"+{amount}"
    if amount < 0:
        return f"{MINUS}{-amount}"
    return "0"


def _n(count: int, unit: str = "point") -> str:
    return f"{count} {unit}{'' if count == 1 else 's'}"


def points_words(change: int, scoring: str) -> str:
    """A change of score in words that say which way is good: at Rounce scores count down to out
    (DR-05, DR-06, DR-08), in the points game they count up to the game (DL-PTS-01/02)."""
    if not change:
        return "score unchanged"
    if scoring == "rounce":
        return f"{_n(-change)} nearer to out" if change < 0 else f"{_n(change)} further from out"
    return f"{_n(change)} nearer to the game" if change > 0 else f"{_n(-change)} further from the game"


def scoring_rule(scoring: str, game_points: int) -> str:
    """Which way a score is good, in words, for a game scored in points."""
    if scoring == "rounce":
        return f"lower is better: everyone starts on {game_points} and the first down to 0 wins"
    return f"higher is better: the first to {game_points} wins"


@dataclass(frozen=True)
class SeatChips:
    """One seat's chips in one hand, in its parts; ``net`` is what the ledger booked for it."""

    name: str
    dealer: bool = False
    dealt: int = 0  # put into the pool as the dealer's stake (or his feed of a Nap kitty)
    began: int = 0  # booked to the dealer of a table begun at a later hand (a record, a deal code): the pool's rest
    ante: int = 0  # put in before the deal by every player: an ante, a Nap kitty's feed from each
    looed: int = 0  # paid into the next pool for being looed
    fees: int = 0  # Nap's fees paid into the kitty
    penalty: int = 0  # a penalty or a misdeal paid into the pool
    won: int = 0  # taken out of the pool
    settled: int = 0  # received (+) or paid (-) from player to player

    @property
    def put_in(self) -> int:
        """Everything this seat paid into the pool in the hand."""
        return self.dealt + self.began + self.ante + self.looed + self.fees + self.penalty

    @property
    def net(self) -> int:
        return self.won + self.settled - self.put_in

    def parts(self) -> list[str]:
        """The parts of the net in words, in the order they happened; empty if no chip moved."""
        moved = (
            (self.dealt, "put {} in as dealer"),
            (self.began, "put in {} more, the pool this table began with"),
            (self.ante, "anted {}"),
            (self.fees, "paid {} in fees"),
            (self.penalty, "paid a penalty of {}"),
            (self.won, "took {} from the pool"),
            (self.looed, "looed {}"),
            (max(self.settled, 0), "was paid {} by the others"),
            (max(-self.settled, 0), "paid {} to the others"),
        )
        return [words.format(chips) for chips, words in moved if chips]

    def words(self) -> str:
        """The parts and the net: ``put 3 in as dealer, looed 6: −9``."""
        parts = self.parts()
        return f"{', '.join(parts)}: {signed(self.net)}" if parts else "no chips in or out: 0"


def seat_chips(name: str, dealer: bool, entries: Sequence[Any], deal_price: int | None = None) -> SeatChips:
    """A seat's part of a hand from the ledger's entries for it (``loo.core.ledger.Entry``: an amount
    paid into the pool, negative when taken out). A table begun at a later hand books the whole pool
    as its dealer's (``ChipLedger.sit_at``): what is over the ``deal_price`` is kept apart, as ``began``."""
    parts = dict.fromkeys(("dealt", "began", "ante", "looed", "fees", "penalty", "won", "settled"), 0)
    for entry in entries:
        why, amount = entry.why, entry.amount
        if why == "deal" and deal_price is not None and amount > deal_price:
            parts["dealt"] += deal_price
            parts["began"] += amount - deal_price
        elif why == "deal" or (why == "kitty" and dealer):
            parts["dealt"] += amount
        elif why in STAKES:
            parts["ante"] += amount
        elif why == "loo":
            parts["looed"] += amount
        elif why in FEES:
            parts["fees"] += amount
        elif why in PENALTIES:
            parts["penalty"] += amount
        elif why in DIRECT:
            parts["settled"] -= amount
        else:  # WON, and anything a game books later: what leaves the pool for the player
            parts["won"] -= amount
    return SeatChips(name, dealer, **parts)


@dataclass(frozen=True)
class HandLine:
    """One finished hand in the game's accounts, as every view shows it."""

    number: int  # 1 for the first hand
    dealer: str
    pool_before: int  # the pool the hand was played for
    pool_after: int  # what carries to the next hand
    net: Mapping[str, int]  # each player's chips won (+) or paid (-) in this hand, stakes included
    loos: Mapping[str, int]  # chips paid into the pool as loos (or fees, or penalties) in this hand
    balances: Mapping[str, int]  # each player's running balance after this hand
    reason: str  # how the hand ended, e.g. "played", "all-threw"
    seats: tuple[SeatChips, ...] = ()  # each player's chips in their parts, in the ledger's order of players
    scoring: str = "chips"  # "chips", or the dominoes' "points" or "rounce"
    points: Mapping[str, int] = field(default_factory=dict)  # each score's change, where scored in points
    scores: Mapping[str, int] = field(default_factory=dict)  # each score after the hand, where scored in points

    def seat(self, name: str) -> SeatChips:
        return next((s for s in self.seats if s.name == name), SeatChips(name))

    @property
    def in_points(self) -> bool:
        return self.scoring != "chips"


class GameLines:
    """The finished hands of one game (a ``LooGame``, ``NapGame`` or ``DominoGame``) as the game's accounts
    say them, kept as its hands are settled: each hand is accounted once, from the ledger's entries for it,
    carried on from the hand before (the running balances, the pool, any scores).

    :meth:`catch_up` accounts the hands settled since it was last called, and drops those the game no
    longer has (a settlement taken back, ``loo.core.ledger.ChipLedger.restore``)."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self._lines: list[HandLine] = []
        self._after: list[tuple[int, dict[str, int]]] = []  # after each line: the ledger's entries read, the scores

    @property
    def lines(self) -> list[HandLine]:
        """Every finished hand's line, the first hand first."""
        if len(self._lines) != len(self._game.results):
            self.catch_up()
        return list(self._lines)

    def catch_up(self) -> None:
        """Account the hands the game has settled since, and forget those it has taken back."""
        results = self._game.results
        del self._lines[len(results) :], self._after[len(results) :]
        while len(self._lines) < len(results):
            self._account(len(self._lines))

    def _account(self, index: int) -> None:
        game, before = self._game, self._lines[-1] if self._lines else None
        rules, result = game.rules, game.results[index]
        players = list(game.balances())
        scoring = str(getattr(rules, "domino_scoring", "chips"))
        read, score = self._after[-1] if self._after else (0, dict.fromkeys(players, 0))
        if not self._after and scoring == "rounce":
            score = dict.fromkeys(players, rules.game_points)
        entries = []
        for entry in game.ledger[read:]:  # booked hand by hand: this hand's follow the hand before's
            if entry.hand > index:
                break
            read += 1
            if entry.hand == index:
                entries.append(entry)
        price = getattr(rules, "deal_price", None)
        seats = tuple(
            seat_chips(name, name == result.dealer, [e for e in entries if e.player == name], price) for name in players
        )
        balances = {name: (before.balances.get(name, 0) if before else 0) for name in players}
        for seat in seats:
            balances[seat.name] += seat.net
        settlement = result.settlement
        points: dict[str, int] = {}
        score = dict(score)
        if scoring != "chips" and isinstance(settlement, PointsSettlement) and settlement.points is not None:
            points = dict(zip(result.players, settlement.points, strict=True))
            for name, change in points.items():
                score[name] += change
        line = HandLine(
            number=index + 1,
            dealer=result.dealer,
            pool_before=int(result.pool_before),
            pool_after=(before.pool_after if before else 0) + sum(e.amount for e in entries),
            net={s.name: s.net for s in seats},
            loos={s.name: s.looed + s.fees + s.penalty for s in seats},
            balances=balances,
            reason=str(settlement.reason),
            seats=seats,
            scoring=scoring,
            points=points,
            scores=dict(score) if points else {},
        )
        self._lines.append(line)
        self._after.append((read, score))


def hand_lines(game: Any) -> list[HandLine]:
    """Every finished hand of ``game`` (a ``LooGame``, ``NapGame`` or ``DominoGame``): its chips from the
    game's ledger, seat by seat and part by part, and its points where the game is scored in them
    (a table keeps them as its hands finish: :class:`GameLines`)."""
    return GameLines(game).lines


def seat_words(line: HandLine, name: str) -> str:
    """What the hand did to one player: its chips in their parts and the net, or its points in words
    and the score after (``put 3 in as dealer, looed 6: −9``; ``2 points nearer to out, now 13``)."""
    if line.in_points:
        change = line.points.get(name, 0)
        return f"{points_words(change, line.scoring)}, now {line.scores.get(name, 0)}"
    return line.seat(name).words()


def result_words(line: HandLine, names: Sequence[str], game_points: int = 0) -> str:
    """The finished hand in a few sentences, every player named with what the hand did to them."""
    said = "; ".join(f"{name}: {seat_words(line, name)}" for name in names)
    if line.in_points:
        rule = scoring_rule(line.scoring, game_points)
        return f"Hand {line.number} is over. Points this hand: {said} ({rule})."
    return f"Hand {line.number} is over. Chips this hand: {said}."


def account_columns(line: HandLine, names: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """The settlement table's columns for a hand of a game (headings, and a cell per player in the order
    of ``names``): the parts of each player's chips that any player has, and the net; or, where the game
    is scored in points, each change in words and the score after."""
    if line.in_points:
        better = "lower" if line.scoring == "rounce" else "higher"
        return ["This hand", f"Score now ({better} is better)"], [
            [points_words(line.points.get(name, 0), line.scoring) for name in names],
            [str(line.scores.get(name, 0)) for name in names],
        ]
    seats = [line.seat(name) for name in names]
    parts: list[tuple[str, list[int], Callable[[int], str]]] = [
        ("Stake", [s.dealt + s.began + s.ante for s in seats], str),
        ("Fees and penalties", [s.fees + s.penalty for s in seats], str),
        ("Took from the pool", [s.won for s in seats], str),
        ("Looed for", [s.looed for s in seats], str),
        ("Paid or received", [s.settled for s in seats], signed),
    ]
    heads = [head for head, values, _ in parts if any(values)]
    columns = [[shown(v) for v in values] for _, values, shown in parts if any(values)]
    return [*heads, "Net chips"], [*columns, [signed(s.net) for s in seats]]
