"""The reader's journeys (tests/journeys/journeys.py) in Firefox: one file per engine, so that each test
process runs one engine's browser and `--dist loadfile` spreads the engines over the processes."""

import pytest

from tests.journeys.class_journey import *  # noqa: F403  (a student at a class's table)
from tests.journeys.journeys import *  # noqa: F403  (the journeys and their fixtures, collected here)


@pytest.fixture(scope="module")
def engine() -> str:
    return "firefox"
