"""The ipywidgets of a live table: the table's view and its tabs, watching the play, the ledger, the
review, the rules picker, the step-through viewer.
"""
