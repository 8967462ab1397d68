"""Trust Me: the table companion for a zombie-survival game (rule book 004)."""
