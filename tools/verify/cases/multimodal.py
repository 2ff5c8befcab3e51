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

# Processors built without __init__ (which loads the HF processor and the model's tokenizer);
# the checks below read only the request's inputs and the attributes given here. The after
# halves run past the check and stop where the stand-in lacks the loader's state.
PROCESSOR = """\
import asyncio
from types import SimpleNamespace
import verify_fixtures
verify_fixtures.stub_sgl_kernel()

def bare(cls, **attrs):
    p = object.__new__(cls)
    for name, value in attrs.items():
        setattr(p, name, value)
    return p

def past_check(coro):
    try:
        asyncio.run(coro)
    except AttributeError:
        pass  # past the check: the stand-in processor has no loader state
"""

KIMI_IMAGE_TOKEN = 163605
KIMI_TOKENS = f"mm_tokens=SimpleNamespace(image_token_id={KIMI_IMAGE_TOKEN})"

CASES += [
    case(
        "f503e850acc76a24",
        setup=PROCESSOR
        + "from sglang.srt.multimodal.processors.minicpm import MiniCPMMultimodalProcessor\n"
        + "p = bare(MiniCPMMultimodalProcessor)\n",
        before=(
            "asyncio.run(p.process_mm_data_async(image_data=['cat.jpg'], audio_data=None,"
            " input_text=[101, 102, 103], request_obj=SimpleNamespace()))\n"
        ),
        after=(
            "past_check(p.process_mm_data_async(image_data=['cat.jpg'], audio_data=None,"
            " input_text='(<image>./</image>)\\nDescribe.', request_obj=SimpleNamespace()))\n"
        ),
        note="the processor call the tokenizer manager makes for the example's request: input_ids"
        " (a list) with one raw image, then a text prompt with the same image",
    ),
    case(
        "8021f516a2d32d70",
        setup=PROCESSOR
        + "from sglang.srt.multimodal.processors.internvl import InternVLProcessor\n"
        + "p = bare(InternVLProcessor)\n",
        before=(
            "asyncio.run(p.process_mm_data_async(['cat.jpg'], [101, 102, 103],"
            " SimpleNamespace(video_data=None)))\n"
        ),
        after=(
            "past_check(p.process_mm_data_async(['cat.jpg'], '<image>\\nDescribe.',"
            " SimpleNamespace(video_data=None)))\n"
        ),
        note="the processor call for the example's request: input_ids with one raw image, then"
        " the decoded text prompt with the same image",
    ),
    case(
        "4959b939aef108eb",
        setup=PROCESSOR
        + "from sglang.srt.multimodal.processors.kimi_k3 import KimiK3ImageProcessor\n"
        + f"p = bare(KimiK3ImageProcessor, {KIMI_TOKENS})\n",
        before=(
            "asyncio.run(p.process_mm_data_async([], 'Summarize',"
            " SimpleNamespace(video_data=['clip.mp4'])))\n"
        ),
        after=(
            "past_check(p.process_mm_data_async(['f1.jpg', 'f2.jpg'], 'Summarize',"
            " SimpleNamespace(video_data=None)))\n"
        ),
        note="the processor call for a request with a video part, then with two key frames sent"
        " as images",
    ),
    case(
        "e4d09cc23b5ff063",
        setup=PROCESSOR
        + "from sglang.srt.multimodal.processors.kimi_k3 import KimiK3ImageProcessor\n"
        + f"p = bare(KimiK3ImageProcessor, {KIMI_TOKENS})\n",
        before=(
            "asyncio.run(p.process_mm_data_async(['cat.jpg'], [1, 2, 3],"
            " SimpleNamespace(video_data=None)))\n"
        ),
        after=(
            f"past_check(p.process_mm_data_async(['cat.jpg'], [1, {KIMI_IMAGE_TOKEN}, 2, 3],"
            " SimpleNamespace(video_data=None)))\n"
        ),
        note="pre-tokenized input_ids without the image placeholder id, then with one; the id is"
        " the stand-in processor's mm_tokens.image_token_id",
    ),
    case(
        "d7619e6da0b26142",
        setup=PROCESSOR
        + "from sglang.srt.multimodal.processors.kimi_k25 import KimiK2_5VLImageProcessor\n"
        + f"p = bare(KimiK2_5VLImageProcessor, {KIMI_TOKENS})\n",
        before=(
            "asyncio.run(p.process_mm_data_async(['cat.jpg'], [1, 2, 3],"
            " SimpleNamespace(video_data=None)))\n"
        ),
        after=(
            f"past_check(p.process_mm_data_async(['cat.jpg'], [1, {KIMI_IMAGE_TOKEN}, 2, 3],"
            " SimpleNamespace(video_data=None)))\n"
        ),
        note="pre-tokenized input_ids without the image placeholder id, then with one; the id is"
        " the stand-in processor's mm_tokens.image_token_id",
    ),
    case(
        "f4f79e71dd04dad2",
        setup=PROCESSOR
        + "from sglang.srt.multimodal.processors.whisper import WhisperProcessor\n"
        + "def tokenizer(*languages):\n"
        + "    vocab = {'<|endoftext|>': 50256}\n"
        + "    vocab.update({f'<|{c}|>': 50259 + i for i, c in enumerate(languages)})\n"
        + "    return SimpleNamespace(unk_token_id=50256,\n"
        + "        convert_tokens_to_ids=lambda t: vocab.get(t, 50256))\n"
        + "v2 = tokenizer('en', 'zh', 'de')\n"
        + "v3 = tokenizer('en', 'zh', 'de', 'yue')\n",
        before="bare(WhisperProcessor, _tokenizer=v2)._get_language_token_id('yue')\n",
        after="bare(WhisperProcessor, _tokenizer=v3)._get_language_token_id('yue')\n",
        note="stand-in tokenizers that, like Whisper's, map an unknown token to the unk id"
        " (<|endoftext|>); large-v2's vocabulary has no <|yue|>, large-v3's has",
    ),
]

CASES += [
    case(
        "51152890d9dd5683",
        setup=PROCESSOR
        + "from sglang.srt.multimodal.processors.llava import LlavaMultimodalProcessor\n"
        + "p = bare(LlavaMultimodalProcessor)\n",
        before="p._get_sgl_processor_cls('siglip_vision_model')\n",
        after="p._get_sgl_processor_cls('clip_vision_model')\n",
        note="the lookup LlavaMultimodalProcessor.__init__ makes with vision_config.model_type;"
        " 0.5.23 maps clip_vision_model (llava-1.5-hf) itself, a SigLIP tower has no SGLang"
        " processor",
    ),
]
