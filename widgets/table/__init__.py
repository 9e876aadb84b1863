"""A live table's game, with no widget: the model of a table, its saving and journal, deal codes,
hints, chips and words.
"""
