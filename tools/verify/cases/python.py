"""Cases for the curated python catalog (errors/python/): builtin messages raised by plain code.

Entries without an example_fix give their before/after here: the before raises the message the
entry explains, the after applies one of the entry's solutions to the same code.
"""

from functools import partial

from harness import case as _case

# Upstream CPU paths: the worker reports no GPU (no fake CUDA device).
case = partial(_case, gpu="cpu")

_SHADOW = """\
import os, sys, tempfile
work = tempfile.mkdtemp(prefix="verify-shadow-")
with open(os.path.join(work, "colorsys.py"), "w") as f:
    f.write("# a local helper that happens to be named like the stdlib module\\n")
sys.modules.pop("colorsys", None)
sys.path.insert(0, work)
"""

_NAMESPACE = """\
import os, sys, tempfile
work = tempfile.mkdtemp(prefix="verify-namespace-")
# A leftover folder without __init__.py named like a package that is not installed here.
os.makedirs(os.path.join(work, "cwd", "infer_tools", "__pycache__"))
sys.path.insert(0, os.path.join(work, "cwd"))
def install():
    site = os.path.join(work, "site-packages", "infer_tools")
    os.makedirs(site)
    with open(os.path.join(site, "__init__.py"), "w") as f:
        f.write("def load_engine():\\n    return 'engine'\\n")
    sys.path.append(os.path.dirname(site))
    sys.modules.pop("infer_tools", None)
"""

_CIRCULAR = """\
import os, sys, tempfile
work = tempfile.mkdtemp(prefix="verify-circular-")
pkg = os.path.join(work, "my_models")
os.makedirs(pkg)
open(os.path.join(pkg, "__init__.py"), "w").close()
with open(os.path.join(pkg, "modeling.py"), "w") as f:
    f.write("from my_models.config import ModelConfig\\n\\n"
            "def build_layers(cfg):\\n    return [ModelConfig()]\\n")
sys.path.insert(0, work)

def write_config(head):
    with open(os.path.join(pkg, "config.py"), "w") as f:
        f.write(head + "\\n\\nclass ModelConfig:\\n    pass\\n")
"""

_CONFIG_BEFORE = "from my_models.modeling import build_layers   # modeling.py imports config.py too"
_CONFIG_AFTER = """\
def make_layers(cfg):
    from my_models.modeling import build_layers  # imported when needed: no cycle at load time
    return build_layers(cfg)"""

_PORT = """\
import socket
def listener():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen()
    return s
"""

_NOFILE = """\
import resource, socket, tempfile
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (64, hard))   # like a low `ulimit -n`
work = tempfile.mkdtemp(prefix="verify-fds-")
held = []
"""

_ARGP = "Launch command on the default fake H100s: the device does not decide the argparse error."

CASES = [
    # argparse. The launch commands run as sglang 0.5.23's argument parsing and resolution on
    # a fake GPU, so that the after goes through resolution; the before stops in argparse.
    _case("0f7a40743f0f158b", expect=r"unrecognized arguments: --enable-ep-moe$", note=_ARGP),
    _case(
        "d60079cfae036c1f",
        expect=r"argument --attention-backend: invalid choice: 'cutlass_mla' \(choose from ",
        gpu="B200:8",
        note=_ARGP + " trtllm_mla (the after) is a Blackwell backend: B200.",
    ),
    _case(
        "1c41c4bb255c889a",
        expect=r"argument --mem-fraction-static: invalid float value: '85%'",
        note=_ARGP,
    ),
    case("b4de43ec7be97ff7", expect=r"argument --api-key: expected one argument"),
    _case(
        "1fe3f9f4e364456e",
        expect=r"the following arguments are required: --model-path/--model",
        note=_ARGP,
    ),
    _case(
        "e0728326673eb5a3",
        expect=r"ambiguous option: --cuda-graph-max-bs could match --cuda-graph-max-bs-decode, "
        r"--cuda-graph-max-bs-prefill",
        note=_ARGP,
    ),
    case(
        "534c5a71ef0efc65",
        expect=r"argument --profile-decode-url: not allowed with argument --profile-prefill-url",
    ),
    # attributes
    case(
        "25ba265c77023ea1",
        setup="import types\nconfig = types.SimpleNamespace(rope_scaling=None)",
    ),
    case(
        "2b7c783adba2c1e6",
        setup=_SHADOW,
        before="import colorsys\ncolorsys.rgb_to_hsv(0.2, 0.4, 0.4)",
        after=(
            "os.rename(os.path.join(work, 'colorsys.py'), os.path.join(work, 'color_helpers.py'))\n"
            "sys.modules.pop('colorsys', None)\n"
            "import colorsys\ncolorsys.rgb_to_hsv(0.2, 0.4, 0.4)"
        ),
        note="situation 3: a local file shadows a module; the after renames it",
    ),
    case(
        "21bf45a108e83728",
        setup='cfg = {"hidden_size": 64, "num_attention_heads": 4}',
        before="cfg.to_dict()",
        after="from transformers import LlamaConfig\nLlamaConfig(**cfg).to_dict()",
        note="situation 3: a dict where a config object is expected",
    ),
    # calls
    case("6b4dd35bfe4adf1c", setup="import json"),
    case(
        "1ba9cdfbeac763f2",
        setup=(
            "class MyDecoderLayer:\n"
            "    def forward(self, positions, hidden_states, forward_batch):\n"
            "        return hidden_states\n"
            "layer = MyDecoderLayer()"
        ),
        before="layer.forward([0, 1], [0.5, 0.5])",
        after="layer.forward([0, 1], [0.5, 0.5], forward_batch=None)",
    ),
    case(
        "4464d171470c9c51",
        setup='config = {"rope_scaling": None}',
        before='kind = config["rope_scaling"]["type"]',
        after='kind = (config["rope_scaling"] or {}).get("type", "default")',
    ),
    case(
        "e875a99a7f035919",
        setup='request = {"prompt": "Hi", "stop": None}',
        before='stops = [s.strip() for s in request["stop"]]',
        after='stops = [s.strip() for s in (request["stop"] or [])]',
    ),
    case(
        "168dad5daa56cb2d",
        setup=(
            "def layer_forward(x, with_aux):\n"
            "    if with_aux:\n"
            "        return x, None\n"
            "def fixed_forward(x, with_aux):\n"
            "    return x, None\n"
        ),
        before="out, aux = layer_forward(1.0, with_aux=False)",
        after="out, aux = fixed_forward(1.0, with_aux=False)",
    ),
    case(
        "323d67d1169bcdb7",
        setup="import os\nos.environ['MAX_LEN'] = '4096'",
        before="half = os.environ['MAX_LEN'] // 2",
        after="half = int(os.environ['MAX_LEN']) // 2",
    ),
    case(
        "060a97af787ab5b5",
        setup="import types\ntokenizer = types.SimpleNamespace(vocab_size=32000)",
        before="n = tokenizer.vocab_size()",
        after="n = tokenizer.vocab_size",
    ),
    case(
        "3fe57b3b1ba3f2e6",
        setup='request = {"stop": None}',
        before='n = len(request["stop"])',
        after='n = len(request["stop"] or [])',
    ),
    # imports
    case(
        "b1f65280bd82e3a1",
        before="from json import load_file",
        after="from json import load",
        note="a name that the installed module does not define; the after imports the one it has",
    ),
    case(
        "e5e2fbf312eee253",
        setup=_NAMESPACE,
        before="from infer_tools import load_engine",
        after="install()\nfrom infer_tools import load_engine",
        note="the package is not installed, so a folder of its name is imported as a namespace "
        "package; the after installs the real package (a regular package wins over the folder)",
    ),
    case(
        "6e8b96db49db6e4d",
        setup=_CIRCULAR,
        before=f"write_config({_CONFIG_BEFORE!r})\nimport my_models.config",
        after=f"write_config({_CONFIG_AFTER!r})\nimport my_models.config",
        note="the example is the text of my_models/config.py: the case writes it into a package "
        "whose modeling.py imports config.py, then imports it",
    ),
    # indexing
    case(
        "ce0f3398e4394e3c",
        setup="prompts = []",
        before="first = prompts[0]",
        after="first = prompts[0] if prompts else None",
    ),
    case(
        "de0d52f634aff413",
        setup="import torch\nx = torch.zeros(4, 8)",
        before="hidden = x.shape[2]",
        after="hidden = x.size(-1)",
    ),
    # multiprocessing
    case(
        "0bec79675708fb6e",
        setup=(
            "import functools, operator, pickle, sys, types\n"
            "sys.modules.setdefault(__name__, types.ModuleType(__name__))  # like __main__"
        ),
        before="pickle.dumps(lambda x: x + 1)",
        after="pickle.dumps(functools.partial(operator.add, 1))",
    ),
    case(
        "e1e4ad0fae2ead21",
        setup="import functools, operator, pickle",
        before=(
            "def build_engine():\n"
            "    def custom_stop(text):\n"
            "        return text.endswith('###')\n"
            "    return pickle.dumps(custom_stop)\n"
            "build_engine()"
        ),
        after="pickle.dumps(functools.partial(str.endswith, suffix='###'))",
    ),
    # network
    case(
        "704ac0fd24be12e8",
        setup="import socket\ns = socket.socket()",
        before="s.bind(('10.255.255.1', 0))",
        after="s.bind(('0.0.0.0', 0))",
    ),
    # os
    case(
        "1d93ef641a07cdba",
        setup=(
            "import os, tempfile\nroot = tempfile.mkdtemp(prefix='verify-models-')\n"
            "os.makedirs(os.path.join(root, 'Qwen3-8B'))\n"
            "open(os.path.join(root, 'Qwen3-8B', 'config.json'), 'w').write('{}')"
        ),
        before="open(os.path.join(root, 'qwen3-8b', 'config.json')).read()",
        after="open(os.path.join(root, 'Qwen3-8B', 'config.json')).read()",
    ),
    case(
        "6ddeeeda6f6c2620",
        setup=_PORT + "first = listener()\nport = first.getsockname()[1]",
        before="s = socket.socket()\ns.bind(('127.0.0.1', port))",
        after="s = socket.socket()\ns.bind(('127.0.0.1', 0))",
    ),
    case(
        "b6ffd47785f94a1e",
        setup=(
            _PORT + "import asyncio\nfirst = listener()\nport = first.getsockname()[1]\n"
            "async def serve(p):\n"
            "    server = await asyncio.get_running_loop().create_server(asyncio.Protocol, "
            "'127.0.0.1', p)\n"
            "    server.close()\n"
        ),
        before="asyncio.run(serve(port))",
        after="asyncio.run(serve(0))",
    ),
    case(
        "a56fbd39bc5956bb",
        setup=_NOFILE,
        before="for _ in range(100):\n    held.append(socket.socket())",
        after=(
            "resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))\n"
            "for _ in range(100):\n    held.append(socket.socket())"
        ),
    ),
    case(
        "7e39b8a5da257cd8",
        setup=_NOFILE,
        before=(
            "for i in range(100):\n"
            "    held.append(open(f'{work}/model-{i:05d}-of-00100.safetensors', 'wb'))"
        ),
        after=(
            "resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))\n"
            "for i in range(100):\n"
            "    held.append(open(f'{work}/model-{i:05d}-of-00100.safetensors', 'wb'))"
        ),
    ),
    case(
        "ac9e33223811a663",
        setup=_PORT + "probe = listener()\nport = probe.getsockname()[1]\nprobe.close()",
        before="socket.create_connection(('127.0.0.1', port), timeout=5)",
        after=(
            "server = socket.socket()\nserver.bind(('127.0.0.1', port))\nserver.listen()\n"
            "socket.create_connection(('127.0.0.1', port), timeout=5)"
        ),
        note="the after starts the listener before connecting (the client waits for the server)",
    ),
    case(
        "9a12710d14bc1c93",
        setup="import subprocess, sys",
        before="subprocess.run([sys.executable, '-c', 'import no_such_module_xyz'], check=True)",
        after="subprocess.run([sys.executable, '-c', 'import json'], check=True)",
        note="the after is the same command once its own error (shown above the traceback) "
        "is fixed",
    ),
    case(
        "344ed82ce64868c7",
        setup=(
            "import os, tempfile\nroot = tempfile.mkdtemp(prefix='verify-tmpl-')\n"
            "open(os.path.join(root, 'chatml.jinja'), 'w').write('{{ messages }}')"
        ),
        before="template = open(root).read()",
        after="template = open(os.path.join(root, 'chatml.jinja')).read()",
    ),
    # runtime
    case(
        "ae1009ad10d426ad",
        setup=(
            "class Wrapper:\n"
            "    def __init__(self, inner):\n"
            "        self.inner = inner\n"
            "    def __getattr__(self, name):\n"
            "        return getattr(self.inner, name)\n"
            "class SafeWrapper(Wrapper):\n"
            "    def __getattr__(self, name):\n"
            "        if name == 'inner':\n"
            "            raise AttributeError(name)\n"
            "        return getattr(self.inner, name)\n"
            "import copy"
        ),
        before="copy.copy(Wrapper(object())).anything",
        after="w = copy.copy(SafeWrapper(1))\nhasattr(w, 'real')",
        note="copy builds the wrapper without __init__, so __getattr__('inner') calls itself",
    ),
    # values
    case(
        "b4171b037fb58220",
        setup="import torch\nx = torch.zeros(2, 3, 4)",
        before="bsz, seq = x.shape",
        after="bsz, *rest = x.shape",
    ),
    case(
        "3d7523c0f12f9da7",
        setup="addr = '10.0.0.1'",
        before="host, port = addr.split(':')",
        after="addr = '10.0.0.1:50000'\nhost, port = addr.split(':')",
    ),
    case(
        "2c251eb4f548fe88",
        setup="import os\nos.environ['WORLD_SIZE'] = ''",
        before="world = int(os.environ['WORLD_SIZE'])",
        after="os.environ['WORLD_SIZE'] = '2'\nworld = int(os.environ['WORLD_SIZE'])",
    ),
    case(
        "6ac4ffec606a4e86",
        setup="import os\nos.environ['MEM_FRACTION'] = '0,85'",
        before="fraction = float(os.environ['MEM_FRACTION'])",
        after="os.environ['MEM_FRACTION'] = '0.85'\nfraction = float(os.environ['MEM_FRACTION'])",
    ),
    case(
        "c04514927fdff6bc",
        setup=(
            "import json, os, tempfile\nroot = tempfile.mkdtemp(prefix='verify-json-')\n"
            "open(os.path.join(root, 'config.json'), 'w').close()   # interrupted download"
        ),
        before="json.load(open(os.path.join(root, 'config.json')))",
        after=(
            "open(os.path.join(root, 'config.json'), 'w').write('{\"model_type\": \"llama\"}')\n"
            "json.load(open(os.path.join(root, 'config.json')))"
        ),
    ),
    case("9c90c8c4b681af99", setup="import json"),
    case(
        "39de198d82e4e533",
        setup=(
            "import os, tempfile\nroot = tempfile.mkdtemp(prefix='verify-bin-')\n"
            "path = os.path.join(root, 'template.jinja')\n"
            "open(path, 'wb').write('{# café #}'.encode('latin-1'))"
        ),
        before="text = open(path, encoding='utf-8').read()",
        after="text = open(path, encoding='latin-1').read()",
    ),
    case(
        "7c98f74072e59bdf",
        setup="import json, torch\nlogprobs = torch.tensor([-0.5, -1.25])",
        before='json.dumps({"logprobs": logprobs})',
        after='json.dumps({"logprobs": logprobs.tolist()})',
    ),
]
