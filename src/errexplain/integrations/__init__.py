"""Where errors happen: a wrapped command (`run`), and hooks into other tools."""
