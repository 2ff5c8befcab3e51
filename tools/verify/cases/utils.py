"""sglang.srt.utils helpers that run on CPU."""

from harness import case

_FLASHINFER_MSG = (
    '"Please uninstall the old version and reinstall the latest version by following the '
    'instructions at https://docs.flashinfer.ai/installation.html."'
)

CASES = [
    case(
        "6e848c206ae1199d",
        setup="from sglang.srt.utils.common import assert_pkg_version",
        before=f'assert_pkg_version("flashinfer_python", "0.7.2", {_FLASHINFER_MSG})\n',
        after=(
            "import os\n"
            'os.environ["SGLANG_SKIP_SGL_KERNEL_VERSION_CHECK"] = "1"\n'
            f'assert_pkg_version("flashinfer_python", "0.7.2", {_FLASHINFER_MSG})\n'
        ),
        note="the engine start-up check itself, called as Engine start-up calls it for a flashinfer"
        " backend; flashinfer is not installed in the CPU venv. The after half is the documented"
        " bypass (SGLANG_SKIP_SGL_KERNEL_VERSION_CHECK=1); installing the package cannot run here",
    ),
    case(
        "54ad962ab72fcb3d",
        setup="from sglang.srt.utils.common import assert_pkg_version\nimport numpy",
        before='assert_pkg_version("numpy", "99.0", "Please upgrade.")\n',
        after='assert_pkg_version("numpy", numpy.__version__, "Please upgrade.")\n',
        note="the same function with an installed package (numpy) and a minimum above its version;"
        " the kernel packages the engine checks are not installed in the CPU venv",
    ),
    case("9b2d0228f2e289ff", gpu="cpu"),  # no device visible: get_device() when --device is omitted
]
