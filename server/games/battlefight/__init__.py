"""BattleFight (rule book 001, official rules v0.2): the board and the techniques as data so far;
the step engine and the game kind build on them."""
