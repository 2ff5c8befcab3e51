"""Cases for errors/sglang/srt/mem_cache/allocation.yaml and the Mamba state checks of
memory_pool.yaml: the run-time allocation functions called with small CPU pools built by
sglang's own allocator classes (fixtures_verb). These errors happen while a server runs, after
the scheduler's admission estimate and the allocator disagreed, so no launch command raises
them; each case gives the allocator a demand above its free slots, then one that fits (what
fewer running requests or smaller prefill chunks achieve)."""

from harness import case

_SETUP = "import fixtures_verb as fv\nimport torch\nfrom sglang.srt.mem_cache import allocation\n"

_EXTEND = (
    _SETUP + "def extend(cache, n, seq_len):\n"
    "    # n new requests (no cached prefix) of seq_len prompt tokens each\n"
    "    zeros = torch.zeros(n, dtype=torch.int64)\n"
    "    seq = torch.full((n,), seq_len, dtype=torch.int64)\n"
    "    return allocation.alloc_paged_token_slots_extend(\n"
    "        tree_cache=cache, prefix_lens=zeros, prefix_lens_cpu=zeros, seq_lens=seq,\n"
    "        seq_lens_cpu=seq, last_loc=torch.full((n,), -1, dtype=torch.int64),\n"
    "        extend_num_tokens=n * seq_len)\n"
)

_DECODE = (
    _SETUP + "def decode(cache, n, seq_len):\n"
    "    # one decode step of n requests whose next token opens a new page\n"
    "    seq = torch.full((n,), seq_len, dtype=torch.int64)\n"
    "    return allocation.alloc_paged_token_slots_decode(\n"
    "        tree_cache=cache, seq_lens=seq, seq_lens_cpu=seq,\n"
    "        last_loc=torch.arange(n, dtype=torch.int64) * 64 + 63)\n"
)

CASES = [
    case(
        "4139733218a3d30a",
        setup=_SETUP + "cache = fv.token_cache(1024)\n",
        before="allocation.alloc_token_slots(cache, 2048)\n",
        after="allocation.alloc_token_slots(cache, 512)\n",
        note="alloc_token_slots (page size 1) on a 1024-slot radix-cached pool: 2048 tokens at"
        " once fail, 512 fit; the catalog example's flags shrink the demand at run time",
    ),
    case(
        "13d0072dafc68bac",
        setup=_EXTEND + "cache = fv.token_cache(4096, page_size=128)\n",
        before="extend(cache, 3, 1500)\n",
        after="extend(cache, 2, 1500)\n",
        note="alloc_paged_token_slots_extend on a 4096-slot pool of 128-token pages (32 pages):"
        " three 1500-token prompts need 36 pages and fail, two need 24 and fit",
    ),
    case(
        "6f767864b51e692b",
        setup=_DECODE + "cache = fv.token_cache(1024, page_size=64)\n",
        before="decode(cache, 20, 65)\n",
        after="decode(cache, 10, 65)\n",
        note="alloc_paged_token_slots_decode on a 1024-slot pool of 64-token pages (16 pages):"
        " 20 requests that each open a new page fail, 10 fit",
    ),
    case(
        "59ddf5c9f0f0aa82",
        setup=_SETUP + "pool = fv.hybrid_req_pool(rows=2, mamba_slots=8)\n",
        before="allocation.alloc_req_slots(pool, [fv.new_req() for _ in range(3)], None)\n",
        after="allocation.alloc_req_slots(pool, [fv.new_req() for _ in range(2)], None)\n",
        note="alloc_req_slots on a request table of 2 rows (a Qwen3-Next-style hybrid pool with"
        " free Mamba slots): 3 new requests fail on the rows, 2 fit",
    ),
    case(
        "b108faf82364e604",
        setup=_SETUP + "pool = fv.hybrid_req_pool(rows=8, mamba_slots=2)\n",
        before="allocation.alloc_req_slots(pool, [fv.new_req() for _ in range(3)], None)\n",
        after="allocation.alloc_req_slots(pool, [fv.new_req() for _ in range(2)], None)\n",
        note="HybridReqToTokenPool.alloc through alloc_req_slots with free request rows but 2"
        " Mamba state slots: 3 new requests fail on the state slot, 2 fit",
    ),
]
