#!/usr/bin/env bash
# Recreate the verify venv: CPU-only torch, sglang 0.5.23 without its dependencies (no CUDA
# packages), and the pinned light dependencies that sglang's configuration, argument, protocol
# and validation code imports (requirements.txt, a `pip freeze` of the venv the harness was
# measured with), and torchvision made importable beside CPU torch (cpu_torchvision.py).
#
#   tools/verify/venv.sh            # builds $ERREXPLAIN_VERIFY_VENV (default /work/verify-venv)
#
# Env: ERREXPLAIN_VERIFY_VENV (target), PYTHON (interpreter, default python3.11: sglang 0.5.23
# ships cp311 wheels), SGLANG_WHEEL (a local sglang-0.5.23 wheel; default: sglang==0.5.23 from
# the index), TORCH_INDEX (where the CPU torch wheel comes from when pip's find-links dir has
# none; default https://download.pytorch.org/whl/cpu).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${ERREXPLAIN_VERIFY_VENV:-/work/verify-venv}"
python="${PYTHON:-python3.11}"
sglang="${SGLANG_WHEEL:-sglang==0.5.23}"
torch_index="${TORCH_INDEX:-https://download.pytorch.org/whl/cpu}"

"$python" -m venv "$venv"
pip="$venv/bin/pip"
"$pip" install -q --upgrade pip
# The CPU build: a +cpu wheel in pip's find-links dir ($PIP_FIND_LINKS), else the CPU index.
"$pip" install -q torch==2.13.0 --extra-index-url "$torch_index"
"$pip" install -q --no-deps "$sglang"
# The full closure, pinned: no resolver run, so nothing pulls a CUDA package in.
"$pip" install -q --no-deps -r "$here/requirements.txt"
# sglang's config modules import torchvision.transforms; the wheel at hand is a CUDA build.
"$pip" install -q --no-deps torchvision==0.28.0
"$venv/bin/python" "$here/cpu_torchvision.py"
"$venv/bin/python" - <<'PY'
import torch, sglang.srt.server_args, sglang.srt.arg_groups.pipeline  # noqa: F401
assert not torch.cuda.is_available()
print("verify venv ready: torch", torch.__version__)
PY
