"""The games the engine plays, one package each, built on :mod:`loo.core`."""
