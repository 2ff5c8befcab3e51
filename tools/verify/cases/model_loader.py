"""Cases for errors/sglang/srt/model_loader/ (loader, utils, weight_utils)."""

from harness import case

# A private copy of a fixture model directory (the fixture directories are shared and cached, so
# weight files are added only to the copy). DefaultModelLoader._prepare_weights reads the global
# server args only to decide on checksum verification; no server runs here, so it answers None.
PREPARE = """\
import os, shutil, tempfile, json
import verify_fixtures
import sglang.srt.model_loader.loader as loader
from sglang.srt.configs.load_config import LoadConfig
loader.get_server_args = lambda: None

def copy_model(*files):
    d = tempfile.mkdtemp()
    shutil.copytree(verify_fixtures.model_dir(), d, dirs_exist_ok=True)
    for name in files:
        open(os.path.join(d, name), "wb").close()
    return d

def prepare(path, load_format="auto"):
    return loader.DefaultModelLoader(LoadConfig(load_format=load_format))._prepare_weights(
        path, None, True
    )
"""

SHARDS = """\
d = copy_model("model-00001-of-00002.safetensors")
with open(os.path.join(d, "model.safetensors.index.json"), "w") as f:
    json.dump({"weight_map": {"a": "model-00001-of-00002.safetensors",
                              "b": "model-00002-of-00002.safetensors"}}, f)
"""

RESOLVE = """\
import os, shutil, tempfile
import verify_fixtures
from sglang.srt.configs.model_config import ModelConfig
from sglang.srt.model_loader.utils import resolve_transformers_arch

def resolve(arch):
    path = verify_fixtures.model_dir(arch, model_type="llama")
    mc = ModelConfig(path, trust_remote_code=True)
    return resolve_transformers_arch(mc, mc.hf_config.architectures)
"""

CASES = [
    case(
        "835ce3a9c09ce135",
        setup=PREPARE
        + 'd = copy_model("pytorch_model-00001-of-00002.bin",'
        + ' "pytorch_model-00002-of-00002.bin")\n',
        before='prepare(d, "safetensors")\n',
        after='prepare(d, "auto")\n',
        note="the loader's weight lookup for the example's directory (config, tokenizer and"
        " pytorch_model-*.bin shards, no safetensors) with each --load-format",
    ),
    case(
        "f098c920de1a4468",
        setup=PREPARE + SHARDS,
        before="prepare(d)\n",
        after=(
            'open(os.path.join(d, "model-00002-of-00002.safetensors"), "wb").close()\nprepare(d)\n'
        ),
        note="the loader's weight lookup for a directory whose index names two shards of which"
        " one was downloaded; the after half adds the missing shard, as the re-download does",
    ),
    case(
        "d5e5ea3d3d122627",
        setup=RESOLVE,
        before='resolve("MyLlamaForCausalLM")\n',
        after='resolve("LlamaForCausalLM")\n',
        note="the fallback check run with the example's config.json; sglang's loader reaches it"
        " only for an architecture it does not implement (MyLlamaForCausalLM), the after half"
        " shows the transformers class name passing the same check",
    ),
]

CASES += [
    case(
        "771cbf5362c4ae5a",
        setup=(
            "import verify_fixtures\n"
            "from sglang.srt.configs.load_config import LoadConfig\n"
            "from sglang.srt.configs.model_config import ModelConfig\n"
            "from sglang.srt.model_loader.weight_utils import get_quant_config\n"
            "path = verify_fixtures.hub_model('meta-llama/Llama-3.1-8B-Instruct')\n"
        ),
        before="get_quant_config(ModelConfig(path, quantization='awq'), LoadConfig(), {})\n",
        after="get_quant_config(ModelConfig(path, quantization='fp8'), LoadConfig(), {})\n",
        note="the loader's quantization-config lookup for the example's unquantized checkpoint"
        " (config.json without quantization_config, no quant config file) with each"
        " --quantization",
    ),
]
