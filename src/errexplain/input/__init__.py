"""Reading what the user gave: a file, `-` or piped stdin (`read`), and the windowing of huge
logs down to the neighbourhood of traceback-like lines (`window`). Only this package reads
files or stdin for explaining."""
