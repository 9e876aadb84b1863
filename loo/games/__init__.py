"""Engine modules of the games, each in its own package (issue 19)."""
