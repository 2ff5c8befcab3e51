def module_level_check(flag):
    return flag


if not module_level_check(True):
    raise ImportError("module level guard failed")


class Engine:
    """An engine."""

    def start(self, mode, n):
        """Start the engine.

        More details here.
        """
        if mode == "fast":
            raise ValueError("fast mode is not supported")
        elif mode == "slow":
            raise ValueError("slow mode is not supported")
        else:
            if n:
                for _ in range(n):
                    raise ValueError(f"bad count {n}")
            raise ValueError(f"unknown mode {mode}")

    class Inner:
        def run(self, ok):
            if not ok:
                raise RuntimeError("inner run failed")


def outer(x):
    def inner(y):
        if y > x:
            raise ValueError(f"{y} exceeds {x}")
        return y

    return inner


async def fetch(url):
    if url.startswith("ftp:"):
        raise NotImplementedError(f"ftp is not supported: {url}")


def duplicated(x):
    if x == 1:
        raise ValueError("same message")
    if x == 2:
        raise ValueError("same message")
