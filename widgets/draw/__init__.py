"""HTML drawn for the tables and the book: the board, the round table, card faces, the hand stepped
through, laws cited, the minute, the tables' pages.
"""
