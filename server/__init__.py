"""Arbitre: the referee's assistant for live games."""
