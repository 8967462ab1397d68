"""What every game shares: access, the event log, dice, clock and timers, live updates, i18n."""
