"""Cases for errors/sglang/srt/managers/tokenizer_manager.yaml: the request checks the
tokenizer manager of a launched server runs before it sends a request to the scheduler.

Each half builds the manager for the example's launch command (`fixtures_verc.tokenizer_manager`)
and hands it the request the entry describes (`fixtures_verc.tokenize`: `_init_req_state`
then `_tokenize_one_request`, as `generate_request` does). The manager's module imports the
model layers, which import sgl_kernel on a CUDA host: the no-op stand-in is installed first
(no kernel runs in these checks).
"""

from harness import case

SETUP = (
    "import verify_fixtures\n"
    "verify_fixtures.stub_sgl_kernel()\n"
    "from fixtures_verc import tokenizer_manager, tokenize, generate_req, embedding_req\n"
)
LLAMA = "--model-path meta-llama/Llama-3.1-8B-Instruct"
QWEN3 = "--model-path Qwen/Qwen3-8B"
GTE = "--model-path Alibaba-NLP/gte-Qwen2-7B-instruct"
EMBEDS = "input_embeds=[[0.0] * 4096] * 5, sampling_params={'max_new_tokens': 16}"
YARN = (
    ' --json-model-override-args \'{"rope_scaling": {"rope_type": "yarn", "factor": 4.0,'
    ' "original_max_position_embeddings": 32768}, "max_position_embeddings": 131072}\''
    " --context-length 131072"
)
CLP = (
    "from sglang.srt.sampling.custom_logit_processor import DisallowedTokensLogitsProcessor\n"
    "REQ = dict(\n"
    "    text='Hello',\n"
    "    custom_logit_processor=DisallowedTokensLogitsProcessor().to_str(),\n"
    "    sampling_params={'custom_params': {'token_ids': [1, 2]}},\n"
    ")\n"
)
PAYLOAD = (
    "payload = {'text': 'Is it hot?', 'sampling_params': {'max_new_tokens': 1},"
    " 'return_logprob': True}\n"
)


def run(flags: str, request: str) -> str:
    """A half: the manager of `sglang serve FLAGS` tokenizes and checks `request`."""
    return f"tokenize(tokenizer_manager({flags!r}), {request})\n"


def mm_limits(limit: str) -> str:
    """A half: the manager of a server with this --limit-mm-data-per-request checks IMAGES."""
    flags = f"{LLAMA} --limit-mm-data-per-request '{limit}'"
    return f"tokenizer_manager({flags!r})._validate_mm_limits(generate_req(**IMAGES))\n"


CASES = [
    case(
        "27599d71f3a4aa41",
        setup=SETUP,
        before=run(LLAMA, f"generate_req({EMBEDS})"),
        after=run(f"{LLAMA} --disable-radix-cache", f"generate_req({EMBEDS})"),
        note="the example's launch commands, then a request with input_embeds (5 positions of"
        " the model's hidden size) as the entry describes",
    ),
    case(
        "2c75ad3a0b76298f",
        setup=SETUP + f"tm = tokenizer_manager({QWEN3 + ' --skip-tokenizer-init'!r})\n",
        before="tokenize(tm, generate_req(text='Hello', sampling_params={'max_new_tokens': 16}))\n",
        after=(
            f"tokenizer = tokenizer_manager({QWEN3!r}).tokenizer\n"
            "ids = tokenizer('Hello').input_ids\n"
            "tokenize(tm, generate_req(input_ids=ids, sampling_params={'max_new_tokens': 16}))\n"
        ),
        note="Engine(skip_tokenizer_init=True) is the launch flag --skip-tokenizer-init; the"
        " example's generate calls are the requests handed to that engine's tokenizer manager"
        " (the after half tokenizes with the model's own tokenizer, as the client would)",
    ),
    case(
        "63fd24aaf1688d05",
        setup=SETUP + "PROMPT = list(range(1, 61710))  # 61709 tokens, as in the example message\n",
        before=run(QWEN3, "generate_req(input_ids=PROMPT, sampling_params={'max_new_tokens': 16})"),
        after=run(
            QWEN3 + YARN, "generate_req(input_ids=PROMPT, sampling_params={'max_new_tokens': 16})"
        ),
        note="the example's launch commands (Qwen3-8B: 40960 positions; with the YaRN override"
        " and --context-length 131072), then a 61709-token prompt as in the example message."
        " The old after half (rope_scaling only) failed at startup: the context length is"
        " derived from max_position_embeddings, so --context-length 131072 was refused",
    ),
    case(
        "5764ceff49c5d189",
        setup=SETUP
        + f"tm = tokenizer_manager({LLAMA + ' --context-length 32768'!r})\n"
        + "PROMPT = list(range(1, 8193))  # 8192 tokens of chat messages\n",
        before="tokenize(tm, generate_req(input_ids=PROMPT,"
        " sampling_params={'max_new_tokens': 32768}))\n",
        after="tokenize(tm, generate_req(input_ids=PROMPT,"
        " sampling_params={'max_new_tokens': 4096}))\n",
        note="the chat completion's max_tokens becomes the request's max_new_tokens"
        " (ChatCompletionRequest.to_sampling_params); a server with a 32768-token context and an"
        " 8192-token prompt, as in the example message",
    ),
    case(
        "9fb393b524b3b3a5",
        setup=SETUP,
        before=run(GTE, "embedding_req(text='what is the capital of')"),
        after=run(f"{GTE} --is-embedding", "embedding_req(text='what is the capital of')"),
        note="the example's launch commands (gte-Qwen2-7B-instruct's config names the causal-LM"
        " class Qwen2ForCausalLM), then an embedding request (/v1/embeddings)",
    ),
    case(
        "9b29b0f4de8e0e4b",
        setup=SETUP + "REQ = dict(text='Hello', return_hidden_states=True)\n",
        before=run(QWEN3, "generate_req(**REQ)"),
        after=run(f"{QWEN3} --return-hidden-states-mode full", "generate_req(**REQ)"),
        note="the example's launch commands, then a request with return_hidden_states=True",
    ),
    case(
        "e94ddd0a6da8198a",
        setup=SETUP + CLP,
        before=run(LLAMA, "generate_req(**REQ)"),
        after=run(f"{LLAMA} --enable-custom-logit-processor", "generate_req(**REQ)"),
        note="the example's launch commands, then a request carrying one of sglang's own"
        " serialized custom logit processors",
    ),
    case(
        "0ba9f6264b198a37",
        setup=SETUP + "IMAGES = dict(text='Describe the pictures.', image_data=['a.png'] * 4)\n",
        before=mm_limits('{"image": 1}'),
        after=mm_limits('{"image": 8}'),
        note="the example's --limit-mm-data-per-request values with a four-image request;"
        " _tokenize_one_request calls _validate_mm_limits only for a model with a multimodal"
        " processor, which the config-only fixtures lack (no image processor files), so the"
        " check is called directly on a text model's manager; it reads only the published"
        " limit and the request's image_data",
    ),
    case(
        "b388f21c8e42d7a3",
        setup=SETUP + f"tm = tokenizer_manager({LLAMA!r})\n" + PAYLOAD,
        before=(
            "payload['token_ids_logprob'] = [151644, 151645]  # Qwen ids sent to a Llama-3 server\n"
            "tokenize(tm, generate_req(**payload))\n"
        ),
        after=(
            "payload['token_ids_logprob'] = tm.tokenizer.convert_tokens_to_ids(['hot', 'word'])\n"
            "tokenize(tm, generate_req(**payload))\n"
        ),
        note="the example's /generate payload handed to a Llama-3.1 server's tokenizer manager"
        " (vocab_size 128256); the after half takes the ids from the served model's tokenizer"
        " (the fixture's word-level tokenizer stands in for Llama's)",
    ),
    case(
        "bcbe298a5acfb065",
        setup=SETUP + f"tm = tokenizer_manager({LLAMA!r})\nimport uuid\n",
        before=(
            "for p in ['hot', 'word']:  # the first is still in flight: nothing answers here\n"
            "    tokenize(tm, generate_req(text=p, rid='job-1'))\n"
        ),
        after=(
            "for p in ['hot', 'word']:\n"
            "    tokenize(tm, generate_req(text=p, rid=f'job-{uuid.uuid4().hex}'))\n"
        ),
        note="the example's two /generate bodies handed to one tokenizer manager; no scheduler"
        " answers, so the first request is still in flight when the second arrives",
    ),
]

# errors/sglang/srt/managers/tokenizer_control_mixin.yaml: the mixin's methods run on the
# tokenizer manager
OPEN_SESSION = """\
import asyncio
from sglang.srt.managers.io_struct import OpenSessionReqInput

def open_session(flags):
    tm = tokenizer_manager(flags)
    tm.event_loop = asyncio.new_event_loop()  # no handle loop: nothing to receive
    # the scheduler's reply, as _handle_open_session_req_output delivers it
    tm._dispatch_to_scheduler = lambda obj: tm.session_futures[obj.session_id].set_result(
        obj.session_id
    )
    req = OpenSessionReqInput(capacity_of_str_len=1000, streaming=True)
    return tm.event_loop.run_until_complete(tm.open_session(req))
"""

CASES += [
    case(
        "84c0afee1ae90bea",
        setup=SETUP + OPEN_SESSION,
        before=f"open_session({QWEN3!r})\n",
        after=f"open_session({QWEN3 + ' --enable-streaming-session'!r})\n",
        note="the example's launch commands, then /open_session with streaming=true handed to"
        " the tokenizer manager; a stand-in for the scheduler answers the open request",
    ),
]
