"""Cases for errors/sglang/srt/constrained/json_schema_validation.yaml: the schema checks the
xgrammar backend runs before compiling a json_schema constraint."""

from harness import case

CASES = [
    case("f228c71bd33ba841"),
]
