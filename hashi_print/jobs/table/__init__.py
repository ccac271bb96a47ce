"""Game night: a table of players sharing one deck, on paper or phones, refereed and scored together."""
