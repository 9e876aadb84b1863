"""The engine's shared core: what every trick-taking game here is made of.

* :mod:`loo.core.tricks`: the duties of a player in a trick (follow, head, trump, overtrump) and who
  wins it, parameterised by a game's own suit-of and power functions.
"""
