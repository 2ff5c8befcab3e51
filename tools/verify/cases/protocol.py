"""Cases for errors/sglang/srt/entrypoints/openai/protocol.yaml: the OpenAI request models.

The request-model validators raise inside pydantic, which wraps the ValueError in a
ValidationError ("1 validation error for ...\n  Value error, <message> [type=value_error ...]").
errexplain does not read that wrapper yet, so those cases re-raise the validator's own error
(pydantic keeps it in errors()[0]["ctx"]["error"]); the code run is the catalog's example."""

from harness import case

UNWRAP = """\
import pydantic
try:
{body}except pydantic.ValidationError as exc:
    raise exc.errors()[0]["ctx"]["error"] from None
"""

NOTE = (
    "the example raises pydantic's ValidationError around the validator's ValueError; the case "
    "re-raises the ValueError itself (errexplain does not read the wrapper)"
)


def wrapped(text: str) -> str:
    body = "".join("    " + line + "\n" for line in text.splitlines())
    return UNWRAP.format(body=body)


BEFORE = {
    "1653cb8c33582295": (
        "from sglang.srt.entrypoints.openai.protocol import CompletionRequest\n"
        "# the JSON body of a /v1/completions request\n"
        'CompletionRequest.model_validate({"model": "default", "prompt": "Hi", '
        '"max_tokens": 0, "echo": True, "logprobs": 1})'
    ),
    "5b5e33f3a9264588": (
        "from sglang.srt.entrypoints.openai.protocol import ChatCompletionRequest\n"
        'ChatCompletionRequest.model_validate({"messages": [{"role": "user", "content": "Hi"}, '
        '{"role": "model", "content": "Hello"}]})'
    ),
    "162bb8d6e955842f": (
        "from sglang.srt.entrypoints.openai.protocol import ChatCompletionRequest\n"
        'ChatCompletionRequest.model_validate({"messages": [{"role": "user", "content": "Hi"}], '
        '"reasoning": {"effort": "auto"}})'
    ),
    "73f505f612c0f9ad": (
        "from sglang.srt.entrypoints.openai.protocol import V1RerankReqInput\n"
        'V1RerankReqInput.model_validate({"query": "q", "documents": ["a", "b"], "top_n": 0})'
    ),
    "4a424fb7734b94d0": (
        "from sglang.srt.entrypoints.openai.protocol import TokenizeRequest\n"
        'TokenizeRequest.model_validate({"text": "hello"})   # the body of a /v1/tokenize request'
    ),
}

CASES = [
    *(case(entry, before=wrapped(text), note=NOTE) for entry, text in BEFORE.items()),
    case("4c7f556c3efbf544"),
]
