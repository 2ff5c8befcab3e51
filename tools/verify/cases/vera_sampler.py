"""Cases for errors/sglang/srt/layers/sampler.yaml."""

from harness import case

CASES = [
    case(
        "7ed35573cc857cac",
        setup=(
            "import verify_fixtures\n"
            "verify_fixtures.stub_sgl_kernel()  # sampler.py imports it on CUDA\n"
            "from sglang.srt.server_args import ServerArgs\n"
            "from sglang.srt.layers.sampler import create_sampler\n"
            "def engine_sampler(**kwargs):\n"
            "    server_args = ServerArgs(model_path=verify_fixtures.hub_model('Qwen/Qwen3-8B'),"
            " **kwargs)\n"
            "    verify_fixtures.published_rank0(server_args)\n"
            "    try:\n"
            "        return create_sampler()\n"
            "    except RuntimeError as e:  # Sampler() reads the TP group: none on CPU\n"
            "        if 'tp_group' not in str(e):\n"
            "            raise\n"
            "        print('backend accepted; Sampler() needs the TP group:', e)\n"
        ),
        before="engine_sampler(sampling_backend='torch')\n",
        after="engine_sampler(sampling_backend='pytorch')\n",
        note="the Engine's keyword arguments as ServerArgs (what sglang.Engine builds from"
        " them), resolved, validated and published for rank 0, then create_sampler() as the"
        " model runner calls it",
    ),
]
