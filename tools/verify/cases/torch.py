"""Cases for the curated torch catalog (errors/torch/) whose path runs on the CPU build.

CUDA, NCCL and allocator messages need a GPU; those entries are read-checked instead.
"""

from functools import partial

from harness import case as _case

# Upstream CPU paths: the worker reports no GPU (no fake CUDA device).
case = partial(_case, gpu="cpu")

_STORE = """\
import socket
from datetime import timedelta
import torch.distributed as dist
def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
port = free_port()
"""

_CUDA_FILE = """\
import os, tempfile, torch
from torch import serialization
root = tempfile.mkdtemp(prefix="verify-ckpt-")
path = os.path.join(root, "adapter_model.bin")
# Save as a GPU machine would: storages tagged with the location "cuda:0".
serialization.register_package(1, lambda storage: "cuda:0", lambda storage, location: None)
torch.save({"lora_A.weight": torch.zeros(2, 2)}, path)
serialization._package_registry.pop(0)
os.chdir(root)
"""

CASES = [
    case(
        "473f6ae791356dec",
        setup="import torch\nproj = torch.nn.Linear(4096, 1024)",
        before="out = proj(torch.zeros(16, 5120))",
        after="out = proj(torch.zeros(16, 4096))",
    ),
    case(
        "06891204259890dc",
        setup="import torch\ncos = torch.zeros(4096, 64)\nq = torch.zeros(8192, 64)",
        before="rotated = q * cos",
        after="cos = torch.zeros(8192, 64)\nrotated = q * cos",
        note="a rotary cache shorter than the sequence; the after builds it for the full length",
    ),
    case(
        "25250f7d6de5a910",
        setup="import torch\nlogits = torch.zeros(0, 32)",
        before="last = logits[0]",
        after="last = logits[0] if logits.shape[0] else None",
    ),
    case(
        "7130f012f60ec398",
        setup="import torch\nprobs = torch.zeros(1, 4, 4)\n"
        "value = torch.zeros(1, 4, 8, dtype=torch.bfloat16)",
        before="out = torch.bmm(probs, value)",
        after="out = torch.bmm(probs.to(value.dtype), value)",
    ),
    case(
        "4471b6f5e33ca90d",
        setup="import torch\nproj = torch.nn.Linear(8, 8).to(torch.bfloat16)\n"
        "x = torch.zeros(2, 8)",
        before="out = proj(x)",
        after="out = proj(x.to(proj.weight.dtype))",
    ),
    case(
        "549f0b17a76df36b",
        setup="import torch\nattn = torch.zeros(16, 4096)",
        before="heads = attn.view(16, -1, 48, 128)",
        after="heads = attn.view(16, -1, 32, 128)",
    ),
    case(
        "ef3dc31c82113186",
        setup="import torch\nhidden = torch.tensor([70000.0, 1.0, 0.5])",
        before="probs = torch.softmax(hidden.half(), -1)\ntorch.multinomial(probs, 1)",
        after="probs = torch.softmax(hidden.bfloat16(), -1)\ntorch.multinomial(probs.float(), 1)",
        note="float16 overflows to inf (NaN after softmax); bfloat16 keeps the value finite",
    ),
    case(
        "45899f1e7a92db88",
        setup="import torch\nembed = torch.nn.Embedding(32000, 16)",
        before="h = embed(torch.tensor([1, 32000]))",
        after="h = embed(torch.tensor([1, 31999]))",
    ),
    case(
        "6efe33a341d7026c",
        setup="import torch\nnum_tokens = -1024",
        before="kv = torch.empty(num_tokens, 8, 128)",
        after="num_tokens = 1024\nkv = torch.empty(num_tokens, 8, 128)",
    ),
    case(
        "c9608c81c11f14c8",
        setup="import torch\nbsz, seq_len = 2, 3\nattn_out = torch.zeros(bsz, 4, seq_len, 8)",
    ),
    case(
        "5b3e56b4d37c0ec7",
        setup=_STORE,
        before="dist.barrier()",
        after=(
            "dist.init_process_group('gloo', init_method=f'tcp://127.0.0.1:{port}', "
            "rank=0, world_size=1)\n"
            "dist.barrier()\ndist.destroy_process_group()"
        ),
    ),
    case(
        "c33e294ab9007103",
        setup=_STORE,
        before="dist.TCPStore('127.0.0.1', port, 2, False, timeout=timedelta(seconds=3))",
        after=(
            "master = dist.TCPStore('127.0.0.1', port, 2, True, wait_for_workers=False)\n"
            "dist.TCPStore('127.0.0.1', port, 2, False, timeout=timedelta(seconds=3))"
        ),
        note="the after starts the store on the first node before the worker connects",
    ),
    case(
        "8b983b813d9c1606",
        setup=_STORE + "first = dist.TCPStore('127.0.0.1', port, 1, True)",
        before="second = dist.TCPStore('127.0.0.1', port, 1, True)",
        after="second = dist.TCPStore('127.0.0.1', free_port(), 1, True)",
    ),
    case("6e2ffc82b7005e76", setup=_CUDA_FILE),
]
