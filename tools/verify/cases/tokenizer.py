"""Cases for errors/sglang/srt/utils/hf_transformers/tokenizer.yaml."""

from harness import case

CASES = [
    case(
        "72fdb8d8e391422a",
        setup=(
            "import verify_fixtures\n"
            "from sglang.srt.utils.hf_transformers.tokenizer import get_tokenizer\n"
            "TOK = verify_fixtures.hub_model('Qwen/Qwen3-8B')\n"
        ),
        before="get_tokenizer(TOK, tokenizer_backend='fastokens')\n",
        after="get_tokenizer(TOK)\n",
        note="get_tokenizer as the tokenizer manager calls it for --tokenizer-backend"
        " fastokens; the fixture's word-level tokenizer (a Whitespace pre-tokenizer, which"
        " fastokens 0.3.5 does not support) stands in for Kimi-K2's remote-code tokenizer",
    ),
]
