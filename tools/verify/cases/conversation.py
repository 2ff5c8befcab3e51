"""Cases for errors/sglang/srt/parser/conversation.yaml: chat requests rendered with a
built-in (non-Jinja) conversation template, as the chat handler does."""

from harness import case

CASES = [
    case("f165c2546df6ae15"),
    case("4d268fec97df0f43"),
    case("e467612524555cff"),
    case("d236ce05051c5949"),
]
