"""Cases for errors/sglang/srt/lora/lora_registry.yaml: the tokenizer-side adapter registry."""

from harness import case

# CPU only: the server-argument resolution asks for the accelerator; answer "cpu".
MODEL = """\
import verify_fixtures
import sglang.srt.arg_groups.serving_hook as serving_hook
serving_hook.get_device = lambda device_id=None: "cpu"
model_path = verify_fixtures.model_dir()
"""

CASES = [
    case("30501290fdb984d4"),
    case("8a3747e20aaae0a7", setup=MODEL),
]
