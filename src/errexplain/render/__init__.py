"""Drawing answers: `view` turns records into sections of typed parts (the one source of
wording), `plain` and `rich` draw them, `json` prints the records themselves."""
