"""Browser helpers: accessibility checks with axe-core (vendored in tests/assets) and screenshots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AXE = (Path(__file__).parent.parent / "assets" / "axe.min.js").read_text()
SHOTS = Path(__file__).parent.parent.parent / "test-results" / "screens"


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core with the WCAG 2.1 A and AA rules; injected through the DevTools protocol, which
    the page's strict CSP (no inline script) does not block."""
    page.evaluate(AXE + ";0")
    result = page.evaluate(
        """async () => {
            const r = await axe.run(document, {runOnly: {type: 'tag',
                values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
            return r.violations.map(v => ({id: v.id, help: v.help,
                nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}));
        }"""
    )
    return list(result)


def assert_accessible(page: Any) -> None:
    violations = axe_violations(page)
    assert violations == [], f"{page.url}: {violations}"


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture(autouse=True)
def _browser_marker(request: pytest.FixtureRequest) -> None:
    request.node.add_marker(pytest.mark.browser)
