"""What the reader's seat may see at a table now: the one rule the hidden-card checks of the widget
and browser tests share."""

from __future__ import annotations

from widgets.table.model import TableModel
from widgets.views.opening import settled_at_deal


def visible_to_reader(model: TableModel) -> set[object]:
    """The reader's own pieces, those played, the turn-up and a peeped card, and the cards of a Peel's
    single shown above the hand (every one of them was dealt face up, L3-SGL-02)."""
    view = model.view()
    seen: set[object] = set(view.hand or ())
    seen |= {c for t in view.tricks for _, c in t.plays} | {c for _, c in view.current}
    for public in (getattr(view, "turnup", None), getattr(view, "peep_card", None)):
        if public is not None:
            seen.add(public)
    single = settled_at_deal(model)
    if single is not None:
        record = single[0]
        seen |= {hand[0] for hand in record.hands if hand} | {record.turnup}
    return seen
