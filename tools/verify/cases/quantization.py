"""Quantization config checks that run on CPU: the quantization classes' from_config with the
checkpoint's quantization_config dict (no weights, no GPU)."""

from harness import case

CASES = [
    case("726a89f9385aca24"),  # AWQConfig: 8-bit weights
    case("54074db16d1959a4"),  # Fp8Config: unknown activation scheme
    case("9cace74519be1810"),  # Fp8Config: block-wise on a non-serialized checkpoint
    case("0b905d10c3e277d8"),  # Fp8Config: block-wise with static activations
    case("8320364986a76e9b"),  # GPTQMarlinConfig: asymmetric weights
    case("79c4364253f0a494"),  # ModelOptFp4Config: unsupported quant_algo
]
