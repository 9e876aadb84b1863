"""Every "What would you do?" in the book, by name: the position, and the page's own sentence on why.

A page shows one with ``ask("name")``; the tests judge every one of them the same way. Each
position is a seeded deal and the moves made so far by the computer players (the rule-of-thumb
players every example hand uses), so the reader's seat is the one to act after ``at`` moves.

>>> sorted(QUESTIONS)[:3]
['declaring', 'domino-declare', 'domino-play']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from widgets.book.quiz import Question, judge, question_html

if TYPE_CHECKING:
    from IPython.display import HTML

__all__ = ["FIRST_HAND", "QUESTIONS", "Ask", "ask"]


@dataclass(frozen=True)
class Ask:
    """A question as a page asks it: the position, a title, and a sentence on why (None: the rule of thumb's)."""

    question: Question
    title: str
    why: str | None = None


# The first chapter's deal (book/first-hand.md): seed 12, five players, Eve dealing, a pool of 15.
FIRST_HAND = Question("three-card-loo", "peel", seed=12, seats=5, dealer=4, pool=15)

QUESTIONS: dict[str, Ask] = {
    "first-hand": Ask(
        Question("three-card-loo", "peel", seed=7, pool=15, at=9),
        "What would you do? Seed 7: you are Ann, and Eve has led a trump you cannot follow",
    ),
    "declaring": Ask(
        FIRST_HAND,
        "What would you do? The first chapter's deal, seed 12: you are Ann, the eldest hand",
        why=(
            "Ann's cards hold no trump and no ace, so standing on them is likely to be looed; the miss is three "
            "unseen cards, on average better than hers, and nobody has yet declared to play, which is when the "
            "advice says to leave the miss alone (L3-DECL-03, L3-ADV-02)."
        ),
    ),
    "play": Ask(
        Question("three-card-loo", "peel", seed=3, pool=15, at=8),
        "What would you do? Seed 3: you are Ann, you have won the first trick, and you lead",
    ),
    "pam-declare": Ask(
        Question("five-card-loo", "pam", seed=22, pool=15),
        "What would you do? Seed 22: you are Ann, the eldest hand at five-card Loo",
    ),
    "pam-play": Ask(
        Question("five-card-loo", "pam", seed=12, pool=15, at=18),
        "What would you do? Seed 12: you are Ann, with no trick yet and two cards left",
        why=(
            "Ann has taken no trick, so a loo is near: the ace of clubs heads the king now (only a trump from "
            "Dan, who plays last, can beat it), while kept for the last trick it wins only if a club is led to it."
        ),
    ),
    "irish": Ask(
        Question("irish-loo", "irish", seed=20, pool=6),
        "What would you do? Seed 20: you are Ann, the eldest hand at Irish Loo",
    ),
    "nap-call": Ask(
        Question("nap", "hoffmann", seed=22, seats=4),
        "What would you do? Seed 22: you are Ann, first to call",
        why=(
            "Three spades headed by the ten, with the ten of hearts beside them, make two tricks more likely than "
            "not with spades as trumps; two is paid twice what one is, so here it is worth its risk, though the "
            "rule of thumb would stop at one."
        ),
    ),
    "nap-play": Ask(
        Question("nap", "hoffmann", seed=0, seats=4, at=12),
        "What would you do? Seed 0: you are Ann, you called two, and you have one trick",
        why=(
            "The three of clubs is too low a trump to draw the others' trumps, and led it will almost surely be "
            "beaten; the ace of spades takes the trick Ann needs unless a player with no spades trumps it."
        ),
    ),
    "misery": Ask(
        Question("nap", "hoffmann", seed=57, seats=4, options={"misery": True}, at=9),
        "What would you do? Seed 57: you are Ann, playing Misery, and Dan leads a club",
        why=(
            "In Misery play the highest card that still loses the trick: the five of clubs ducks under the seven, "
            "the nine would win it, and the two is kept as a safe card for a later club."
        ),
    ),
    "domino-declare": Ask(
        Question("domino-loo", "celko", seed=20, seats=4),
        "What would you do? Seed 20: you are Ann, the eldest hand at Domino Loo",
    ),
    "domino-play": Ask(
        Question("domino-loo", "celko", seed=2, seats=4, at=10),
        "What would you do? Seed 2: you are Ben, and Dan leads the double three, the top trump",
        why=(
            "Neither of Ben's threes can beat the double three, so he plays the three-one and keeps the six-three, "
            "now the highest trump left, to take a trick later."
        ),
    ),
}


def ask(name: str) -> HTML:
    """The question ``name`` (a key of :data:`QUESTIONS`) judged, as a page shows it."""
    from IPython.display import HTML

    if name not in QUESTIONS:
        raise KeyError(f"no question {name!r}; the questions are {', '.join(sorted(QUESTIONS))}")
    spec = QUESTIONS[name]
    return HTML(question_html(judge(spec.question, why=spec.why), title=spec.title))
