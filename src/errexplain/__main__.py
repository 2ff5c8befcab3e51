"""`python -m errexplain`: the same as the `errexplain` command."""

import gc

gc.disable()  # (as the command does: errexplain.cli turns it back on where a run may be long)

from errexplain._bundle import install  # noqa: E402

install()

from errexplain.cli import main  # noqa: E402

if __name__ == "__main__":
    main(quick_exit=True)
