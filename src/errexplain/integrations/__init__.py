"""Where errors happen: an excepthook (:mod:`.excepthook`), an IPython extension
(:mod:`.ipython`) and a pytest plugin (:mod:`.pytest_plugin`). Each shows the original
traceback first, exactly as it would appear without errexplain, then the explanation
(:mod:`.report`); a failure of errexplain itself is one line, never a second traceback."""
