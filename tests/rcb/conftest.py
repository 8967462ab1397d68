"""Roi / Chevalier / Bourreau: the words each character goes by, in both languages (the leak hunts
search every answer for them)."""

from __future__ import annotations

WORDS = {
    "king": ("king", "roi"),
    "knight": ("knight", "chevalier"),
    "executioner": ("executioner", "bourreau"),
    "witch": ("witch", "sorcière", "sorciere"),
    "dragon": ("dragon",),
}
