"""Trust Me's tests read Arbitre's sentences in English (the message ids); the French ones are
held to their translations by `tests/test_contract.py`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.i18n import current_language


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    token = current_language.set("en")
    yield
    current_language.reset(token)
