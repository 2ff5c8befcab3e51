"""Cases for errors/sglang/srt/layers/linear.yaml: the weight loaders of the parallel linear
layers, built for TP rank 0 on the meta device (shapes only) and handed a checkpoint tensor
of the example's shape, as the model loader does."""

from harness import case

_SETUP = (
    "import torch\n"
    "from fixtures_vera import tp_rank0, load_meta\n"
    "from sglang.srt.layers.linear import ColumnParallelLinear, QKVParallelLinear,"
    " RowParallelLinear\n"
)

CASES = [
    case(
        "26dfb7c05aa29259",
        setup=_SETUP
        + "tp_rank0(1)\n"
        + "def fc1(config_hidden):\n"
        + "    with torch.device('meta'):\n"
        + "        return ColumnParallelLinear(config_hidden, 10240, bias=False,"
        " params_dtype=torch.float16, prefix='model.layers.0.mlp.fc1')\n",
        before="load_meta(fc1(2560), 'weight', (10240, 2048))  # config hidden_size 2560\n",
        after="load_meta(fc1(2048), 'weight', (10240, 2048))  # hidden_size fixed to 2048\n",
        note="the example's phi-style fc1 (a ColumnParallelLinear, hidden_size -> 10240) built"
        " from the config's hidden_size, given the checkpoint's [10240, 2048] weight",
    ),
    case(
        "fca5862bfb60d31c",
        setup=_SETUP
        + "tp_rank0(1)\n"
        + "def qkv(config_hidden):\n"
        + "    with torch.device('meta'):\n"
        + "        return QKVParallelLinear(config_hidden, 128, 32, 8, bias=False,"
        " params_dtype=torch.float16, prefix='model.layers.0.self_attn.qkv_proj')\n",
        before="load_meta(qkv(5120), 'weight', (4096, 4096), 'q')  # config hidden_size 5120\n",
        after="load_meta(qkv(4096), 'weight', (4096, 4096), 'q')  # hidden_size fixed to 4096\n",
        note="the example's model as a Llama-8B-shaped attention (32 heads of 128, 8 KV heads):"
        " its qkv_proj built from the config's hidden_size, given the checkpoint's q_proj"
        " [4096, 4096]",
    ),
    case(
        "9841d959975c2d5f",
        setup=_SETUP
        + "tp_rank0(4)\n"
        + "def o_proj(config_hidden):\n"
        + "    with torch.device('meta'):\n"
        + "        return RowParallelLinear(4096, config_hidden, bias=False,"
        " params_dtype=torch.float16, prefix='model.layers.0.self_attn.o_proj')\n",
        before="load_meta(o_proj(3584), 'weight', (4096, 4096))  # config hidden_size 3584\n",
        after="load_meta(o_proj(4096), 'weight', (4096, 4096))  # hidden_size fixed\n",
        note="TP rank 0 of --tp-size 4: an o_proj (RowParallelLinear, 4096 -> hidden_size)"
        " built from the config's hidden_size, given the checkpoint's [4096, 4096] weight",
    ),
]
