"""The engine's tests: what every game shares here (cards, laws, records, check, options, the command line,
the pinned behaviour, the coverage account), and each game family's own in loo/, nap/ and dominoes/."""
