"""Cases for errors/sglang/srt/entrypoints/openai/serving_chat.yaml: request checks of the
/v1/chat/completions handler and of the Anthropic /v1/messages handler built on it.

Each half builds the handler for a launch command (`fixtures_verc.serving_chat`: tokenizer
manager, template manager, OpenAIServingChat, as the HTTP server does) and hands it the
request of the example. The handler's modules import the model layers, which import sgl_kernel
on a CUDA host: the no-op stand-in is installed first (no kernel runs in these checks).
"""

from harness import case

SETUP = (
    "import verify_fixtures\n"
    "verify_fixtures.stub_sgl_kernel()\n"
    "from fixtures_verc import serving_chat, chat_request, anthropic_messages\n"
)
ON = '{"type": "enabled", "budget_tokens": 2048}'
OFF = '{"type": "disabled"}'

# a chat template with Hunyuan's reasoning-effort switch (the three names the template
# detection looks for), as --chat-template file
HUNYUAN_TEMPLATE = (
    "import tempfile\n"
    "T = tempfile.NamedTemporaryFile('w', suffix='.jinja', delete=False)\n"
    "T.write(\"{% set reasoning_mode_token = '/no_think' if reasoning_effort == 'no_think'"
    " else '' %}{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\\n{% endfor %}"
    '{{ reasoning_mode_token }}")\n'
    "T.close()\n"
)


def convert(fields: str) -> str:
    """A half: the chat handler `chat` converts a chat completion body with `fields`."""
    return f"chat._convert_to_internal_request(chat_request({fields}))\n"


CASES = [
    case(
        "6dae28a9b7a7ec14",
        setup=SETUP
        + "chat = serving_chat('--model-path '"
        + " + verify_fixtures.model_dir('GptOssForCausalLM', model_type='gpt_oss'))\n",
        before=(
            "chat._convert_to_internal_request(chat_request(model='openai/gpt-oss-20b',"
            " chat_template_kwargs={'reasoning_effort': 'none'}))\n"
        ),
        after=(
            "chat._convert_to_internal_request(chat_request(model='openai/gpt-oss-20b',"
            " chat_template_kwargs={'reasoning_effort': 'low'}))\n"
        ),
        note="the example's chat completion bodies handed to a gpt-oss server's chat handler"
        " (a config-only GptOssForCausalLM fixture: model_type gpt_oss). A top-level"
        " reasoning_effort='none' (the old example) passes this check: only the"
        " chat_template_kwargs value is read",
    ),
    case(
        "6db4b56558bed002",
        setup=SETUP + "chat = serving_chat('--model-path Qwen/Qwen3-8B')\n",
        before=convert("stream=True, return_prompt_token_ids=True"),
        after=convert("stream=False, return_prompt_token_ids=True"),
        note="the example's chat completion bodies (extra_body fields are top-level body"
        " fields) handed to the server's chat handler",
    ),
    case(
        "2b46d5643f69ea2b",
        setup=SETUP + "chat = serving_chat('--model-path Qwen/Qwen3-8B')\n",
        before=convert("stream=True, return_token_ids=True"),
        after=convert("stream=False, return_token_ids=True"),
        note="the example's request arguments (extra_body fields are top-level body fields)"
        " as chat completion bodies handed to the server's chat handler",
    ),
    case(
        "fcf67b5728ade87d",
        setup=SETUP,
        before=f"anthropic_messages('--model-path Qwen/Qwen3-32B', thinking={ON})\n",
        after="anthropic_messages('--model-path Qwen/Qwen3-32B --reasoning-parser qwen3',"
        f" thinking={ON})\n",
        note="the example's launch commands, then an Anthropic Messages request with thinking"
        " enabled (as Claude Code sends) converted by the /v1/messages handler",
    ),
    case(
        "2744dd392c99acff",
        setup=SETUP
        + "R1 = '--model-path deepseek-ai/DeepSeek-R1 --reasoning-parser deepseek-r1'\n",
        before=f"anthropic_messages(R1, thinking={OFF})\n",
        after="anthropic_messages(R1)\n",
        note="the example's Messages requests (thinking disabled; thinking unset) sent to a"
        " DeepSeek-R1 server with its always-on reasoning parser",
    ),
    case(
        "d034cb5bef352b17",
        setup=SETUP + HUNYUAN_TEMPLATE,
        before=(
            "anthropic_messages('--model-path Qwen/Qwen3-8B --reasoning-parser qwen3"
            f" --chat-template ' + T.name, thinking={ON})\n"
        ),
        after=(
            "anthropic_messages('--model-path Qwen/Qwen3-8B --reasoning-parser hunyuan"
            f" --chat-template ' + T.name, thinking={ON})\n"
        ),
        note="<hunyuan-model> is stood in for by a model whose --chat-template carries"
        " Hunyuan's reasoning-effort switch (reasoning_effort, reasoning_mode_token, no_think);"
        " a Messages request with thinking enabled. The old example (deepseek-r1 parser with a"
        " custom template without a switch) passes: the parser's always-on mode decides",
    ),
]
