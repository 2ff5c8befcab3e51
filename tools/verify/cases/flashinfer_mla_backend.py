"""Cases for errors/sglang/srt/layers/attention/flashinfer_mla_backend.yaml."""

from harness import case

CASES = [
    case(
        "eccbc14b13e810ca",
        setup=(
            "import verify_fixtures\n"
            "from sglang.srt.arg_groups.model_override_base import attention_backends_of,"
            " resolved_view\n"
            "from sglang.srt.layers.attention.flashinfer_mla_backend import"
            " FlashInferMLAMultiStepDraftBackend\n"
            "def draft_decode(flags):\n"
            "    view = resolved_view(verify_fixtures.launched_args(flags))\n"
            "    assert attention_backends_of(view)[1] == 'flashinfer'\n"
            "    # DraftBackendFactory._create_flashinfer_decode_backend, MLA draft runner\n"
            "    FlashInferMLAMultiStepDraftBackend(\n"
            "        None, view.speculative_eagle_topk, view.speculative_num_steps)\n"
            "BASE = ('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --speculative-algorithm'\n"
            "        ' EAGLE --speculative-num-steps 3 --attention-backend flashinfer ')\n"
        ),
        before="draft_decode(BASE + '--speculative-eagle-topk 2 --speculative-num-draft-tokens 6')",
        after="draft_decode(BASE + '--speculative-eagle-topk 1 --speculative-num-draft-tokens 4')",
        note="the example's flags resolved as at launch, then the draft decode backend that"
        " DraftBackendFactory builds for flashinfer and an MLA draft, with the resolved topk and"
        " steps; the after half stops in the constructor at the missing model runner",
    ),
]
