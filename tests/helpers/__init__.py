"""Helpers the tests share: hands from compact strings for Loo, Nap and the dominoes (no tests here)."""
