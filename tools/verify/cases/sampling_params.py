"""Cases for errors/sglang/srt/sampling/sampling_params.yaml: the request-side sampling checks
(SamplingParams.normalize / verify), run on the objects the tokenizer manager builds."""

from harness import case

# The server's tokenizer (a small local one) for the normalize() calls of the examples.
TOKENIZER = """\
import verify_fixtures
from transformers import AutoTokenizer
tokenizer = tok = AutoTokenizer.from_pretrained(verify_fixtures.model_dir())
"""

# A checkpoint whose generation_config.json sets "top_k": 0.
TOP_K_ZERO = """\
import json, os, shutil, tempfile, verify_fixtures
model_path = tempfile.mkdtemp(prefix="topk0-")
shutil.copytree(verify_fixtures.model_dir(), model_path, dirs_exist_ok=True)
with open(os.path.join(model_path, "generation_config.json"), "w") as f:
    config = {"bos_token_id": 1, "eos_token_id": 2, "do_sample": True, "top_k": 0, "top_p": 0.8}
    json.dump(config, f)
"""

CASES = [
    case("ba966ae6d762f183"),
    case("73c775577546f273"),
    case("6a4320de7bb12982"),
    case("54ff879e545cde9d", setup=TOP_K_ZERO),
    case("1e6ce6d2f4229efb"),
    case("849b8a862f14bc56"),
    case("ecd70e8fcd73099f"),
    case("2e807665ee383209"),
    case("0160c277e77a39d8"),
    case("10bbf792f9bc57ad"),
    case("49a07cdaa93f5b2f", setup=TOKENIZER),
    case("74abc9620f95a198"),
    case("4eb71bdf08a7ae5b", setup=TOKENIZER),
    case("b4d400148747614c", setup=TOKENIZER),
    case("2b805fd88827f608", setup=TOKENIZER),
    case("9b84969b4fe085c4"),
    case("60103ee0f62cfce6"),
    case("15996073494a67e8", setup=TOKENIZER),
]
