"""Matching a message against catalog templates: the template grammar and value binding
(`template`), tokens and masking (`normalize`), ranking exact and fuzzy candidates over typed
rows (`rank`), and keyword search (`search`). Pure: the catalog view is passed in."""
