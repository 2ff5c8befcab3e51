"""Every bound on what a user or a file can make errexplain hold, read or print, stated once
(issue 14). Each is enforced where input enters, and what it leaves out is counted and reported:

* :data:`LINE_BYTES`: a longer line is cut to this many bytes (input/read, input/window);
* :data:`READ_WHOLE_BYTES` / :data:`INPUT_BYTES`: a smaller input is read whole; a larger one is
  filtered down to at most INPUT_BYTES of traceback-like lines (input/window), of which
  :data:`TAIL_BYTES` are always the input's last lines, so the final traceback of any log is
  kept however dense the log is;
* :data:`MESSAGE_CHARS`: the part of one error message that is matched and shown (explainer);
* :data:`ERRORS`: distinct errors explained per input, the rest counted (explainer, app);
* :data:`OUTPUT_BYTES`: what one command prints to stdout, then a note (app.context).

Imports nothing: every layer may read it.
"""

from __future__ import annotations

LINE_BYTES = 64 * 1024
READ_WHOLE_BYTES = 8 * 1024 * 1024
INPUT_BYTES = 16 * 1024 * 1024
TAIL_BYTES = 4 * 1024 * 1024
MESSAGE_CHARS = 16 * 1024
ERRORS = 200
OUTPUT_BYTES = 8 * 1024 * 1024
