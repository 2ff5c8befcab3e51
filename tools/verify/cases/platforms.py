"""Cases for errors/sglang/srt/platforms/__init__.yaml."""

from harness import case

CASES = [
    case(
        "49883b523e8da47d",
        setup="from sglang.srt.platforms import _resolve_platform\n",
        before=('import os\nos.environ["SGLANG_PLATFORM"] = "myaccel"\n_resolve_platform()\n'),
        after=('import os\nos.environ.pop("SGLANG_PLATFORM", None)\n_resolve_platform()\n'),
        note="the platform discovery the launch runs, with the example's SGLANG_PLATFORM; no"
        " plugin named myaccel can be installed here, so the after half is the first solution"
        " (SGLANG_PLATFORM unset: built-in detection)",
    ),
]
