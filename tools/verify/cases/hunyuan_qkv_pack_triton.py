"""Cases for errors/sglang/kernels/ops/diffusion/rope/hunyuan_qkv_pack_triton.yaml: the fused
HunyuanVideo RoPE+pack wrapper's argument checks, called with CUDA tensor stand-ins
(verify_fixtures.cuda_tensor_stub) of HunyuanVideo's shapes: batch 1, 24 heads of 128, 1024
image and 256 text tokens."""

from harness import case

_SETUP = (
    "from verify_fixtures import cuda_tensor_stub as T\n"
    "from sglang.kernels.ops.diffusion.rope.hunyuan_qkv_pack_triton import"
    " hunyuan_qkv_rope_pack\n"
    "B, S_IMG, S_TXT, H, D = 1, 1024, 256, 24, 128\n"
    "def pack(img=(), txt=(), img_k=None, img_v=None, txt_k=None, txt_v=None, cs=None, **kw):\n"
    "    img = img or (B, S_IMG, H, D)\n"
    "    txt = txt or (B, S_TXT, H, D)\n"
    "    cs = cs or (S_IMG, img[-1] // 2)\n"
    "    return hunyuan_qkv_rope_pack(\n"
    "        T(*img, **kw.get('iq', {})), T(*(img_k or img)), T(*(img_v or img)),\n"
    "        T(*txt, **kw.get('tq', {})), T(*(txt_k or txt)),\n"
    "        T(*(txt_v or txt), **kw.get('tv', {})),\n"
    "        T(*cs), T(*cs))\n"
)
_NOTE = (
    "stand-in CUDA tensors (shape, dtype, device only): the after half passes every argument"
    " check and stops at the first allocation on the fake device"
)

CASES = [
    case(
        "a2dbabe63efa519d",
        setup=_SETUP,
        before="pack(img_k=(B, S_IMG, H * D))  # heads not split out of the hidden dim\n",
        after="pack()\n",
        note=_NOTE,
    ),
    case(
        "dbd80dc1a7548fa1",
        setup=_SETUP,
        before="pack(tq={'dtype': 'float16'})\n",
        after="pack()\n",
        note=_NOTE + "; the before's text query is float16",
    ),
    case(
        "1461c10263e922ed",
        setup=_SETUP,
        before="pack(tv={'device': 'cuda:1'})\n",
        after="pack()\n",
        note=_NOTE + "; the before's text value is on cuda:1",
    ),
    case(
        "ba3f475c0ac31b40",
        setup=_SETUP,
        before="pack(img_k=(B, S_IMG, 8, D), img_v=(B, S_IMG, 8, D))  # K/V with 8 heads\n",
        after="pack()  # K/V repeated to Q's 24 heads\n",
        note=_NOTE + "; the example's grouped K/V (8 heads against Q's 24) before and after"
        " repeat_interleave, as shapes",
    ),
    case(
        "589e6b43b18ce7fd",
        setup=_SETUP,
        before="pack(txt=(2, S_TXT, H, D))  # text batch doubled for guidance, image batch not\n",
        after="pack(img=(2, S_IMG, H, D), txt=(2, S_TXT, H, D))\n",
        note=_NOTE,
    ),
    case(
        "8124222d104cde5d",
        setup=_SETUP,
        before="pack(img=(B, S_IMG, 12, 256), txt=(B, S_TXT, 12, 256))\n",
        after="pack(img=(B, S_IMG, 24, 128), txt=(B, S_TXT, 24, 128))\n",
        note=_NOTE + "; a variant with head_dim 256, against HunyuanVideo's 128",
    ),
]
