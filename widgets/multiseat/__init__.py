"""Shared tables: several readers at one game, each at a seat of their own. Server only."""
