"""The catalog ships inside the wheel, with its prebuilt index: build, install in a fresh venv,
run from outside the repository."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent


@pytest.mark.slow
def test_wheel_installs_and_explains_outside_the_repo(tmp_path):
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o", str(dist), str(REPO)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    wheel = next(dist.glob("errexplain-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "errexplain/_index/catalog.idx" in names
    assert "errexplain/_index/regex.programs" in names
    assert "errexplain/_index/code.bundle" in names
    assert "errexplain/_catalog/sglang/project.yaml" in names
    # issue 12: the source snippets with their project's license, and the JSON Schema
    assert {"errexplain/_snippets/sglang.snip", "errexplain/_snippets/sglang.LICENSE"} <= set(names)
    assert "errexplain/schema.json" in names
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    # Dependencies come from this interpreter's site-packages (appended to sys.path, and .pth
    # files there are not processed, so the editable errexplain is not seen); errexplain itself
    # comes from the wheel.
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {
        "PATH": str(venv / "bin"),
        "HOME": str(tmp_path),
        "ERREXPLAIN_CACHE_DIR": str(tmp_path / "cache"),
    }
    r = subprocess.run(
        [str(venv / "bin" / "errexplain"), "lookup", "image QKV shapes must match"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert "hunyuan_qkv_pack_triton.py:173" in r.stdout
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import errexplain; print(errexplain.__file__)"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(venv) in where
    # first run after a wheel install builds no index, and writes nothing to the cache dir
    assert not list((tmp_path / "cache").glob("*"))
    # the piped path runs on the shipped regex programs and _startup's stand-ins: neither `re`
    # nor the stdlib modules the stand-ins replace are imported (each costs a share of the start)
    piped = (
        "import sys, io; from errexplain.cli import run_argv\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'ValueError: image QKV shapes must match'))\n"
        "sys.stdin.isatty = lambda: False\n"
        "code = run_argv(['errexplain'])\n"
        "heavy = ('re', 'functools', 'collections', 'enum', 'dataclasses', 'typing')\n"
        "print(int(code), [m for m in heavy if m in sys.modules], file=sys.stderr)\n"
    )

    def python(code: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(venv / "bin" / "python"), "-c", code],
            cwd=elsewhere,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    r = python(piped)
    assert r.stderr.strip().splitlines()[-1] == "0 []", r.stderr
    # the command serves the piped path's modules from the bundle, each with its own file
    served = (
        "from errexplain._bundle import install, MODULES\n"
        "assert install()\n"
        "import importlib, os\n"
        "for name in MODULES:\n"
        "    m = importlib.import_module(name)\n"
        "    assert type(m.__spec__.loader).__name__ == '_Finder', name\n"
        "    assert os.path.exists(m.__file__), name\n"
        "print('served', len(MODULES))\n"
    )
    r = python(served)
    assert r.returncode == 0 and r.stdout.startswith("served"), r.stderr
