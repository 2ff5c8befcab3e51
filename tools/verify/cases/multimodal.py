"""Multimodal processor helpers that run on CPU without a model."""

from harness import case

# The processors' modules import model code, which imports sgl_kernel (a CUDA package that the
# CPU venv lacks) at module level; the functions checked here never call it.
STUB_SGL_KERNEL = """\
import sys, types
class _Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *args, **kwargs: None
sys.modules.setdefault("sgl_kernel", _Stub("sgl_kernel"))
"""

CASES = [
    case(
        "838721c155b9c736",
        setup=STUB_SGL_KERNEL
        + "from sglang.srt.multimodal.processors.qwen_vl import smart_nframes",
        before='smart_nframes({"nframes": 64}, total_frames=48, video_fps=24.0)\n',
        after=('smart_nframes({"fps": 2.0, "max_frames": 64}, total_frames=48, video_fps=24.0)\n'),
        note="the launch example only sets the video config; the check runs per video request, so"
        " the case calls the function the processor calls with that config and a 48-frame clip",
    ),
    case(
        "4139c86e75e2033d",
        setup=STUB_SGL_KERNEL
        + "from sglang.srt.multimodal.processors.whisper import"
        + " normalize_language_to_code",
        before='normalize_language_to_code("en-US")\n',
        after='normalize_language_to_code("en")\n',
        note="the curl example needs a server; the case calls the function the transcription"
        " request's language goes through",
    ),
]
