"""Cases for errors/sglang/srt/parser/template_manager.yaml: the startup template loading
(TemplateManager), with a tokenizer manager that has no tokenizer."""

from harness import case

# tokenizer_manager imports layers/activation.py, which imports sgl_kernel on a CUDA host (the
# harness reports a fake CUDA device): stand-ins, no kernel is called by these checks.
KERNEL = """\
import verify_fixtures
verify_fixtures.stub_sgl_kernel()
"""

STUB = (
    KERNEL
    + """\
import types, verify_fixtures
tokenizer_manager = types.SimpleNamespace(tokenizer=None, processor=None)
model_path = verify_fixtures.model_dir()
"""
)

# A tokenizer manager with a real tokenizer, run in a fresh directory holding ./template.j2.
J2 = (
    KERNEL
    + """\
import os, tempfile, types, verify_fixtures
from transformers import AutoTokenizer
model_path = verify_fixtures.model_dir()
tokenizer = AutoTokenizer.from_pretrained(model_path)
tokenizer_manager = types.SimpleNamespace(tokenizer=tokenizer, processor=None)
os.chdir(tempfile.mkdtemp())
with open("template.j2", "w") as f:
    f.write(verify_fixtures.CHAT_TEMPLATE)
"""
)

# The example is the JSON template file; the case writes it and loads it as --chat-template does.
JSON_LOAD = """\
import os, tempfile
from sglang.srt.parser.template_manager import TemplateManager
path = os.path.join(tempfile.mkdtemp(), "my.json")
with open(path, "w") as f:
    f.write({text!r})
TemplateManager().load_chat_template(tokenizer_manager, path, model_path)
"""
SEP_BEFORE = (
    '{"name": "my", "system": "", "user": "USER", "assistant": "ASSISTANT", '
    '"sep_style": "add_colon_two", "stop_str": "</s>"}'
)
SEP_AFTER = SEP_BEFORE.replace("add_colon_two", "ADD_COLON_TWO")

CASES = [
    case("e79c973b39ab6212", setup=STUB),
    case("9f9c6559f335252b", setup=KERNEL),
    case("f2bfe4a4ac599f21", setup=J2),
    case(
        "e223e8e4f2b5b9f6",
        setup=STUB,
        before=JSON_LOAD.format(text=SEP_BEFORE),
        after=JSON_LOAD.format(text=SEP_AFTER),
        note="the example is a JSON template file: the case writes it and passes its path as "
        "--chat-template",
    ),
]
