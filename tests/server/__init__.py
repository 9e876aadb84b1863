"""The server's tests: the Lanterloo server, its requests and its store of games (no browser)."""
