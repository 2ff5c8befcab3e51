"""Cases for the curated transformers catalog (errors/transformers/) whose path runs locally:
config, tokenizer and processor loading from model directories, and offline resolution.

Messages that need a Hub answer (repository not found, gated, unknown revision) are
read-checked instead.
"""

from functools import partial

from harness import case as _case

# Upstream CPU paths: the worker reports no GPU (no fake CUDA device).
case = partial(_case, gpu="cpu")

_DIRS = """\
import json, os, shutil, tempfile
import verify_fixtures
from transformers import AutoConfig, AutoProcessor, AutoTokenizer
root = tempfile.mkdtemp(prefix="verify-tf-")
def folder(name, files):
    path = os.path.join(root, name)
    os.makedirs(path)
    for fname, content in files.items():
        with open(os.path.join(path, fname), "w") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
    return path
base = verify_fixtures.model_dir()
"""

_OFFLINE = """\
import json, os, tempfile
import huggingface_hub.constants as hub_constants
from transformers import AutoConfig
hub_constants.HF_HUB_CACHE = tempfile.mkdtemp(prefix="verify-hf-cache-")
hub_constants.HF_HUB_OFFLINE = True            # as HF_HUB_OFFLINE=1 on an air-gapped node
def predownload(repo, files):
    # The cache layout `hf download <repo>` leaves behind.
    repo_dir = os.path.join(hub_constants.HF_HUB_CACHE, "models--" + repo.replace("/", "--"))
    commit = "0123456789abcdef0123456789abcdef01234567"
    os.makedirs(os.path.join(repo_dir, "refs"))
    with open(os.path.join(repo_dir, "refs", "main"), "w") as f:
        f.write(commit)
    snap = os.path.join(repo_dir, "snapshots", commit)
    os.makedirs(snap)
    for fname, content in files.items():
        with open(os.path.join(snap, fname), "w") as f:
            json.dump(content, f)
    return snap
"""

_NO_TEMPLATE = """\
import json, os, shutil, tempfile
import verify_fixtures
from transformers import AutoTokenizer
model = os.path.join(tempfile.mkdtemp(prefix="verify-ft-"), "my-finetune")
shutil.copytree(verify_fixtures.model_dir(), model)
cfg_path = os.path.join(model, "tokenizer_config.json")
cfg = json.load(open(cfg_path))
cfg.pop("chat_template", None)                  # saved without its template
json.dump(cfg, open(cfg_path, "w"))
template = os.path.join(os.path.dirname(model), "llama3.jinja")
open(template, "w").write(
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}")
tokenizer = AutoTokenizer.from_pretrained(model)
messages = [{"role": "user", "content": "hello"}]
"""

CASES = [
    case(
        "dde8f77d8c566564",
        setup=_DIRS + "from sglang.srt.utils.hf_transformers_utils import get_config",
        before=(
            "model = folder('converted', {'config.json': {'model_type': 'my_moe_v9', "
            "'architectures': ['Qwen3MoeForCausalLM']}})\n"
            "get_config(model, trust_remote_code=False)"
        ),
        after=(
            "model = folder('converted', {'config.json': {'model_type': 'qwen3_moe', "
            "'architectures': ['Qwen3MoeForCausalLM']}})\n"
            "get_config(model, trust_remote_code=False)"
        ),
        note="sglang's get_config on a converted checkpoint; the after sets a supported "
        "model_type (solution 3)",
    ),
    case(
        "5fb99e1727819ca8",
        setup=_DIRS + "adapter = folder('llama3-lora', {'adapter_config.json': "
        "{'peft_type': 'LORA', 'r': 8, 'base_model_name_or_path': base}})",
        before="AutoConfig.from_pretrained(adapter)",
        after="AutoConfig.from_pretrained(base)",
        note="a LoRA adapter folder given as the model; the after loads the base model "
        "(the adapter goes to --lora-paths)",
    ),
    case(
        "a97e62b778d1793f",
        setup=_DIRS,
        before=(
            "weights_only = folder('weights-only', {'config.json': "
            "json.load(open(os.path.join(base, 'config.json')))})\n"
            "AutoProcessor.from_pretrained(weights_only)"
        ),
        after="AutoProcessor.from_pretrained(base)",
        note="the after points at the complete checkpoint (with its tokenizer files)",
    ),
    case(
        "2d977ca8c0f9f630",
        setup=_DIRS + "from sglang.srt.utils.hf_transformers_utils import get_config\n"
        "model = folder('custom-arch-7b', {\n"
        "    'config.json': {'model_type': 'custom_arch', 'architectures': "
        "['CustomArchForCausalLM'], 'auto_map': {'AutoConfig': "
        "'configuration_custom.CustomArchConfig'}},\n"
        "    'configuration_custom.py': 'from transformers import PretrainedConfig\\n"
        'class CustomArchConfig(PretrainedConfig):\\n    model_type = "custom_arch"\\n\',\n'
        "})",
        before="get_config(model, trust_remote_code=False)",
        after="get_config(model, trust_remote_code=True)",
        note="the launch example's --trust-remote-code reaches get_config as "
        "trust_remote_code=True; the case calls get_config directly because the harness's "
        "stand-in for a hub model has no repository code",
    ),
    case(
        "046809210b3a2042",
        setup=_DIRS + "from transformers import GenerationConfig\n"
        "copy = folder('Qwen3-8B-copy', {'config.json': {'model_type': 'qwen3'}})",
        before="GenerationConfig.from_pretrained(copy)",
        after=(
            "shutil.copy(os.path.join(base, 'generation_config.json'), copy)\n"
            "GenerationConfig.from_pretrained(copy)"
        ),
        note="a folder copied without generation_config.json; the after copies the file in",
    ),
    case(
        "ffd110780834eb6c",
        setup=_OFFLINE,
        before="AutoConfig.from_pretrained('Qwen/Qwen3-8B')",
        after=(
            "predownload('Qwen/Qwen3-8B', {'config.json': {'model_type': 'qwen3'}})\n"
            "AutoConfig.from_pretrained('Qwen/Qwen3-8B')"
        ),
        note="the after writes the cache layout that `hf download` leaves (no network here)",
    ),
    case(
        "028ba11e1b9a172c",
        setup=_NO_TEMPLATE,
        before="tokenizer.apply_chat_template(messages, tokenize=False)",
        after=(
            "tokenizer.chat_template = open(template).read().strip('\\n')  "
            "# what --chat-template does with a .jinja file\n"
            "tokenizer.apply_chat_template(messages, tokenize=False)"
        ),
        note="sglang's --chat-template <file>.jinja sets tokenizer.chat_template to the file's "
        "text (TemplateManager._load_jinja_template); the case does the same",
    ),
    case(
        "65be3e2e74cbbc3b",
        setup=_DIRS,
        before=(
            "bare = folder('no-tokenizer', {'config.json': "
            "json.load(open(os.path.join(base, 'config.json')))})\n"
            "AutoTokenizer.from_pretrained(bare)"
        ),
        after="AutoTokenizer.from_pretrained(base)",
        note="a directory without tokenizer files; the after points at one that has them",
    ),
]
