"""Cases for the curated huggingface_hub catalog (errors/huggingface_hub/): repo-id validation
and the offline / unreachable-Hub paths. Answers of the Hub itself (401/403/404 with error
codes) are read-checked instead.

A missing local path reaches validate_repo_id through snapshot_download (what sglang's weight
download calls for a model path that is not a directory); transformers' from_pretrained raises the
same text re-wrapped as OSError.
"""

from functools import partial

from harness import case as _case

# Upstream CPU paths: the worker reports no GPU (no fake CUDA device).
case = partial(_case, gpu="cpu")

_HUB = """\
import json, os, tempfile
import huggingface_hub.constants as hub_constants
from huggingface_hub import hf_hub_download, snapshot_download
from transformers import AutoConfig
import verify_fixtures
hub_constants.HF_HUB_CACHE = tempfile.mkdtemp(prefix="verify-hf-cache-")
def predownload(repo, files):
    # The cache layout `hf download <repo>` leaves behind.
    repo_dir = os.path.join(hub_constants.HF_HUB_CACHE, "models--" + repo.replace("/", "--"))
    commit = "0123456789abcdef0123456789abcdef01234567"
    os.makedirs(os.path.join(repo_dir, "refs"), exist_ok=True)
    with open(os.path.join(repo_dir, "refs", "main"), "w") as f:
        f.write(commit)
    snap = os.path.join(repo_dir, "snapshots", commit)
    os.makedirs(snap, exist_ok=True)
    for fname, content in files.items():
        with open(os.path.join(snap, fname), "w") as f:
            json.dump(content, f)
    return snap
UNREACHABLE = "http://127.0.0.1:9"   # nothing listens: every request fails to connect
"""

CASES = [
    case(
        "0547fd6b6de1f6dd",
        setup=_HUB,
        before="snapshot_download('/data/models/Llama-3.1-8B-Instruct')",
        after="AutoConfig.from_pretrained(verify_fixtures.model_dir())",
        note="an absolute path that does not exist here; the after passes an existing directory",
    ),
    case(
        "33d8d7a69ef432f4",
        setup=_HUB,
        before="snapshot_download('./Qwen3-8B')",
        after="AutoConfig.from_pretrained(os.path.realpath(verify_fixtures.model_dir()))",
        note="a relative path that does not exist from the working directory",
    ),
    case(
        "367ab48da9044a44",
        setup=_HUB
        + "snap = predownload('Qwen/Qwen3-8B', {'config.json': {'model_type': 'qwen3'}})",
        before="snapshot_download('models--Qwen--Qwen3-8B')",
        after="AutoConfig.from_pretrained(snap)",
        note="the cache folder's name given as a model; the after passes the snapshot directory",
    ),
    case(
        "112562ed2689ddd8",
        setup=_HUB + "from pathlib import Path\nmodel = Path(verify_fixtures.model_dir())",
        before="hf_hub_download(model, 'config.json')",
        after="AutoConfig.from_pretrained(str(model))",
        note="the directory exists: the after loads it as a local path instead of a Hub download",
    ),
    case(
        "c58bead7ea99065c",
        setup=_HUB,
        before="hf_hub_download('Qwen/Qwen3-8B', 'config.json', local_files_only=True)",
        after=(
            "predownload('Qwen/Qwen3-8B', {'config.json': {'model_type': 'qwen3'}})\n"
            "hf_hub_download('Qwen/Qwen3-8B', 'config.json', local_files_only=True)"
        ),
        note="sglang passes local_files_only=HF_HUB_OFFLINE to its hf_hub_download calls; the "
        "after fills the cache as `hf download` does",
    ),
    case(
        "8e10da3c8304c891",
        setup=_HUB,
        before="snapshot_download('Qwen/Qwen3-8B', local_files_only=True)",
        after=(
            "predownload('Qwen/Qwen3-8B', {'config.json': {'model_type': 'qwen3'}})\n"
            "snapshot_download('Qwen/Qwen3-8B', local_files_only=True)"
        ),
        note="what sglang's download_weights_from_hf calls under HF_HUB_OFFLINE=1",
    ),
    case(
        "05f0fc4852779bf0",
        setup=_HUB + "hub_constants.HF_HUB_OFFLINE = True",
        before="snapshot_download('Qwen/Qwen3-8B')",
        after=(
            "predownload('Qwen/Qwen3-8B', {'config.json': {'model_type': 'qwen3'}})\n"
            "snapshot_download('Qwen/Qwen3-8B')"
        ),
    ),
    case(
        "edc5518bf0a76ae9",
        setup=_HUB,
        before="hf_hub_download('Qwen/Qwen3-8B', 'config.json', endpoint=UNREACHABLE)",
        after=(
            "predownload('Qwen/Qwen3-8B', {'config.json': {'model_type': 'qwen3'}})\n"
            "hub_constants.HF_HUB_OFFLINE = True\n"
            "hf_hub_download('Qwen/Qwen3-8B', 'config.json', endpoint=UNREACHABLE)"
        ),
        note="the after populates the cache and turns offline mode on (solution 3)",
    ),
    case(
        "5d33e907abe20978",
        setup=_HUB,
        before="snapshot_download('Qwen/Qwen3-8B', endpoint=UNREACHABLE)",
        after=(
            "predownload('Qwen/Qwen3-8B', {'config.json': {'model_type': 'qwen3'}})\n"
            "hub_constants.HF_HUB_OFFLINE = True\n"
            "snapshot_download('Qwen/Qwen3-8B', endpoint=UNREACHABLE)"
        ),
        note="the after populates the cache and serves it with offline mode on",
    ),
]
