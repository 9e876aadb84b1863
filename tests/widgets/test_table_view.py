"""The live table's view, driven by clicks and value changes as a reader would, with every
widget's synced state walked after each step for a card or tile the reader's seat may not see.

Each game and preset is played for several hands through the view; the variants that bring
their own controls (Nap's Misery, Peep, Sir Garnet, Purchase and Wellington; the five-card
flush; Pam be civil) are each reached and checked for what they show.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime
from urllib.parse import unquote

import ipywidgets as ipw
import pytest

from loo.core.cards import Card, full_pack
from loo.core.tiles import full_set
from loo.records import check
from tests.helpers.seen import visible_to_reader
from widgets.draw.board import pam_card, piece_label, piece_name
from widgets.draw.card_style import tile_class
from widgets.table.hints import describe
from widgets.table.model import TableModel
from widgets.views.table_view import UNDO_FINISHED_TIP, TableView

GAMES = [
    ("three-card-loo", "peel"),
    ("three-card-loo", "enquire-within"),
    ("three-card-loo", "britannica"),
    ("five-card-loo", "pam"),
    ("irish-loo", "irish"),
    ("nap", "hoffmann"),
    ("nap", {"preset": "hoffmann", "wellington": True, "misery": True}),
    ("nap", {"preset": "hoffmann", "sir-garnet": True}),
    ("nap", {"preset": "hoffmann", "peep": True}),
    ("nap", {"preset": "hoffmann", "purchase": True}),
    ("domino-loo", "celko"),
    ("domino-rounce", "rounce"),
]


def walk(widget: ipw.Widget) -> Iterator[ipw.Widget]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def state_text(view: TableView) -> str:
    """Every synced state under the view but the stylesheet, which draws all 52 faces for everyone alike."""
    return repr([w.get_state() for w in walk(view) if w is not view._style])


def forms(piece: object) -> list[str]:
    """How a piece could show up in a widget's state: its name, and its button label for cards."""
    out = [str(getattr(piece, "name", piece))]
    if isinstance(piece, Card):
        out.append(f'aria-label="{piece.name}"')
    return out


def hidden_in_state(view: TableView, table: TableModel) -> list[object]:
    text = state_text(view)
    pieces = full_pack() if table.game not in ("domino-loo", "domino-rounce") else full_set()
    hidden = set(pieces) - visible_to_reader(table)
    return [p for p in hidden if any(f in text for f in forms(p))]


def assert_nothing_hidden(view: TableView, table: TableModel) -> None:
    if table.hand.is_over:
        return  # a finished hand's cards are public: its record and result may show them
    leaked = hidden_in_state(view, table)
    assert leaked == [], f"hidden pieces reached a widget: {leaked}"


def live_buttons(view: TableView) -> list[ipw.Button]:
    return [b for b in view._choices.children if isinstance(b, ipw.Button) and b.button_style == "primary"]


def click_through(view: TableView, rng: random.Random) -> None:
    """Click a random live choice (or, where cards must be picked, pick some and confirm)."""
    live = live_buttons(view)
    if view._picks.children and (not live or rng.random() < 0.5):
        for toggle in view._picks.children[:-1]:
            toggle.value = rng.random() < 0.3
        view._confirm.click()
        if view.model.message:  # too many picked for the stock, say: pick none instead
            for toggle in view._picks.children[:-1]:
                toggle.value = False
            view._confirm.click()
        return
    rng.choice(live).click()


def assert_shows_the_readers_turn(view: TableView) -> None:
    """What the reader sees when it is their turn: their seat marked, named cards, live choices."""
    table = view.model
    assert "your turn" in view._board.value
    assert live_buttons(view) or view._picks.children
    held = table.view().hand or ()
    pam = pam_card(table.view())
    card_buttons = [b for b in view._choices.children if "loo-card-button" in b._dom_classes]
    if card_buttons:  # playing cards: a button per card held, named for the card, legal ones live
        assert [b.description for b in card_buttons] == [piece_name(c, pam) for c in held]
        legal = {a.value for a in table.legal() if a.verb == "play"}
        for button, card in zip(card_buttons, held, strict=True):
            assert (button.button_style == "primary") == (card in legal)
            assert ("loo-illegal" in button._dom_classes) == (card not in legal)
    elif any(a.verb == "play" for a in table.legal()):  # playing tiles: each named on a button
        descriptions = " | ".join(b.description for b in view._choices.children)
        assert all(t.name in descriptions for t in held)
        assert all("loo-tile-button" in b._dom_classes for b in view._choices.children if "loo-piece" in b._dom_classes)
    elif view._picks.children:  # picking cards to exchange: each card held is a toggle named for it
        toggles = [b for b in view._picks.children if "loo-pick" in b._dom_classes]
        assert [b.description for b in toggles] == [piece_name(p, pam) for p in held]
        assert all({"loo-card-button", "loo-tile-button"} & set(b._dom_classes) for b in toggles)
    else:  # declaring or calling: the hand is drawn on the board with its accessible name
        for piece in held:
            assert piece_name(piece, pam) in view._board.value


def play_hands(view: TableView, rng: random.Random, hands: int) -> list[set[str]]:
    """Play ``hands`` hands by clicking; return the labels of the controls offered in each."""
    table = view.model
    offered: list[set[str]] = []
    for number in range(1, hands + 1):
        seen: set[str] = set()
        steps = 0
        while not table.hand.is_over:
            assert_nothing_hidden(view, table)
            assert_shows_the_readers_turn(view)
            assert view._next.disabled, "no next hand while this one is in play"
            seen |= {b.description for b in live_buttons(view)}
            seen |= {view._confirm.description} if view._picks.children else set()
            click_through(view, rng)
            steps += 1
            assert steps < 80
        offered.append(seen)
        # counting Peel's singles, each settled as dealt, shown and played on (widgets.views.opening)
        singles = sum(line.reason == "single" for line in table.hand_lines())
        assert f"Hand {number + singles} is over" in view._board.value
        assert not view._next.disabled and not view._export_hand.disabled
        assert len(table.hand_lines()) == number + singles
        assert sum(table.balances().values()) + table.pool == 0, "every chip accounted for"
        view._next.click()
        if "game is over" in table.message:
            break
    return offered


def table_for(game: str, rules: object, seed: int, **kw: object) -> TableView:
    return TableView(TableModel(game, rules=rules, seed=seed, rng=random.Random(seed), **kw))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "rules"), GAMES, ids=lambda x: x if isinstance(x, str) else "+".join(k for k in x if k != "preset")
)
def test_whole_hands_by_clicking_with_nothing_hidden_in_any_widget(game: str, rules: object) -> None:
    for seed in range(2):
        view = table_for(game, rules, seed)
        play_hands(view, random.Random(seed), hands=3)


def live_widgets() -> int:
    """How many widgets the kernel holds open (each one is sent to a page that connects)."""
    from ipywidgets.widgets.widget import _instances

    return len(_instances)


@pytest.mark.parametrize("game", ["three-card-loo", "nap", "domino-loo"])
def test_a_long_game_does_not_pile_up_widgets(game: str) -> None:
    """Each move replaces the choice buttons: the old ones are closed, layout and style included, so
    the widgets a reconnecting page is sent stay as many after six hands as after one."""
    view = table_for(game, None, 3)
    rng = random.Random(3)
    counts = []
    for _ in range(6):
        while not view.model.hand.is_over:
            click_through(view, rng)
        counts.append(live_widgets())
        view._next.click()
    after_one = counts[0]
    # A position's buttons come and go; a leak of one move's buttons alone would add dozens.
    assert max(counts) <= after_one + 30, counts


# ----- the variants' own controls ---------------------------------------------------------------


def nap_view(option: str, seed: int = 3) -> TableView:
    return table_for("nap", {"preset": "hoffmann", option: True}, seed)


def test_nap_misery_is_offered_as_a_call() -> None:
    view = nap_view("misery")
    assert "Misery" in {b.description for b in live_buttons(view)}
    assert "Misery" not in {b.description for b in live_buttons(nap_view("wellington"))}


def test_nap_wellington_is_not_offered_before_a_nap_and_the_reason_is_given() -> None:
    view = nap_view("wellington")
    assert "Wellington" not in {b.description for b in live_buttons(view)}
    assert "<b>Wellington</b>: not now." in view._unavailable.value and "NAP-WEL-02" in view._unavailable.value


def test_nap_peep_and_sir_garnet_are_buttons_and_the_garnet_throw_out_is_picked() -> None:
    peep = nap_view("peep")
    assert "Peep at the top card" in {b.description for b in live_buttons(peep)}
    garnet = nap_view("sir-garnet")
    take = next(b for b in live_buttons(garnet) if b.description == "Take up Sir Garnet's extra hand")
    take.click()
    # Ten cards now: the reader picks five to throw out and confirms.
    assert garnet._confirm.description == "Throw out"
    toggles = garnet._picks.children[:-1]
    assert len(toggles) == 10
    for toggle in toggles[:5]:
        toggle.value = True
    garnet._confirm.click()
    assert len(garnet.model.view().hand) == 5
    assert_nothing_hidden(garnet, garnet.model)


def test_nap_purchase_is_picked_and_confirmed() -> None:
    view = nap_view("purchase")
    assert view._confirm.description == "Buy" and len(view._picks.children) == 6
    given_up = view.model.view().hand[0]
    view._picks.children[0].value = True
    view._confirm.click()
    assert view.model.message == "", "the purchase was taken"
    hand = view.model.view().hand
    assert hand is not None and len(hand) == 5 and given_up not in hand


def test_a_three_card_declaration_that_is_not_open_says_why() -> None:
    view = table_for("three-card-loo", "britannica", 1)
    table = view.model
    assert table.hand.to_act == 0
    lines = view._unavailable.value
    assert table.unavailable(), "Bold Stand: throwing up is not open to the eldest hand"
    for _action, reason in table.unavailable():
        words = reason.rpartition(" (")[0]  # the reason in words; its law a reference that opens on a tap
        assert words in lines.replace("&#x27;", "'")
    laws = [e.law for e in table.hand.explain() if not e.legal and e.action.verb == "declare"]
    assert all(f"{law_id}</summary>" in lines for law_id in laws)


# ----- five-card Loo: a flush, and Pam be civil -----------------------------------------------

PAM3 = [["AH", "4S", "5S", "6D", "7D"], ["JC", "3S", "9C", "8D", "2C"], ["KH", "10S", "QS", "9D", "3C"]]
STOCK = ["AS", "KS", "2S", "5D", "4D", "3D", "2D", "6C", "5C", "4C"]


def five_card_record(hands: list[list[str]], actions: list[dict[str, object]], pool: int = 15) -> str:
    held = {c for h in hands for c in h} | {"2H"}
    stock = STOCK if not held & set(STOCK) else [str(c) for c in full_pack() if str(c) not in held][:10]
    return json.dumps(
        {
            "format": "loo-record/1",
            "game": "five-card-loo",
            "rules": "pam",
            "seats": ["Ann", "Ben", "Cat"],
            "dealer": 2,
            "pool": pool,
            "deal": {"hands": hands, "turnup": "2H", "stock": stock},
            "actions": actions,
        }
    )


def import_by_pasting(view: TableView, text: str) -> None:
    view._import_text.value = text
    view._import.click()


def test_five_card_flush_by_clicking_sweeps_the_pool() -> None:
    view = table_for("five-card-loo", "pam", 1)
    flush = [["JC", "2S", "5S", "6S", "7S"], ["AH", "KH", "QH", "10H", "9H"], ["3D", "4D", "8C", "9C", "KC"]]
    import_by_pasting(view, five_card_record(flush, []))
    assert view.model.message == "Record loaded." and view.model.names == ("Ann", "Ben", "Cat")
    assert_nothing_hidden(view, view.model)
    rng = random.Random(2)
    while not view.model.hand.is_over:
        labels = {b.description for b in live_buttons(view)}
        if "Stand" in labels:  # Ann holds a Pam flush: she stands and keeps every card
            next(b for b in live_buttons(view) if b.description == "Stand").click()
        elif view._picks.children:
            view._confirm.click()  # exchange nothing
        else:
            click_through(view, rng)
    settlement = view.model.hand.settlement
    assert settlement.reason == "flush" and settlement.flush == (0, "pam")
    assert "Hand 1 is over" in view._board.value and "Ann: took 15 from the pool: +15" in view._board.value
    # the table began at this hand: the dealer's stake of 5 and the rest of the pool the ledger books to her
    assert "Cat: put 5 in as dealer, put in 10 more, the pool this table began with: \u221215" in view._board.value


def test_pam_be_civil_by_clicking_marks_pam_and_says_why() -> None:
    stood = [{"seat": s, "declare": "stand"} for s in range(3)] + [{"seat": s, "exchange": []} for s in range(3)]
    view = table_for("five-card-loo", "pam", 1, seat=1)
    import_by_pasting(view, five_card_record(PAM3, [*stood, {"seat": 0, "play": "AH"}]))
    assert view.model.message == "Record loaded."
    assert_shows_the_readers_turn(view)
    assert_nothing_hidden(view, view.model)
    pam = next(b for b in view._choices.children if b.description == "knave of clubs, Pam")
    assert "loo-illegal" in pam._dom_classes
    before = view.model.view()
    pam.click()
    assert "L5-RANK-05" in view._status.value and view.model.view() == before


# ----- the teaching switch ----------------------------------------------------------------------


def test_the_teaching_switch_shows_every_hand_only_while_it_is_on() -> None:
    view = table_for("three-card-loo", "britannica", 4)
    table = view.model
    assert not view._teaching.value and not table.teaching and table.open_hands() is None
    assert hidden_in_state(view, table) == []
    view._teaching.value = True
    others = {c for p in range(1, 5) for c in table.hand.holding(p) or ()}
    assert all(c.name in view._board.value for c in others)
    assert "face up for teaching" in view._board.value
    view._teaching.value = False
    assert hidden_in_state(view, table) == []


# ----- records: export and import ----------------------------------------------------------------


def finish(view: TableView, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not view.model.hand.is_over:
        click_through(view, rng)


def test_export_after_the_hand_gives_a_record_the_checker_accepts() -> None:
    view = table_for("three-card-loo", "britannica", 6)
    view._export_hand.click()
    assert view._exported.value == "" or "Download" not in view._exported.value
    finish(view)
    view._export_hand.click()
    html = view._exported.value
    link = html.split('href="data:application/json;charset=utf-8,', 1)[1].split('"', 1)[0]
    status, result = check(unquote(link))
    assert status == 0 and result["ok"] and result["complete"]
    view._export_game.click()
    game = json.loads(unquote(view._exported.value.split("charset=utf-8,", 1)[1].split('"', 1)[0]))
    assert isinstance(game, list) and len(game) == 1 and check(json.dumps(game[0]))[0] == 0


def test_an_exported_hand_imports_to_the_same_hand() -> None:
    view = table_for("nap", "hoffmann", 2)
    finish(view)
    text = view.model.export()
    assert text is not None
    other = table_for("nap", "hoffmann", 9)
    import_by_pasting(other, text)
    assert other.model.hand.is_over and other.model.hand.settlement == view.model.hand.settlement


def test_a_bad_record_is_refused_by_name_and_the_table_is_unchanged() -> None:
    view = table_for("three-card-loo", "britannica", 6)
    before = view.model.view()
    import_by_pasting(view, '{"format": "loo-record/1", "game": "whist"}')
    assert "cannot be read" in view._status.value and "game" in view._status.value
    import_by_pasting(view, "not json at all")
    assert "cannot be read" in view._status.value
    stood = [{"seat": 0, "play": "2C"}]
    import_by_pasting(view, five_card_record(PAM3, stood))
    assert "action 0 breaks <details" in view._status.value  # play begins only after the declarations
    assert "<summary" in view._status.value and "L3-DECL-13</summary>" in view._status.value
    assert view.model.view() == before


def upload(name: str, content: bytes) -> dict[str, object]:
    """What ipywidgets' FileUpload holds for one file the browser sent."""
    return {"name": name, "type": "", "size": len(content), "content": content, "last_modified": datetime.now(UTC)}


def test_a_record_file_can_be_uploaded() -> None:
    source = table_for("domino-loo", "celko", 5)
    finish(source)
    text = source.model.export()
    assert text is not None
    view = table_for("domino-loo", "celko", 8)
    view._upload.value = (
        {
            "name": "hand.json",
            "type": "application/json",
            "size": 1,
            "content": text.encode(),
            "last_modified": datetime.now(UTC),
        },
    )
    assert view.model.message == "Record loaded." and view.model.hand.settlement == source.model.hand.settlement
    view._upload.value = (
        {"name": "x.bin", "type": "", "size": 2, "content": b"\xff\xfe", "last_modified": datetime.now(UTC)},
    )
    assert "not a text file" in view._status.value


# ----- take-back, hints, hands and games -----------------------------------------------------------


def test_take_back_stops_at_the_end_of_the_hand_which_stays_finished() -> None:
    view = table_for("three-card-loo", "britannica", 5)
    table = view.model
    assert view._undo.disabled
    first = table.view()
    next(b for b in live_buttons(view)).click()
    assert not view._undo.disabled or table.hand.is_over
    view._undo.click()
    assert table.view() == first
    finish(view, 3)
    finished, pool, balances, lines = table.view(), table.pool, table.balances(), table.hand_lines()
    assert len(lines) == 1 and table._reader_moves > 0  # the reader moved in this hand: not a reason to reopen it
    assert view._undo.disabled and not table.can_undo  # so the button (and the key U, which clicks it) is off
    assert view._undo.tooltip == UNDO_FINISHED_TIP  # and says why
    assert not table.undo()  # and the model itself refuses, in plain words
    assert "This hand is over, so it cannot be taken back" in view._status.value
    assert table.hand.is_over and table.view() == finished
    assert (table.pool, table.balances(), table.hand_lines()) == (pool, balances, lines)


@pytest.mark.parametrize("game", ["three-card-loo", "nap", "domino-loo"])
def test_one_redraw_asks_the_model_for_the_readers_view_once(game: str) -> None:
    view = TableView(TableModel(game, seed=3, rng=random.Random(3)))
    model = view.model
    asked = []
    seen = model.view

    def counted() -> object:
        asked.append(1)
        return seen()

    model.view = counted  # type: ignore[method-assign]
    chooser = random.Random(3)
    for _ in range(4):
        legal = seen().legal
        if not legal:
            break
        asked.clear()
        assert model.act(chooser.choice(legal))
        assert len(asked) == 1, "the view is read once and handed down to every part drawn"


def test_hint_names_a_legal_choice() -> None:
    view = table_for("three-card-loo", "britannica", 5)
    view._hint.click()
    hint = view.model.hint()
    assert hint is not None and f"Hint: {describe(hint.choice)}." in view._status.value


def test_new_game_asks_first_and_starts_the_ledger_again() -> None:
    view = table_for("three-card-loo", "britannica", 5)
    finish(view)
    view._next.click()
    asking = view._replacing.ask_row
    assert asking.layout.display == "none"
    view._new_game.click()
    assert asking.layout.display is None
    view._replacing._no.click()
    assert asking.layout.display == "none" and len(view.model.hand_lines()) == 1
    view._new_game.click()
    view._replacing._yes.click()
    assert view.model.hand_lines() == [] and "new game" in view._status.value


def test_controls_have_labels_and_cards_have_names() -> None:
    for game, rules in GAMES:
        view = table_for(game, rules, 2)
        for widget in walk(view):
            if isinstance(widget, ipw.Button | ipw.ToggleButton | ipw.FileUpload):
                assert widget.description.strip(), "every control has a visible label"
                assert widget.tooltip, "and a longer description"
            if isinstance(widget, ipw.Textarea):
                assert widget.description and widget.placeholder
        held = view.model.view().hand or ()
        assert all(getattr(p, "name", "") for p in held), "every card and tile has a name"
    assert piece_label(Card.parse("10H")) == "10♥"


def test_the_four_colour_deck_and_text_only_mode_are_a_click_away() -> None:
    from loo.svg import BLUE, GREEN

    view = table_for("three-card-loo", "britannica", 4)
    two = view._style.value
    view._four_colour.value = True
    sheet = view._style.value.replace("%23", "#")  # colours inside the faces' data URIs
    assert view._style.value != two and BLUE in sheet and GREEN in sheet and BLUE not in two.replace("%23", "#")
    view._text_only.value = True
    assert "loo-text-only" in view._dom_classes
    view._text_only.value = False
    assert "loo-text-only" not in view._dom_classes


def test_domino_tiles_are_drawn_and_named_and_leads_name_their_suit() -> None:
    view = table_for("domino-loo", "celko", 0)
    rng = random.Random(0)
    while not any(a.verb == "play" for a in view.model.legal()):
        click_through(view, rng)
    held = view.model.view().hand
    assert held
    for button in view._choices.children:
        if "loo-piece" in button._dom_classes:
            assert "loo-tile-button" in button._dom_classes and any(t.name == button.description for t in held)
        else:  # the tile's picture above its words: its face is the class of the tile the words name
            assert ", led as " in button.description and "loo-tile-lead" in button._dom_classes
            [face] = [c for c in button._dom_classes if c.startswith("loo-tile-") and c != "loo-tile-lead"]
            assert any(face == tile_class(t) and button.description.startswith(t.name) for t in held)
    assert 'class="loo-tiles"' in view._board.value and "a tile face down" in view._board.value


def test_the_board_marks_the_dealer_and_the_eldest_hand() -> None:
    view = table_for("three-card-loo", "britannica", 4)
    board = view._board.value
    dealer = view.model.hand.dealer
    names = view.model.names
    assert f"{names[dealer]} · dealer" in board
    assert f"{names[(dealer + 1) % len(names)]} (you) · eldest hand" in board  # the reader, on the dealer's left


def test_why_lists_every_choice_with_its_law_and_source() -> None:
    view = table_for("three-card-loo", "britannica", 1)
    view._why.click()
    text = view._explained.value
    for e in view.model.hand.explain():
        assert e.law in text
    # A Bold Stand (the pool holds only the dealer's stake): standing is allowed, throwing up is not.
    assert "Stand</b>: allowed" in text and "Throw up</b>: not allowed" in text
    # each law cited once, in one pair of brackets, as a reference that opens on a tap and names its
    # sources by their titles (widgets.draw.law_refs)
    assert '(<details class="loo-law"><summary aria-label="Law L3-BOLD-01' in text
    assert "Source: encyclopedia article on Loo" in text and "Source: Peel, Round Games with Cards" in text
    assert "((" not in text and "))" not in text and "[[" not in text
    next(b for b in live_buttons(view) if b.description == "Stand").click()
    assert view._explained.value == "" or view.model.hand.to_act != 0
