"""Make a CUDA-built torchvision wheel importable on a CPU-only torch (run by venv.sh).

The only torchvision 0.28.0 wheel at hand is built against CUDA torch: its `_C.so`/`image.so`
link libtorch_cuda and fail to load beside the +cpu torch, after which torchvision's import
dies registering fake kernels for the ops `_C.so` would have defined. sglang's configuration
code imports `torchvision.transforms` (for image preprocessing, not for anything the harness
checks). This moves the two extensions aside and imports the op registrations only when the
ops exist; the pure-Python transforms keep working. Idempotent.
"""

from __future__ import annotations

import importlib.util
import os
import sys

OLD = "from torchvision import (\n    _autograd_registrations,\n    _meta_registrations,\n"
NEW = (
    "if extension._has_ops():  # patched by errexplain tools/verify/cpu_torchvision.py\n"
    "    from torchvision import _autograd_registrations, _meta_registrations\n"
    "from torchvision import (\n"
)


def main() -> int:
    spec = importlib.util.find_spec("torchvision")
    if spec is None or spec.origin is None:
        print("torchvision is not installed", file=sys.stderr)
        return 1
    pkg = os.path.dirname(spec.origin)
    for name in ("_C.so", "image.so"):
        path = os.path.join(pkg, name)
        if os.path.exists(path):
            os.replace(path, path + ".cuda")
    init = os.path.join(pkg, "__init__.py")
    with open(init, encoding="utf-8") as f:
        text = f.read()
    if NEW not in text:
        if OLD not in text:
            print("torchvision/__init__.py has an unexpected shape", file=sys.stderr)
            return 1
        with open(init, "w", encoding="utf-8") as f:
            f.write(text.replace(OLD, NEW))
    return 0


if __name__ == "__main__":
    sys.exit(main())
