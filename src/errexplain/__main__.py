"""`python -m errexplain`: the same as the `errexplain` command."""

from errexplain._bundle import install

install()

from errexplain.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
