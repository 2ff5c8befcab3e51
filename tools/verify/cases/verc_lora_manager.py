"""Cases for errors/sglang/srt/lora/lora_manager.yaml: the LoRA manager's checks when it is
built (DP attention), when it loads --lora-paths at startup and when /load_lora_adapter
reaches it. Adapters are adapter_config.json directories (`fixtures_verc.adapter_dir`); no
weights are loaded and the base model is not built (see `fixtures_verc.lora_manager` and
`lora_manager_startup`). The LoRA modules import the model layers, which import sgl_kernel
on a CUDA host: the no-op stand-in is installed first (no kernel runs in these checks).
"""

from harness import case

SETUP = (
    "import json\n"
    "import verify_fixtures\n"
    "verify_fixtures.stub_sgl_kernel()\n"
    "from fixtures_verc import adapter_dir, lora_manager, lora_manager_startup, lora_ref,"
    " load_adapter\n"
    "def pinned(name):\n"
    "    return json.dumps({'lora_name': name, 'lora_path': adapter_dir(), 'pinned': True})\n"
)
DSV2 = "--model-path deepseek-ai/DeepSeek-V2-Lite-Chat --tp-size 8"
LLAMA = "--model-path meta-llama/Llama-3.1-8B-Instruct"
# the server of /load_lora_adapter cases: LoRA on, buffers sized up front
DYNAMIC = f"{LLAMA} --enable-lora --max-lora-rank 64 --lora-target-modules all"


def startup(flags: str) -> str:
    """A half: TP rank 0 builds its LoRA manager for `sglang serve FLAGS` (an f-string, so
    that `pinned(name)` can put a fixture adapter into --lora-paths)."""
    return f'lora_manager_startup(f"""{flags}""")\n'


CASES = [
    case(
        "166cfde62874e3b9",
        setup=SETUP,
        before=startup(
            f"{DSV2} --attn-dp-size 4 --lora-backend triton --lora-paths '{{pinned('a')}}'"
        ),
        after=startup(
            f"{DSV2} --attn-dp-size 8 --lora-backend triton --lora-paths '{{pinned('a')}}'"
        ),
        note="the example's launch commands with a fixture adapter for /l/a, built into TP rank"
        " 0's LoRA manager up to loading --lora-paths. The old after half (--attn-dp-size 8"
        " alone) failed next on the default csgmv backend, and with unpinned adapters on the"
        " 'requires pinned adapters' assertion",
    ),
    case(
        "604d4b2336a7b9bd",
        setup=SETUP,
        before=startup(f"{DSV2} --attn-dp-size 8 --lora-paths '{{pinned('a')}}'"),
        after=startup(
            f"{DSV2} --attn-dp-size 8 --lora-paths '{{pinned('a')}}' --lora-backend triton"
        ),
        note="the example's launch commands (model M: DeepSeek-V2-Lite-Chat) with a fixture"
        " adapter for /l/a, built into TP rank 0's LoRA manager up to loading --lora-paths."
        " The old after half (a=/l/a, unpinned) failed next: DP-attention LoRA requires"
        " pinned adapters",
    ),
    case(
        "7aea923bac7abafa",
        setup=SETUP + "A, B = adapter_dir(), adapter_dir()\n",
        before=(
            f"m = lora_manager({DYNAMIC + ' --max-loras-per-batch 2'!r})\n"
            "load_adapter(m, lora_ref('a', A, pinned=True))\n"
            "load_adapter(m, lora_ref('b', B, pinned=True))\n"
        ),
        after=(
            f"m = lora_manager({DYNAMIC + ' --max-loras-per-batch 4'!r})\n"
            "load_adapter(m, lora_ref('a', A, pinned=True))\n"
            "load_adapter(m, lora_ref('b', B, pinned=True))\n"
        ),
        note="the example's two pinned adapters loaded one after the other into the LoRA"
        " manager of servers with each --max-loras-per-batch, through the load path"
        " /load_lora_adapter uses. Loaded from --lora-paths at startup the message is wrapped"
        " in 'Failed to load LoRA adapter b: ...', which errexplain matches to the wrapper"
        " entry bd1a181e7908c6cb",
    ),
    case(
        "06438ff667203115",
        setup=SETUP + f"m = lora_manager({DYNAMIC!r})\nV1, V2 = adapter_dir(), adapter_dir()\n"
        "load_adapter(m, lora_ref('sql', V1))  # loaded earlier\n",
        before="load_adapter(m, lora_ref('sql', V2))\n",
        after=(
            "from types import SimpleNamespace\n"
            "m.memory_pool = SimpleNamespace(\n"
            "    remove_lora=lambda lora_id: None, can_support=lambda config: True\n"
            ")\n"
            "assert m.unload_lora_adapter(next(iter(m.lora_refs.values()))).success\n"
            "load_adapter(m, lora_ref('sql', V2))\n"
        ),
        note="the example's /load_lora_adapter and /unload_lora_adapter calls as they reach the"
        " LoRA manager of a server on which 'sql' is loaded (the endpoint returns the failed"
        " load's message; raised here). The unload frees a GPU buffer slot: the after half"
        " gives the manager a stand-in pool for that, which takes the rank-8 adapter (the"
        " check reads only the loaded names)",
    ),
    case(
        "1134e2f0b7b82de6",
        setup=SETUP + f"m = lora_manager({DYNAMIC!r})\n",
        before=(
            "tool = adapter_dir(added_tokens={'<tool_call>': 128256, '</tool_call>': 128257})\n"
            "load_adapter(m, lora_ref('tool', tool))\n"
        ),
        after=(
            "tool = adapter_dir(added_tokens={'<|python_tag|>': 128010})\n"
            "load_adapter(m, lora_ref('tool', tool))\n"
        ),
        note="an adapter whose added_tokens.json extends Llama-3.1's vocabulary (128256) loaded"
        " through /load_lora_adapter; the example's fix (merge and serve as --model-path)"
        " leaves no adapter to load, so the after half is the third solution: an"
        " added_tokens.json with only ids already in the base vocabulary is ignored",
    ),
    case(
        "1d196fdde289e0e4",
        setup=SETUP + f"m = lora_manager({DYNAMIC!r})\n",
        before="load_adapter(m, lora_ref('d', adapter_dir(r=16, use_dora=True)))\n",
        after="load_adapter(m, lora_ref('d', adapter_dir(r=16, use_dora=False)))\n",
        note="the adapter_config.json PEFT writes for the example's LoraConfig (r=16,"
        " lora_alpha=32, use_dora) loaded through /load_lora_adapter",
    ),
]
