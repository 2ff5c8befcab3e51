"""Cases for errors/sglang/srt/entrypoints/openai/serving_tokenize.yaml: /v1/tokenize with
chat messages, handled by OpenAIServingTokenize on the server's chat handler
(`fixtures_verc.serving_chat`). sgl_kernel's no-op stand-in is installed first, as for the
chat handler's cases."""

from harness import case

SETUP = """\
import verify_fixtures
verify_fixtures.stub_sgl_kernel()
from fixtures_verc import serving_chat
from sglang.srt.entrypoints.openai.protocol import TokenizeRequest
from sglang.srt.entrypoints.openai.serving_tokenize import OpenAIServingTokenize

def tokenize_chat(flags, body):
    chat = serving_chat(flags)
    handler = OpenAIServingTokenize(chat.tokenizer_manager, chat.template_manager)
    return handler._tokenize_chat_request(TokenizeRequest(**body))

MESSAGES = [{"role": "user", "content": "hi"}]
SERVER = "--model-path Qwen/Qwen3-8B --chat-template chatml"
"""

CASES = [
    case(
        "46d0b1e1471e6c5e",
        setup=SETUP,
        before='tokenize_chat(SERVER, {"messages": MESSAGES, "add_generation_prompt": False})\n',
        after='tokenize_chat(SERVER, {"messages": MESSAGES})\n',
        note="the example's /v1/tokenize bodies sent to a server started with a built-in"
        " --chat-template name (chatml), the first situation; the handler returns the error"
        " message as a 400 response, raised here by the method that checks",
    ),
]
