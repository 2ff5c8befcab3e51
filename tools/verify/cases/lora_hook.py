"""Cases for errors/sglang/srt/arg_groups/lora_hook.yaml."""

from harness import case

# What sgl.Engine(**kwargs) does with its keyword arguments before it starts anything:
# ServerArgs(**kwargs), then resolve_once() and check_server_args() (Engine._launch_subprocesses).
_ENGINE = (
    "import verify_fixtures\n"
    "from sglang.srt.server_args import ServerArgs\n"
    "def engine_args(**kw):\n"
    "    sa = ServerArgs(model_path=verify_fixtures.hub_model('Qwen/Qwen3-8B'), **kw)\n"
    "    sa.resolve_once()\n"
    "    sa.check_server_args()\n"
)
_ENGINE_NOTE = (
    "the example's sgl.Engine keyword arguments, run through what Engine does with them"
    " before it starts any process (ServerArgs, resolve_once, check_server_args)"
)

CASES = [
    case("7fed7df91b54e5bb"),
    case("c62e380e2887a6af"),
    case("15d76c1377918e08"),
    case(
        "6244b719ca316efc",
        setup=_ENGINE,
        before='engine_args(lora_paths=[{"name": "sql", "path": "/lora/sql"}])\n',
        after='engine_args(lora_paths=[{"lora_name": "sql", "lora_path": "/lora/sql"}])\n',
        note=_ENGINE_NOTE,
    ),
    case(
        "c1c9fdf8dc7a1767",
        setup=_ENGINE,
        before='engine_args(lora_paths="/lora/sql")\n',
        after='engine_args(lora_paths=["sql=/lora/sql"])\n',
        note=_ENGINE_NOTE,
    ),
    case("6bfd18479d4092c8"),
    case("70fa9724aa54c846"),
    case("848eef7e65df05b3"),
    case("18f41486f625836d"),
    case(
        "f5f8efef38983003",
        setup=_ENGINE,
        before='engine_args(lora_paths=["a=/lora/a"], max_lora_chunk_size=256)\n',
        after='engine_args(lora_paths=["a=/lora/a"], max_lora_chunk_size=128)\n',
        note=_ENGINE_NOTE,
    ),
    case("8a49c52322d11af7"),
    case("c876896938bf9811"),
    case("9a02192f39419710"),
    case("e5c10fdfb7fd3177"),
]
