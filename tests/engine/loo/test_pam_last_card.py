"""Pam be civil when Pam is its holder's last card (AMB-26, L5-RANK-05, CF-22): issue 19, item 5.

Under civility Pam may not be played to a led ace of trumps. On the last trick the holder of Pam
has nothing else, so he plays it; being civil, it lets the ace win, as a discard would.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from loo.core.actions import Action
from loo.core.cards import Card
from loo.core.rules import RevokeReplay
from loo.games.loo.hand import LooHand
from loo.games.loo.rules import PamBeCivil
from loo.records import check
from tests.helpers.loo_helpers import legal, make, push, run_cli

# Three players, Cat (seat 2) deals, hearts are trumps. Ann takes four spade tricks and keeps the
# ace of trumps for the last; Ben keeps Pam (the knave of clubs) to the end. No hand is a flush.
HANDS = "AH AS KS QS JS | JC 2S 3S 4S 2C | 2D 3D 4D 5D 3C"
FIRST_FOUR = ("0 AS", "1 2S", "2 2D", "0 KS", "1 3S", "2 3D", "0 QS", "1 4S", "2 4D", "0 JS", "1 2C", "2 5D")


def last_trick(**options: object):  # type: ignore[no-untyped-def]
    """The hand with the ace of trumps led to the fifth trick, Ben (Pam alone) to play."""
    h = make(HANDS, turnup="2H", preset="pam", pool=15, **options)  # type: ignore[arg-type]
    push(h, "0 stand", "1 stand", "2 stand", "0 x", "1 x", "2 x", *FIRST_FOUR)
    assert [t.winner for t in h.tricks] == [0, 0, 0, 0]
    return h


@pytest.mark.law("AMB-26", "L5-RANK-05")
def test_AMB_26_L5_RANK_05_pam_as_the_last_card_is_played_and_lets_the_ace_win() -> None:
    h = push(last_trick(), "0 AH")
    assert h.holding(1) == (Card.parse("JC"),)
    assert legal(h) == ["JC"]  # civility never leaves him without a legal play
    [why] = [e for e in h.explain() if e.action.value == Card.parse("JC")]
    assert why.legal and why.law == "AMB-26" and "lets the ace of trumps win" in why.reason
    push(h, "1 JC", "2 3C")
    assert h.tricks[-1].winner == 0  # the ace passes: Pam takes nothing
    s = h.settlement
    assert s is not None and s.tricks_won == (5, 0, 0) and s.payouts == (15, 0, 0)
    assert s.looed == (1, 2) and s.loos == (0, 5, 5)


@pytest.mark.law("AMB-26", "CF-22")
def test_AMB_26_CF_22_on_announce_pam_lets_the_ace_win_only_when_the_words_are_said() -> None:
    said = last_trick(pam_be_civil=PamBeCivil.ON_ANNOUNCE)
    said.push(Action(0, "play", Card.parse("AH"), civil=True))
    push(said, "1 JC", "2 3C")
    assert said.tricks[-1].winner == 0
    quiet = push(last_trick(pam_be_civil=PamBeCivil.ON_ANNOUNCE), "0 AH", "1 JC", "2 3C")
    assert quiet.tricks[-1].winner == 1  # nobody asked Pam to be civil: it is the top trump


@pytest.mark.law("CF-22", "L5-RANK-01")
def test_CF_22_L5_RANK_01_when_civility_is_a_courtesy_pam_takes_the_ace() -> None:
    h = push(last_trick(pam_be_civil=PamBeCivil.COURTESY), "0 AH", "1 JC", "2 3C")
    assert h.tricks[-1].winner == 1
    s = h.settlement
    assert s is not None and s.tricks_won == (4, 1, 0) and s.looed == (2,)


@pytest.mark.law("AMB-26")
def test_AMB_26_pam_played_to_the_ace_before_its_last_card_still_wins_as_an_offence() -> None:
    """Table mode: an irregular Pam on the ace (he had other cards) lies where played and wins the trick,
    as before; civility changes the winner only when Pam was the holder's last card."""
    dealt = make("AH 4S 5S 6D 7D | JC 3S 9C 8D 2C | KH 10S QS 9D 3C", turnup="2H", preset="pam", pool=15)
    rules = dataclasses.replace(dealt.rules, revoke_replay=RevokeReplay.ON_DEMAND)
    h = LooHand(rules, hands=dealt.dealt, stock=dealt.stock, turnup=dealt.turnup, dealer=2, pool=15,
                names=dealt.names, table=True)  # fmt: skip
    push(h, "0 stand", "1 stand", "2 stand", "0 x", "1 x", "2 x", "0 AH", "1 JC", "2 KH")
    assert h.tricks[0].winner == 1 and h.offences[0].law == "L5-RANK-05"


def record(civil: str) -> dict[str, object]:
    actions: list[dict[str, object]] = [{"seat": s, "declare": "stand"} for s in (0, 1, 2)]
    actions += [{"seat": s, "exchange": []} for s in (0, 1, 2)]
    actions += [{"seat": int(a[0]), "play": a[2:]} for a in FIRST_FOUR]
    actions += [{"seat": 0, "play": "AH"}, {"seat": 1, "play": "JC"}, {"seat": 2, "play": "3C"}]
    return {
        "format": "loo-record/1",
        "game": "five-card-loo",
        "rules": {"preset": "pam", "pam-be-civil": civil},
        "seats": ["Ann", "Ben", "Cat"],
        "dealer": 2,
        "pool": 15,
        "deal": {"hands": [h.split() for h in HANDS.split(" | ")], "turnup": "2H"},
        "actions": actions,
    }


@pytest.mark.law("AMB-26")
@pytest.mark.parametrize(("civil", "winner"), [("mandatory", 0), ("courtesy", 1)])
def test_AMB_26_loo_check_settles_the_last_trick_by_civility(
    civil: str, winner: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(record(civil))
    status, result = check(text)
    assert status == 0 and result["complete"], result
    assert result["tricks"][-1]["winner"] == winner
    path = tmp_path / "pam-last-card.json"
    path.write_text(text)
    code, out, err = run_cli(capsys, "check", str(path))
    assert code == 0 and err == ""
    printed = json.loads(out)
    assert printed["tricks"][-1]["winner"] == winner
    assert printed["looed"] == ([1, 2] if winner == 0 else [2])
