"""Local stand-ins for hub models, for cases run without hub access (imported as
`verify_fixtures` inside the verify venv; standard library only).

`model_dir(arch, **config)` writes a model directory (config.json with the overrides merged,
generation_config.json and a small word-level tokenizer) and returns its path. Directories are
cached by content under $ERREXPLAIN_VERIFY_MODELS (default: <tmp>/errexplain-verify-models).
`hub_model(name)` maps a hub name to such a directory, using the real model's published
config values (head counts, layers, experts, context length, quantization) where the table
below knows the name, and a guess by family otherwise. No weights are written: the checks run
by the harness read configs, not tensors.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from typing import Any

_LLAMA: dict[str, Any] = {
    "model_type": "llama",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "num_hidden_layers": 32,
    "vocab_size": 128256,
    "max_position_embeddings": 131072,
    "rms_norm_eps": 1e-5,
    "rope_theta": 500000.0,
    "rope_scaling": {
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
        "rope_type": "llama3",
    },
    "hidden_act": "silu",
    "tie_word_embeddings": False,
    "bos_token_id": 1,
    "eos_token_id": 2,
}
_QWEN3: dict[str, Any] = {
    "model_type": "qwen3",
    "hidden_size": 4096,
    "intermediate_size": 12288,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "num_hidden_layers": 36,
    "vocab_size": 151936,
    "max_position_embeddings": 40960,
    "rms_norm_eps": 1e-6,
    "rope_theta": 1000000.0,
    "hidden_act": "silu",
    "tie_word_embeddings": False,
    "bos_token_id": 1,
    "eos_token_id": 2,
}
_QWEN2: dict[str, Any] = {
    "model_type": "qwen2",
    "hidden_size": 3584,
    "intermediate_size": 18944,
    "num_attention_heads": 28,
    "num_key_value_heads": 4,
    "num_hidden_layers": 28,
    "vocab_size": 152064,
    "max_position_embeddings": 32768,
    "rms_norm_eps": 1e-6,
    "rope_theta": 1000000.0,
    "hidden_act": "silu",
    "tie_word_embeddings": False,
    "bos_token_id": 1,
    "eos_token_id": 2,
}
_QWEN3_MOE: dict[str, Any] = {
    **_QWEN3,
    "model_type": "qwen3_moe",
    "hidden_size": 2048,
    "intermediate_size": 6144,
    "moe_intermediate_size": 768,
    "num_attention_heads": 32,
    "num_key_value_heads": 4,
    "num_hidden_layers": 48,
    "num_experts": 128,
    "num_experts_per_tok": 8,
    "decoder_sparse_step": 1,
    "norm_topk_prob": True,
    "mlp_only_layers": [],
}
_DEEPSEEK_V3: dict[str, Any] = {
    "model_type": "deepseek_v3",
    "hidden_size": 7168,
    "intermediate_size": 18432,
    "moe_intermediate_size": 2048,
    "num_attention_heads": 128,
    "num_key_value_heads": 128,
    "num_hidden_layers": 61,
    "first_k_dense_replace": 3,
    "n_routed_experts": 256,
    "n_shared_experts": 1,
    "num_experts_per_tok": 8,
    "n_group": 8,
    "topk_group": 4,
    "topk_method": "noaux_tc",
    "scoring_func": "sigmoid",
    "routed_scaling_factor": 2.5,
    "norm_topk_prob": True,
    "kv_lora_rank": 512,
    "q_lora_rank": 1536,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
    "num_nextn_predict_layers": 1,
    "vocab_size": 129280,
    "max_position_embeddings": 163840,
    "rms_norm_eps": 1e-6,
    "rope_theta": 10000,
    "rope_scaling": {
        "type": "yarn",
        "factor": 40,
        "original_max_position_embeddings": 4096,
        "beta_fast": 32,
        "beta_slow": 1,
        "mscale": 1.0,
        "mscale_all_dim": 1.0,
    },
    "hidden_act": "silu",
    "tie_word_embeddings": False,
    "bos_token_id": 0,
    "eos_token_id": 1,
    "quantization_config": {
        "quant_method": "fp8",
        "fmt": "e4m3",
        "activation_scheme": "dynamic",
        "weight_block_size": [128, 128],
    },
}

ARCHS: dict[str, dict[str, Any]] = {
    "LlamaForCausalLM": _LLAMA,
    "Qwen3ForCausalLM": _QWEN3,
    "Qwen2ForCausalLM": _QWEN2,
    "Qwen3MoeForCausalLM": _QWEN3_MOE,
    "DeepseekV3ForCausalLM": _DEEPSEEK_V3,
    "MistralForCausalLM": {**_LLAMA, "model_type": "mistral", "rope_scaling": None},
}
"""Base config.json per architecture: a real model of that family (small models are not
smaller in the fields these checks read)."""

HUB: dict[str, tuple[str, dict[str, Any]]] = {
    "meta-llama/Llama-3.1-8B-Instruct": ("LlamaForCausalLM", {}),
    "meta-llama/Llama-3.1-8B": ("LlamaForCausalLM", {}),
    "meta-llama/Meta-Llama-3.1-8B-Instruct": ("LlamaForCausalLM", {}),
    "meta-llama/Llama-3.1-70B-Instruct": (
        "LlamaForCausalLM",
        {
            "hidden_size": 8192,
            "intermediate_size": 28672,
            "num_attention_heads": 64,
            "num_hidden_layers": 80,
        },
    ),
    "Qwen/Qwen3-8B": ("Qwen3ForCausalLM", {}),
    "Qwen/Qwen3-32B": (
        "Qwen3ForCausalLM",
        {
            "hidden_size": 5120,
            "intermediate_size": 25600,
            "num_attention_heads": 64,
            "num_hidden_layers": 64,
        },
    ),
    "Qwen/Qwen3-30B-A3B": ("Qwen3MoeForCausalLM", {}),
    "Qwen/Qwen3-235B-A22B": (
        "Qwen3MoeForCausalLM",
        {
            "hidden_size": 4096,
            "intermediate_size": 12288,
            "moe_intermediate_size": 1536,
            "num_attention_heads": 64,
            "num_hidden_layers": 94,
        },
    ),
    "Qwen/Qwen2.5-7B-Instruct": ("Qwen2ForCausalLM", {}),
    "Qwen/Qwen2.5-14B-Instruct": (
        "Qwen2ForCausalLM",
        {
            "hidden_size": 5120,
            "intermediate_size": 13824,
            "num_attention_heads": 40,
            "num_key_value_heads": 8,
            "num_hidden_layers": 48,
        },
    ),
    "Qwen/Qwen2.5-32B-Instruct": (
        "Qwen2ForCausalLM",
        {
            "hidden_size": 5120,
            "intermediate_size": 27648,
            "num_attention_heads": 40,
            "num_key_value_heads": 8,
            "num_hidden_layers": 64,
        },
    ),
    "Qwen/Qwen2.5-72B-Instruct": (
        "Qwen2ForCausalLM",
        {
            "hidden_size": 8192,
            "intermediate_size": 29568,
            "num_attention_heads": 64,
            "num_key_value_heads": 8,
            "num_hidden_layers": 80,
        },
    ),
    "deepseek-ai/DeepSeek-V3": ("DeepseekV3ForCausalLM", {}),
    "deepseek-ai/DeepSeek-V3-0324": ("DeepseekV3ForCausalLM", {}),
    "deepseek-ai/DeepSeek-R1": ("DeepseekV3ForCausalLM", {}),
    "deepseek-ai/DeepSeek-R1-0528": ("DeepseekV3ForCausalLM", {}),
}
"""Hub names seen in catalog examples, with the config values that differ from the family
base. Add names as cases need them."""

_FAMILIES = (
    ("deepseek-v3", "DeepseekV3ForCausalLM"),
    ("deepseek-r1-distill-qwen", "Qwen2ForCausalLM"),
    ("deepseek-r1", "DeepseekV3ForCausalLM"),
    ("qwen3-30b-a3b", "Qwen3MoeForCausalLM"),
    ("qwen3-235b-a22b", "Qwen3MoeForCausalLM"),
    ("qwen3", "Qwen3ForCausalLM"),
    ("qwen2", "Qwen2ForCausalLM"),
    ("mistral", "MistralForCausalLM"),
    ("llama", "LlamaForCausalLM"),
)

_WORD_TEXT = (
    "<unk> <s> </s> <pad> the a an of to in and is it you that he was for on are with as I his "
    "they be at one have this from or had by hot word but what some we can out other were all "
    "there when up use your how said each she which do their time if will way about many then "
    "them write would like so these her long make thing see him two has look more day could go "
    "come did number sound no most people my over know water than call first who may down side "
    "been now find any new work part take get place made live where after back little only "
    "round man year came show every good me give our under name very through just form sentence "
    "great think say help low line differ turn cause much mean before move right boy old too "
    "same tell does set three want air well also play small end put home read hand port large "
    "spell add even land here must big high such follow act why ask men change went light kind "
    "off need house picture try us again animal point mother world near build self earth father "
    "user assistant system : . , ! ? 0 1 2 3 4 5 6 7 8 9"
)
_WORDS = _WORD_TEXT.split()
CHAT_TEMPLATE = (
    "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}assistant: {% endif %}"
)


def models_root() -> str:
    root = os.environ.get("ERREXPLAIN_VERIFY_MODELS") or os.path.join(
        tempfile.gettempdir(), "errexplain-verify-models"
    )
    os.makedirs(root, exist_ok=True)
    return root


def tokenizer_files(max_length: int) -> dict[str, Any]:
    """tokenizer.json and tokenizer_config.json of a word-level tokenizer."""
    specials = _WORDS[:4]
    added = [
        {
            "id": i,
            "content": w,
            "single_word": False,
            "lstrip": False,
            "rstrip": False,
            "normalized": False,
            "special": True,
        }
        for i, w in enumerate(specials)
    ]
    tokenizer = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {"type": "Whitespace"},
        "post_processor": None,
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {
            "type": "WordLevel",
            "vocab": {w: i for i, w in enumerate(_WORDS)},
            "unk_token": "<unk>",
        },
    }
    config = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "unk_token": "<unk>",
        "bos_token": "<s>",
        "eos_token": "</s>",
        "pad_token": "<pad>",
        "model_max_length": max_length,
        "chat_template": CHAT_TEMPLATE,
    }
    return {"tokenizer.json": tokenizer, "tokenizer_config.json": config}


def model_config(arch: str = "LlamaForCausalLM", **config: Any) -> dict[str, Any]:
    """The config.json content for `arch` with `config` merged over the family base
    (an unknown arch needs `model_type` among the overrides; an override of None removes
    the key)."""
    base = ARCHS.get(arch, {})
    merged: dict[str, Any] = {**base, **config, "architectures": [arch]}
    merged.setdefault("torch_dtype", "bfloat16")
    if "model_type" not in merged:
        raise ValueError(f"model_dir: no base config for {arch}; pass model_type=...")
    return {k: v for k, v in merged.items() if not (v is None and k in config)}


def model_dir(arch: str = "LlamaForCausalLM", **config: Any) -> str:
    """A local model directory for `arch` (config overrides merged); cached by content."""
    cfg = model_config(arch, **config)
    files: dict[str, Any] = {
        "config.json": cfg,
        "generation_config.json": {
            "bos_token_id": cfg.get("bos_token_id"),
            "eos_token_id": cfg.get("eos_token_id"),
        },
        **tokenizer_files(int(cfg.get("max_position_embeddings") or 4096)),
    }
    blob = json.dumps(files, sort_keys=True).encode()
    name = f"{arch}-{hashlib.sha256(blob).hexdigest()[:12]}"
    path = os.path.join(models_root(), name)
    if os.path.isdir(path):
        return path
    tmp = tempfile.mkdtemp(prefix=name + ".", dir=models_root())
    for fname, content in files.items():
        with open(os.path.join(tmp, fname), "w", encoding="utf-8") as f:
            json.dump(content, f, indent=2)
    try:
        os.rename(tmp, path)
    except OSError:  # another worker made it first
        for fname in files:
            os.unlink(os.path.join(tmp, fname))
        os.rmdir(tmp)
    return path


def guess_arch(name: str) -> str | None:
    low = name.lower()
    for key, arch in _FAMILIES:
        if key in low:
            return arch
    return None


def hub_model(name: str, **config: Any) -> str:
    """A local directory standing in for hub model `name` (an existing path, "dummy" and
    "none" are returned unchanged)."""
    if name.lower() in ("dummy", "none") or os.path.exists(name):
        return name
    if name in HUB:
        arch, values = HUB[name]
        return model_dir(arch, **{**values, **config})
    arch = guess_arch(name)
    if arch is None:
        print(f"verify_fixtures: no fixture for {name!r}; using LlamaForCausalLM", file=sys.stderr)
        arch = "LlamaForCausalLM"
    return model_dir(arch, **config)


GPUS: dict[str, tuple[str, tuple[int, int], int]] = {
    "H100": ("NVIDIA H100 80GB HBM3", (9, 0), 80),
    "H200": ("NVIDIA H200", (9, 0), 141),
    "A100": ("NVIDIA A100-SXM4-80GB", (8, 0), 80),
    "L40S": ("NVIDIA L40S", (8, 9), 48),
    "B200": ("NVIDIA B200", (10, 0), 180),
    "RTX5090": ("NVIDIA GeForce RTX 5090", (12, 0), 32),
}
"""Fake CUDA devices: name, compute capability, memory in GiB."""
DEFAULT_GPU = "H100"
GPU_ENV = "ERREXPLAIN_VERIFY_GPU"
"""The worker's device: a GPUS key (optionally `KEY:count`, default 8 devices), or `cpu` for
the machine as it is (no CUDA)."""


def fake_gpu(profile: str = DEFAULT_GPU, count: int = 8) -> None:
    """Make torch report `count` CUDA devices of `profile` (device queries only: nothing can run
    on them), then forget what sglang had cached about the device: the lru caches of sglang's
    functions (`is_cuda`, `is_sm90_supported`, ...) and the resolved `current_platform`.

    Call it after sglang's modules are imported (the worker imports the server-argument modules
    first): sglang imports CUDA kernels at module level when it sees CUDA, and those are not
    installed here. Later imports inside hooks see the fake device."""
    import types

    import torch

    name, capability, gib = GPUS[profile]
    total = gib << 30
    props = types.SimpleNamespace(
        name=name,
        major=capability[0],
        minor=capability[1],
        total_memory=total,
        multi_processor_count=132,
        L2_cache_size=50 << 20,
        is_integrated=False,
        uuid="GPU-00000000-0000-0000-0000-000000000000",
    )
    cuda = torch.cuda
    cuda.is_available = lambda: True
    cuda.is_initialized = lambda: True
    cuda.device_count = lambda: count
    cuda.current_device = lambda: 0
    cuda.get_device_capability = lambda device=None: capability
    cuda.get_device_name = lambda device=None: name
    cuda.get_device_properties = lambda device=None: props
    cuda.mem_get_info = lambda device=None: (int(total * 0.95), total)
    torch.version.cuda = "12.9"
    forget_device_facts()


def forget_device_facts() -> None:
    """Clear the lru caches of sglang's functions and re-resolve sglang's current_platform
    (rebinding the modules that imported the old one by name)."""
    import functools

    sglang_modules = [m for n, m in list(sys.modules.items()) if n.startswith("sglang") and m]
    for module in sglang_modules:
        for value in list(vars(module).values()):  # never getattr: lazy imports would load
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()
    platforms = sys.modules.get("sglang.srt.platforms")
    if platforms is None:
        return
    old = getattr(platforms, "_current_platform", None)
    platforms._current_platform = None  # type: ignore[attr-defined]
    new = platforms.current_platform  # type: ignore[attr-defined]
    for module in sglang_modules:
        if old is not None and vars(module).get("current_platform") is old:
            module.current_platform = new  # type: ignore[attr-defined]


def apply_gpu_env() -> str:
    """Apply $ERREXPLAIN_VERIFY_GPU (default H100, 8 devices); the profile applied."""
    value = os.environ.get(GPU_ENV) or DEFAULT_GPU
    if value == "cpu":
        return value
    profile, _, count = value.partition(":")
    fake_gpu(profile, int(count or 8))
    return value


def launched_args(flags: str) -> Any:
    """The server args of `sglang serve FLAGS` after what the harness runs for a launch
    command before anything starts (parse, `resolve_once`, `check_server_args`); model
    flags go through `hub_model`. For cases that go on to call the code a launched server
    runs next (a model runner's backend choice, a layer's constructor check)."""
    import shlex

    from sglang.srt.server_args import prepare_server_args

    model_flags = ("--model-path", "--model", "--tokenizer-path", "--speculative-draft-model-path")
    argv: list[str] = []
    for word in shlex.split(flags):
        argv.append(hub_model(word) if argv and argv[-1] in model_flags else word)
    server_args = prepare_server_args(argv)
    server_args.resolve_once()
    server_args.check_server_args()
    return server_args


def attention_backends(flags: str) -> list[Any]:
    """Build the (prefill, decode) attention backends of `sglang serve FLAGS` the way the
    model runner's setup looks them up (`ATTENTION_BACKENDS[name](runner)`), with a runner
    that carries what the registry's checks read: `use_mla_backend` from the model config,
    the server args, the KV cache dtype; a split pair decode first, as
    `_build_resolved_backend` does. The server args are published first, as the scheduler
    does. Past the registry's checks, the backends' constructors fail on what the stand-in
    runner lacks (pools, device, CUDA kernels)."""
    import types

    from sglang.srt.arg_groups.model_override_base import attention_backends_of, resolved_view
    from sglang.srt.configs.model_config import AttentionArch, ModelConfig
    from sglang.srt.layers.attention.attention_registry import ATTENTION_BACKENDS
    from sglang.srt.runtime_context import publish

    server_args = launched_args(flags)
    publish(server_args, role="scheduler")  # as the scheduler process does first
    config = ModelConfig.from_server_args(server_args)
    runner = types.SimpleNamespace(
        server_args=server_args,
        model_config=config,
        use_mla_backend=config.attention_arch == AttentionArch.MLA,
        kv_cache_dtype=config.dtype,
        init_new_workspace=False,
    )
    prefill, decode = attention_backends_of(resolved_view(server_args))
    # _build_resolved_backend builds a split pair as HybridAttnBackend(decode_backend=...,
    # prefill_backend=...): the decode backend first
    names = [prefill] if prefill == decode else [decode, prefill]
    return [ATTENTION_BACKENDS[name](runner) for name in names]


def cuda_tensor_stub(*shape: int, dtype: str = "bfloat16", device: str = "cuda:0") -> Any:
    """A stand-in for a contiguous CUDA tensor that answers the metadata queries a kernel
    wrapper's argument checks make (`shape`, `ndim`, `dtype`, `device`, `is_cuda`,
    `stride()`); nothing can compute on it, so code past the checks fails on first use."""
    import types

    import torch

    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    dev = torch.device(device)
    return types.SimpleNamespace(
        shape=torch.Size(shape),
        ndim=len(shape),
        dtype=getattr(torch, dtype),
        device=dev,
        is_cuda=dev.type == "cuda",
        stride=lambda dim=None: tuple(strides) if dim is None else strides[dim],
    )


def rank0_quant_config(flags: str, packed_modules_mapping: Any = None) -> Any:
    """The quantization config a TP rank 0 model loader builds for `sglang serve FLAGS`
    (`get_quant_config`), after publishing the resolved server args for rank 0 as a
    scheduler process does; linear layers built afterwards partition their weights for
    that rank with a logical TP group (no communication). `packed_modules_mapping` is the
    model class's (default: the q/k/v and gate/up fusions most models declare)."""
    if packed_modules_mapping is None:
        packed_modules_mapping = {
            "qkv_proj": ["q_proj", "k_proj", "v_proj"],
            "gate_up_proj": ["gate_proj", "up_proj"],
        }
    from sglang.srt.configs.load_config import LoadConfig
    from sglang.srt.configs.model_config import ModelConfig
    from sglang.srt.model_loader.weight_utils import get_quant_config

    server_args = published_rank0(flags)
    config = ModelConfig.from_server_args(server_args)
    return get_quant_config(config, LoadConfig(load_format="dummy"), packed_modules_mapping)


_AWQ = {"bits": 4, "group_size": 128, "quant_method": "awq", "version": "gemm", "zero_point": True}


def awq_qwen72b(intermediate_size: int) -> str:
    """A Qwen2-72B-shaped AWQ (4-bit, group 128) model directory: intermediate_size 29568
    as the base model (self-quantized exports keep it), 29696 as Qwen's AWQ repos pad it."""
    return model_dir(
        "Qwen2ForCausalLM",
        hidden_size=8192,
        intermediate_size=intermediate_size,
        num_attention_heads=64,
        num_key_value_heads=8,
        num_hidden_layers=80,
        quantization_config=_AWQ,
    )


def rank0_mlp(model: str, flags: str) -> None:
    """Build TP rank 0's MLP linear layers (gate_up_proj, down_proj) of `model` with the
    quantization config the loader makes for `sglang serve --model-path MODEL FLAGS`.

    Sets sglang's AWQ module constant `_is_cuda` to True first: it was computed when the
    CPU-only import ran, and on a CUDA host it is True (it decides the awq -> awq_marlin
    conversion)."""
    import sglang.srt.layers.quantization.awq.awq as awq
    import torch
    from sglang.srt.layers.linear import MergedColumnParallelLinear, RowParallelLinear

    awq._is_cuda = True  # type: ignore[attr-defined]
    quant_config = rank0_quant_config(f"--model-path {model} {flags}")
    with open(os.path.join(model, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    hidden, inter = cfg["hidden_size"], cfg["intermediate_size"]
    common = {"bias": False, "quant_config": quant_config, "params_dtype": torch.float16}
    MergedColumnParallelLinear(
        hidden, [inter, inter], prefix="model.layers.0.mlp.gate_up_proj", **common
    )
    RowParallelLinear(inter, hidden, prefix="model.layers.0.mlp.down_proj", **common)


def published_rank0(flags: Any) -> Any:
    """`launched_args(flags)` (or, for a ServerArgs object, the same resolution and
    validation), published for TP rank 0 as the scheduler process does before it builds
    anything (`runtime_context.publish`); returns the server args."""
    from sglang.srt.runtime_context import SpawnRanks, publish

    if isinstance(flags, str):
        server_args = launched_args(flags)
    else:
        server_args = flags
        server_args.resolve_once()
        server_args.check_server_args()
    publish(server_args, role="scheduler", ranks=SpawnRanks(world_rank=0, gpu_id=0))
    return server_args


def stub_sgl_kernel() -> None:
    """Stand do-nothing modules in for `sgl_kernel` and its submodules (a CUDA package the CPU
    venv lacks), so that modules importing it at module level can be imported; any attribute is
    a no-op function. Only for checks that never call a kernel."""
    import importlib.abc
    import importlib.machinery
    import types

    class _Stub(types.ModuleType):
        def __getattr__(self, name: str) -> object:
            if name.startswith("__"):
                raise AttributeError(name)
            return lambda *args, **kwargs: None

    class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        verify_sgl_kernel_stub = True

        def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
            if name == "sgl_kernel" or name.startswith("sgl_kernel."):
                return importlib.machinery.ModuleSpec(name, self, is_package=True)
            return None

        def create_module(self, spec):  # type: ignore[no-untyped-def]
            module = _Stub(spec.name)
            module.__path__ = []  # a package, so that submodules import
            return module

        def exec_module(self, module):  # type: ignore[no-untyped-def]
            pass

    if not any(getattr(f, "verify_sgl_kernel_stub", False) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
