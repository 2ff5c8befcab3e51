"""Cases for checks that sglang runs after the server arguments were resolved, in code it
builds next (EPLB manager, DeepSeek V4 HiCache host pages): the example's flags resolved and
published for rank 0, then the function that holds the check, with stand-ins for what it is
handed and does not read."""

from harness import case

CASES = [
    case(
        "e28489638a36b8d8",
        setup="import verify_fixtures\n"
        "from sglang.srt.eplb.eplb_manager import EPLBManager\n"
        "def manager(flags):\n"
        "    verify_fixtures.published_rank0('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8'\n"
        "        ' --ep-size 8 --enable-eplb ' + flags)\n"
        "    none = lambda: None\n"
        "    return EPLBManager(model_config=None, get_model=none,\n"
        "        get_expert_location_updater=none, get_expert_backup_client=none,\n"
        "        get_weight_updater=none)\n",
        before="manager('--eplb-rebalance-num-iterations 500"
        " --expert-distribution-recorder-buffer-size 1000')\n",
        after="manager('--eplb-rebalance-num-iterations 500')\n",
        note="EPLBManager.__init__ (built by the model runner after the weights load) with the"
        " example's flags published for rank 0; its collaborators are getters it does not call"
        " at construction. The after half passes the check and goes on to the global expert"
        " recorder, which only a running scheduler sets up",
    ),
    case(
        "80ea9ca58176b1f3",
        setup="import fixtures_verb as fv\nfv.host_memory(512)\n"
        "geometry = dict(layers=61, device_swa_tokens=500_000, swa_page_bytes=256 * 1024)\n"
        "V4 = '--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 --enable-hierarchical-cache'\n",
        before="fv.dsv4_swa_host_pool(V4 + ' --hicache-size 100', **geometry)\n",
        after="fv.dsv4_swa_host_pool(V4 + ' --hicache-ratio 2', **geometry)\n",
        note="_deepseek_v4_num_host_pages (DeepSeek V4's host page counts) and the SWA host"
        " pool with the example's flags published for rank 0; the flags only carry the HiCache"
        " sizes, so the DeepSeek-V3 fixture stands in for V4 (no hub fixture); geometry and"
        " 512 GiB of free host RAM are chosen figures",
    ),
]
CASES.append(
    case(
        "fddfa10039ee7073",
        setup="import verify_fixtures\n"
        "from sglang.srt.eplb.expert_distribution import ExpertDistributionRecorder\n"
        "def start(flags):\n"
        "    verify_fixtures.published_rank0('--model-path deepseek-ai/DeepSeek-V3 --tp-size 8 '\n"
        "        + flags)\n"
        "    ExpertDistributionRecorder.init_new(None, 0).start_record()\n",
        before="start('')\n",
        after="start('--expert-distribution-recorder-mode stat')\n",
        note="the recorder the scheduler builds (ExpertDistributionRecorder.init_new) for the"
        " example's flags published for rank 0, then start_record as the"
        " /start_expert_distribution_record endpoint does. Without a mode it is the no-op"
        " recorder; with stat init_new builds the real one, which here stops at its missing"
        " ExpertLocationMetadata (the model's, made after the weights load)",
    )
)
