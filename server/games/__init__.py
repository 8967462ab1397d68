"""The game kinds Arbitre referees; importing this package registers them."""
