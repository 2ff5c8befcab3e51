"""Cases for errors/sglang/srt/model_executor/model_runner_components/
attention_backend_setup.yaml."""

from harness import case

_SETUP = (
    "import types\n"
    "import verify_fixtures\n"
    "import sglang.srt.layers.attention.attention_registry  # registers the backends\n"
    "from sglang.srt.model_executor.model_runner_components.attention_backend_setup import"
    " _build_full_attention_backend_from_str\n"
    "from sglang.srt.server_args import ServerArgs\n"
    "def engine_backend(name):\n"
    "    sa = ServerArgs(model_path=verify_fixtures.hub_model('Qwen/Qwen3-8B'),"
    " attention_backend=name)\n"
    "    sa.resolve_once()\n"
    "    sa.check_server_args()\n"
    "    try:\n"
    "        _build_full_attention_backend_from_str(model_runner=types.SimpleNamespace(),"
    " backend_str=sa.attention_backend, init_new_workspace=False)\n"
    "    except (AttributeError, ModuleNotFoundError, ImportError):\n"
    "        pass  # a registered backend's constructor needs a real model runner\n"
)

CASES = [
    case(
        "1d6c6b949ca9ab45",
        setup=_SETUP,
        before='engine_backend("flash_attn")\n',
        after='engine_backend("fa3")\n',
        note="the example's sgl.Engine keyword through ServerArgs, resolve_once and"
        " check_server_args (which let the name through), then the model runner's backend"
        " lookup with the resolved name; a SimpleNamespace stands in for the model runner,"
        " which the name check does not read",
    ),
]
