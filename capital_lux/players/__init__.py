"""Players that decide from a view of the table, never from the state: bots and search."""
