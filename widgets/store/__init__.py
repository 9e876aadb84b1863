"""Where the server keeps its tables' games (SQLite or PostgreSQL), the seats of shared tables, and the
lifeboat for moves a kernel could not save. Never shipped to the reader's browser.
"""
