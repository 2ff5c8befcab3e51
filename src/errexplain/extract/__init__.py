"""Extract raise/assert message templates from a project's source into catalog YAML.

>>> from errexplain.extract import extract, format_report
>>> report = extract("dist/pkg-1.0-py3-none-any.whl", "pkg", "1.0",
...                  out=Path("errors/pkg"), dry_run=True)  # doctest: +SKIP
"""

from __future__ import annotations

from errexplain.extract.run import ExtractReport, extract, format_report

__all__ = ["ExtractReport", "extract", "format_report"]
