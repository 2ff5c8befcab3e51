"""Cases for errors/sglang/srt/layers/attention/hpc_ops_backend.yaml."""

from harness import case

CASES = [
    case(
        "1940c5bfb4c434cd",
        setup=(
            "import verify_fixtures\n"
            "import sglang.srt.layers.attention.hpc_ops_backend as hpc\n"
            "hpc.has_hpc_ops = lambda: True  # the hpc package is CUDA-only\n"
        ),
        before=(
            "verify_fixtures.attention_backends("
            "'--model-path Qwen/Qwen3-32B --attention-backend hpc_ops')\n"
        ),
        after="verify_fixtures.attention_backends('--model-path Qwen/Qwen3-32B')\n",
        gpu="A100",
        note="the fake A100 (SM80) is the example's premise; has_hpc_ops() is patched to True"
        " because the hpc package cannot be installed without CUDA (the SM check does not read"
        " it); the after half reaches the default backend's constructor",
    ),
]
