"""The serving process counts its full garbage collections (issue 38): each one stops the whole
process (1.3 s at 6,400 phones), and `/healthz` says how many came and the longest."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from server.collector import FullCollections


def test_only_full_collections_are_counted_with_the_longest() -> None:
    counted = FullCollections()
    counted.seen("start", {"generation": 0})
    counted.seen("stop", {"generation": 0, "collected": 0, "uncollectable": 0})
    assert counted.figures() == {"full": 0, "longest_ms": 0.0}
    for _ in range(2):
        counted.seen("start", {"generation": 2})
        counted.seen("stop", {"generation": 2, "collected": 0, "uncollectable": 0})
    assert counted.count == 2
    # A collection already running when counting began (its start unseen) is not counted.
    counted.seen("stop", {"generation": 2, "collected": 0, "uncollectable": 0})
    assert counted.count == 2


def test_an_installed_counter_sees_a_real_full_collection() -> None:
    counted = FullCollections().install()
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(counted.seen)
    assert counted.count == 1
    assert counted.longest_ms > 0.0


def test_healthz_says_the_full_collections(client: TestClient) -> None:
    answer = client.get("/healthz").json()
    # The test app does not serve (`for_serving` is not called): none counted.
    assert answer["collector"] == {"full": 0, "longest_ms": 0.0}
    assert answer["status"] == "ok"
