"""errexplain.input.machine.idle_cores: how many scan workers start by default."""

from __future__ import annotations

import os

import pytest

from errexplain.input.machine import idle_cores


@pytest.fixture
def four_cores(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)


@pytest.mark.parametrize(
    ("line", "idle"),
    [
        ("0.10 0.20 0.30 1/230 4242\n", 4),  # only this process runs
        ("2.00 1.50 1.00 3/230 4242\n", 2),  # two others
        ("12.0 11.0 9.00 14/230 4242\n", 1),  # a busy machine: still one
    ],
)
def test_cores_less_the_other_running_tasks(tmp_path, four_cores, line, idle):
    path = tmp_path / "loadavg"
    path.write_text(line)
    assert idle_cores(str(path)) == idle


@pytest.mark.parametrize("text", [None, "", "garbage", "1 2 3 x/y 5"])
def test_no_usable_loadavg_means_every_core(tmp_path, four_cores, text):
    path = tmp_path / "loadavg"
    if text is not None:
        path.write_text(text)
    assert idle_cores(str(path)) == 4
