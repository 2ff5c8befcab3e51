"""Run the test suite on every Python errexplain supports: `nox` (all), `nox -s tests-3.10`.

These machines carry the interpreters under pyenv's versions folder without activating them,
so their bin directories are put on PATH here; an interpreter a machine lacks is skipped with
nox's own message ("Python interpreter 3.x not found"), never silently passed.

The tests marked `heavy` (size and timing guards, whole-catalog equivalence checks: their outcome
does not depend on the interpreter) are left to .ci/run's main pass; `nox -s tests-3.12 -- -m ""`
runs them too.
"""

from __future__ import annotations

import glob
import os

import nox

PYTHONS = ["3.10", "3.11", "3.12", "3.13"]

_root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
_bins = sorted(glob.glob(os.path.join(_root, "versions", "3.1[0-9].*", "bin")), reverse=True)
os.environ["PATH"] = os.pathsep.join([*_bins, os.environ.get("PATH", "")])

nox.options.sessions = ["tests"]
nox.options.error_on_missing_interpreters = False  # skip, with a message, what is not here
nox.options.reuse_existing_virtualenvs = True


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The whole suite, installed as the README says (editable, with the test extra)."""
    session.install("-q", "-e", ".[test]")
    session.run(
        "python",
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "--no-cov",
        # size/timing guards and whole-catalog checks run once, in .ci/run's main pass
        *(session.posargs or ["-m", "not heavy"]),
        env={"HYPOTHESIS_PROFILE": os.environ.get("HYPOTHESIS_PROFILE", "dev")},
    )
