"""Memory-cache configuration checks that run on CPU."""

from harness import case

CASES = [
    case(
        "a2b9760c1299a923",
        setup=(
            "from types import SimpleNamespace\n"
            "from sglang.srt.mem_cache.storage.backend_factory import StorageBackendFactory\n"
            "def create(extra):\n"
            "    cfg = SimpleNamespace(extra_config=extra)\n"
            '    return StorageBackendFactory._do_create_backend("dynamic", cfg, None)\n'
        ),
        before='create({"module_path": "my_pkg.store"})\n',
        after=(
            "try:\n"
            '    create({"backend_name": "mystore", "module_path": "my_pkg.store",'
            ' "class_name": "MyHiCacheStorage"})\n'
            "except ImportError:\n"
            "    pass  # the field check passed; my_pkg is the user's own package\n"
        ),
        note="the factory call HiCache makes with the example's"
        " --hicache-storage-backend-extra-config; the after half stops at importing the"
        " user's (absent) module",
    ),
]
