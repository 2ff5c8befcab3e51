"""`python -m errexplain`: the same as the `errexplain` command."""

from errexplain.cli import main

if __name__ == "__main__":
    main()
