"""Cases for errors/sglang/multimodal_gen/configs/sample/sampling_params.yaml: the diffusion
request parameters (SamplingParams.__post_init__ / _validate)."""

from harness import case

CASES = [
    case("a23e360c2ce0e932"),
]
