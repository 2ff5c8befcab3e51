"""Fixtures for the request-side checks of a launched server (tokenizer manager, OpenAI
serving handlers, LoRA manager), importable in a case's setup/before/after as
`import fixtures_verc`.

Each builds the object the way its server process does, from a launch command's flags
(`verify_fixtures.launched_args`), running the parts of its `__init__` that read the server
args and the model config, and leaving out what needs sockets, subprocesses or a GPU.
"""

from __future__ import annotations

import asyncio
from typing import Any

import verify_fixtures


def tokenizer_manager(flags: str) -> Any:
    """A TokenizerManager for `sglang serve FLAGS`: the server args published for the
    tokenizer process (as `Engine` does before it builds the manager), then the parts of
    `TokenizerManager.__init__` that set what the request checks read (the option copies at
    its top, `init_model_config`, `init_tokenizer_and_processor`, `init_running_status`,
    `init_disaggregation` without the PD bootstrap service, the sampling-params class).
    No IPC sockets, no scheduler: a request that passes the checks is not sent anywhere."""
    from sglang.srt.managers.tokenizer_manager import TokenizerManager
    from sglang.srt.runtime_context import get_lora, get_observability, get_serving, publish
    from sglang.srt.sampling.sampling_params import SamplingParams

    server_args = verify_fixtures.launched_args(flags)
    publish(server_args, role="tokenizer")
    tm = object.__new__(TokenizerManager)
    tm.server_args = server_args
    # the option copies at the top of TokenizerManager.__init__
    tm.allow_auto_truncate = get_serving().allow_auto_truncate
    tm.skip_tokenizer_init = get_serving().skip_tokenizer_init
    tm.preferred_sampling_params = get_serving().preferred_sampling_params
    tm.enable_lora = get_lora().enable_lora
    tm.incremental_streaming_output = get_serving().incremental_streaming_output
    tm.enable_trace = get_observability().enable_trace
    tm.init_model_config()
    tm.init_tokenizer_and_processor()
    tm.init_running_status()
    tm.init_disaggregation(start_pd_bootstrap_service=False)
    tm.sampling_params_class = SamplingParams  # as init_request_dispatcher sets it
    return tm


def generate_req(**fields: Any) -> Any:
    """A single GenerateReqInput, normalised as `generate_request` does first."""
    from sglang.srt.managers.io_struct import GenerateReqInput

    obj = GenerateReqInput(**fields)
    obj.normalize_batch_and_arguments()
    return obj


def embedding_req(**fields: Any) -> Any:
    """A single EmbeddingReqInput, normalised as `generate_request` does first."""
    from sglang.srt.managers.io_struct import EmbeddingReqInput

    obj = EmbeddingReqInput(**fields)
    obj.normalize_batch_and_arguments()
    return obj


def tokenize(tm: Any, obj: Any) -> Any:
    """What `TokenizerManager.generate_request` does with a single request before it sends
    it to the scheduler: `_init_req_state` (the request-id bookkeeping), then
    `_tokenize_one_request` (tokenization and `_validate_one_request`); returns the
    tokenized request."""
    tm._init_req_state(obj)
    return asyncio.run(tm._tokenize_one_request(obj))


def serving_chat(flags: str) -> Any:
    """The /v1/chat/completions handler of `sglang serve FLAGS`: the tokenizer manager
    (`tokenizer_manager`), its TemplateManager initialised as `init_tokenizer_manager` does
    (the model's chat template, or --chat-template), and `OpenAIServingChat` built on both as
    the HTTP server does. `launched_args` leaves "auto" parsers unresolved; give explicit
    --reasoning-parser/--tool-call-parser values."""
    from sglang.srt.entrypoints.openai.serving_chat import OpenAIServingChat
    from sglang.srt.parser.template_manager import TemplateManager
    from sglang.srt.runtime_context import get_model, get_serving

    tm = tokenizer_manager(flags)
    templates = TemplateManager()
    templates.initialize_templates(
        tokenizer_manager=tm,
        model_path=get_model().model_path,
        chat_template=get_serving().chat_template,
        completion_template=get_serving().completion_template,
    )
    return OpenAIServingChat(tm, templates)


def chat_request(**fields: Any) -> Any:
    """A ChatCompletionRequest from the JSON body fields an OpenAI client sends
    (`extra_body` fields are top-level fields of the body)."""
    from sglang.srt.entrypoints.openai.protocol import ChatCompletionRequest

    fields.setdefault("model", "default")
    fields.setdefault("messages", [{"role": "user", "content": "Is it hot?"}])
    return ChatCompletionRequest(**fields)


def anthropic_messages(flags: str, **fields: Any) -> Any:
    """What the /v1/messages handler of `sglang serve FLAGS` does with an Anthropic
    Messages request (`fields`: the JSON body, e.g. `thinking={"type": "enabled",
    "budget_tokens": 2048}`) before generating: `AnthropicServing` on the server's chat
    handler (`serving_chat`) converts it to a chat completion request
    (`_convert_to_chat_completion_request`); returns that request."""
    from sglang.srt.entrypoints.anthropic.protocol import AnthropicMessagesRequest
    from sglang.srt.entrypoints.anthropic.serving import AnthropicServing

    fields.setdefault("model", "default")
    fields.setdefault("max_tokens", 1024)
    fields.setdefault("messages", [{"role": "user", "content": "Is it hot?"}])
    serving = AnthropicServing(serving_chat(flags))
    return serving._convert_to_chat_completion_request(AnthropicMessagesRequest(**fields))


def adapter_dir(
    r: int = 8,
    target_modules: tuple[str, ...] = ("q_proj", "v_proj"),
    added_tokens: dict[str, int] | None = None,
    **config: Any,
) -> str:
    """A PEFT LoRA adapter directory with its adapter_config.json (rank `r`, lora_alpha 2r,
    `target_modules`, `config` merged over) and, given `added_tokens`, an added_tokens.json.
    No weight file: for the checks that read the adapter's configuration."""
    import json
    import os
    import tempfile

    path = tempfile.mkdtemp(prefix="verify-lora-")
    adapter = {
        "peft_type": "LORA",
        "r": r,
        "lora_alpha": 2 * r,
        "target_modules": list(target_modules),
        "use_dora": False,
        **config,
    }
    with open(os.path.join(path, "adapter_config.json"), "w", encoding="utf-8") as f:
        json.dump(adapter, f)
    if added_tokens is not None:
        with open(os.path.join(path, "added_tokens.json"), "w", encoding="utf-8") as f:
            json.dump(added_tokens, f)
    return path


def lora_manager(flags: str) -> Any:
    """The LoRAManager of TP rank 0 of `sglang serve FLAGS`, in the state
    `init_lora_adapters` leaves it in before it loads --lora-paths (no adapter loaded, no
    memory pool yet): the server args published for rank 0, then the fields of
    `LoRAManager.__init__` that the adapter checks read (the base model's text config,
    max_loras_per_batch, whether DP attention is on). Built with `object.__new__`: the real
    constructor needs the loaded base model. Adapter weights are not loaded
    (`load_lora_weights` does nothing): the checks read the adapter's configuration only."""
    import torch
    from sglang.srt.configs.model_config import ModelConfig
    from sglang.srt.lora.lora_manager import LoRAManager
    from sglang.srt.runtime_context import get_lora, get_parallel

    server_args = verify_fixtures.published_rank0(flags)
    config = ModelConfig.from_server_args(server_args)
    manager = object.__new__(LoRAManager)
    manager.base_hf_config = config.hf_config.get_text_config()
    manager.max_loras_per_batch = get_lora().max_loras_per_batch
    manager.attn_dp_enabled = get_parallel().attn_dp_enabled
    manager.device = torch.device("cpu")  # read only by the load logs' free-memory query
    manager.init_lora_adapters()
    manager.load_lora_weights = lambda lora_ref: None
    return manager


def lora_ref(name: str, path: str, pinned: bool = False) -> Any:
    """The LoRARef the tokenizer side registers for an adapter (name, path, pinned)."""
    from sglang.srt.lora.lora_registry import LoRARef

    return LoRARef(lora_name=name, lora_path=path, pinned=pinned)


def load_adapter(manager: Any, ref: Any) -> None:
    """`LoRAManager.load_lora_adapter(ref)` as the /load_lora_adapter endpoint reaches it;
    a failed load is raised with the message the endpoint returns."""
    result = manager.load_lora_adapter(ref)
    if not result.success:
        raise ValueError(result.error_message)


def lora_manager_startup(flags: str) -> Any:
    """`LoRAManager(...)` as TP rank 0's model runner builds it for `sglang serve FLAGS`
    (every argument from the published server args), up to and including the loading of
    --lora-paths: the base model is a CPU stand-in module (the constructor reads only its
    device before `init_state`), and `init_state` is reduced to its first step,
    `init_lora_adapters(lora_paths)`, with adapter weights not loaded (the shape inference
    and buffer set-up after it need the real base model)."""
    import torch
    from sglang.srt.configs.load_config import LoadConfig
    from sglang.srt.configs.model_config import ModelConfig
    from sglang.srt.lora.lora_manager import LoRAManager
    from sglang.srt.runtime_context import get_lora

    def init_state(
        self: Any, max_lora_rank: Any = None, target_modules: Any = None, lora_paths: Any = None
    ) -> None:
        self.init_lora_adapters(lora_paths)

    LoRAManager.init_state = init_state  # type: ignore[method-assign]
    LoRAManager.load_lora_weights = lambda self, lora_ref: None  # type: ignore[method-assign]
    server_args = verify_fixtures.published_rank0(flags)
    config = ModelConfig.from_server_args(server_args)
    lora = get_lora()
    return LoRAManager(
        base_model=torch.nn.Linear(1, 1),
        base_hf_config=config.hf_config,
        max_loras_per_batch=lora.max_loras_per_batch,
        load_config=LoadConfig(),
        dtype=config.dtype,
        server_args=server_args,
        lora_backend=lora.lora_backend,
        max_lora_rank=lora.max_lora_rank,
        target_modules=lora.lora_target_modules,
        lora_paths=lora.lora_paths,
    )
