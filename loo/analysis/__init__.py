"""The book's statistics over many simulated hands (:mod:`loo.analysis.studies`): analysis built on the
rules package, not part of the rules."""
