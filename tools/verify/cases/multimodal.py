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

CASES += [
    case(
        "f031bdfe2507ea5d",
        setup=(
            "import torch\n"
            "import verify_fixtures\n"
            "verify_fixtures.stub_sgl_kernel()\n"
            "from sglang.srt.multimodal.processors.base_processor import BaseMultimodalProcessor\n"
            "e1, e2 = torch.zeros(4, 8), torch.zeros(6, 8)\n"
            "g1, g2 = torch.tensor([[1, 4, 4]]), torch.tensor([[1, 4, 6]])\n"
        ),
        before=(
            'image_data = [{"format": "precomputed_embedding", "feature": e1},'
            ' {"format": "precomputed_embedding", "feature": e2}]\n'
            "BaseMultimodalProcessor.validate_mm_data(image_data=image_data)\n"
        ),
        after=(
            'image_data = [{"format": "precomputed_embedding", "feature": torch.cat([e1, e2]),'
            ' "image_grid_thw": torch.cat([g1, g2])}]\n'
            "BaseMultimodalProcessor.validate_mm_data(image_data=image_data)\n"
        ),
        note="the example's image_data lists passed to the validation the processor runs on a"
        " request's multimodal data",
    ),
]
