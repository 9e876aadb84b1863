"""Napoleon (Nap), catalogue group E, on the engine's core (:mod:`loo.core`).

* :mod:`~loo.games.nap.rules`: the options (:class:`NapRules`, its presets), the calls and the deal;
* :mod:`~loo.games.nap.tricks`: the trick laws, written once for the hand and the fast simulator;
* :mod:`~loo.games.nap.state`: the hand's phase, state and a seat's view;
* :mod:`~loo.games.nap.hand`: :class:`NapHand`, one deal from the calling to the settlement;
* :mod:`~loo.games.nap.explain`: why an action is refused or allowed, with its law;
* :mod:`~loo.games.nap.irregular`: a teaching table's irregularities and claims;
* :mod:`~loo.games.nap.settle`: :class:`NapSettlement` and the reckoning of stakes and pool;
* :mod:`~loo.games.nap.record`: :class:`NapRecord`;
* :mod:`~loo.games.nap.game`: :class:`NapGame`, hands in sequence with a ledger;
* :mod:`~loo.games.nap.bots`: computer players; :mod:`~loo.games.nap.fast`: random play on integers.
"""
