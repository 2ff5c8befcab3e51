"""Redaction: secrets and personal details in a paste replaced by stable placeholders before
anything is shown, matched or written (``--redact``, ``errexplain redact``). Pure: text in,
text out.

What is covered (the README lists the same):

* ``<token-N>``: Hugging Face (``hf_...``), OpenAI/Anthropic (``sk-...``), Stripe
  (``sk_live_...``), GitHub (``ghp_...``, ``github_pat_...``), Slack (``xox?-...``) tokens,
  JWTs, AWS access key ids (``AKIA...``), ``Bearer``/``Basic`` credentials, and the value of a
  ``secret:``, ``api_key=``, ``aws_secret_access_key=``, ``token=``... pair (for ``token`` and
  ``key`` pairs: a value of 8+ characters with a digit or a capital, not a number);
* ``<password-N>``: the password of a URL (``scheme://user:PASSWORD@host``) and of a
  ``password=``/``passwd:`` pair;
* ``<email-N>``: e-mail addresses;
* ``<user-N>``: the user name of a home path (``/home/NAME``, ``/Users/NAME``,
  ``C:\\Users\\NAME``), of a URL (``scheme://NAME@``), and that name wherever else it appears
  as a word;
* ``<ip-N>``: IPv4 and IPv6 addresses (not loopback ``127.x``/``::1`` nor ``0.0.0.0``/``::``);
* ``<host-N>``: the host of a URL, dotted names ending in a common or private top-level domain
  (``node3.corp.example.com``, ``db.internal``), EC2-style ``ip-10-0-0-1`` names, dotless names
  with a digit or a hyphen before a port (``gpu-node-17:29500``) or after a user name
  (``alice@node3``, whose user name becomes ``<user-N>``); well-known public hosts (github.com,
  huggingface.co, pytorch.org, ...) and ``localhost`` are kept;
* names the caller knows (:class:`Redactor` ``users``, ``hosts``, ``words``; the commands pass
  the running machine's login name and host name, and ``--redact-extra WORD``) wherever they
  appear as a word: ``<user-N>``, ``<host-N>``, ``<word-N>``.

The same value gets the same placeholder within one :class:`Redactor`.

Speed and safety: every pattern is linear-time (no nested quantifiers, every repetition bounded)
and starts with a literal or a small character set, so the regex engine skips ahead to where a
match can begin; a rule runs only when a cheap substring test says it can match. Word
boundaries and the start of a match that lies before its anchor (the local part of an e-mail
address before ``@``, a host name before its ``.com``) are checked in Python, per match, by
looking back a bounded number of characters.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, compile_regex, memo

if TYPE_CHECKING:
    import re
    from collections.abc import Callable

    Splice = tuple[int, int, str] | None
    """What a rule does with a match: replace text[start:end] by the string, or nothing."""

KINDS = ("token", "password", "email", "user", "ip", "host", "word")


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _cases(words: tuple[str, ...], capitalized: bool = True) -> str:
    """An alternation of each word in lower, UPPER (and Capitalized) case, longest first (a
    case-insensitive flag would cost the engine its fast scan for the first character)."""
    forms = set(words) | {w.upper() for w in words}
    if capitalized:
        forms |= {w[:1].upper() + w[1:] for w in words}
    return "|".join(sorted(forms, key=lambda f: (-len(f), f)))


TLDS = _words(
    "com net org edu gov mil int info biz io ai dev app cloud tech xyz internal local "
    "localdomain lan corp intra intranet priv home arpa cn uk de jp kr fr nl ru eu ca "
    "au sg ch se"
)
"""Top-level domains that make a dotted name a host name (not `.py`, `.so`, `.in`: files)."""
EMAIL_TLDS = frozenset(TLDS + _words("co me us mail email"))
PUBLIC_HOSTS = _words(
    "github.com githubusercontent.com huggingface.co hf.co pypi.org pythonhosted.org "
    "python.org pytorch.org nvidia.com sglang.ai readthedocs.io localhost"
)
"""Hosts (and their subdomains) kept as they are: public, and they tell where a file came from."""
_COMMON_USERS = frozenset(
    _words(
        "root user users admin ubuntu runner jovyan vscode app home ec2-user colab public "
        "default shared guest test"
    )
)
_SECRET_KEYS = ("password", "passwd", "secret")
_PAIR_KEYS = _SECRET_KEYS + _words("api_key api-key apikey access_key access-key private_key token")
_CAMEL_KEYS = _words("apiKey ApiKey accessKey AccessKey privateKey PrivateKey secretKey SecretKey")

_TOKENS = (
    # (substrings, one of which must be in the text; the pattern)
    (("hf_",), r"hf_[A-Za-z0-9]{30,80}"),
    (("sk-",), r"sk-[A-Za-z0-9_-]{20,200}"),
    (("k_live_", "k_test_"), r"[sr]k_(?:live|test)_[A-Za-z0-9]{16,200}"),
    (("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), r"gh[pousr]_[A-Za-z0-9]{30,255}"),
    (("github_pat_",), r"github_pat_[A-Za-z0-9_]{20,255}"),
    (("xox",), r"xox[abprs]-[A-Za-z0-9-]{10,200}"),
    (("AKIA", "ASIA", "ABIA", "ACCA", "AROA", "AIDA"), r"A(?:KIA|SIA|BIA|CCA|ROA|IDA)[A-Z0-9]{16}"),
    (("eyJ",), r"eyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{0,2000}"),
)
_AUTH = rf"({_cases(('bearer', 'basic'))})([ \t]{{1,8}})([A-Za-z0-9._~+/=-]{{8,4096}})"
_PAIR = (
    rf"({'|'.join((*_CAMEL_KEYS, _cases(_PAIR_KEYS)))})"
    r"([\"']?[ \t]{0,3}[:=][ \t]{0,3}[\"']?)([^\s\"',;)}\]]{1,512})"
)
_URL = r"://(?:([^\s/?#@:<>]{0,128})(?::([^\s/?#@<>]{1,256}))?@)?([A-Za-z0-9.-]{1,253})?"
_EMAIL = r"@([A-Za-z0-9-]{1,63}\.[A-Za-z0-9.-]{1,200})"
_NAME = r"([^\s/\\:*?\"'<>|]{1,64})"
_HOMES = ((("/home/",), "/home/" + _NAME), (("/Users/",), "/Users/" + _NAME))
_WIN_HOME = r"Users(?:\\{1,2}|/)" + _NAME
_IPV4 = r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}"
_EC2 = r"ip-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}"
_IPV6 = r":[0-9A-Fa-f:.]{1,44}"
_HOST_PORT = r"([A-Za-z][A-Za-z0-9-]{0,62}):([0-9]{2,5})(?![\w.:])"
_AT_HOST = r"@([A-Za-z][A-Za-z0-9-]{0,62})(?![\w.@-])"
_DOTTED = rf"\.(?:{_cases(TLDS, capitalized=False)})(?![A-Za-z0-9-])"

_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_LOCAL_CHARS = _TOKEN_CHARS | frozenset(".%+-")
_HOST_CHARS = _TOKEN_CHARS | frozenset(".-")
_HEX = frozenset("0123456789abcdefABCDEF")


@memo(64)
def _rx(pattern: str) -> re.Pattern[str]:
    return compile_regex(pattern)


def _rewrite(text: str, pattern: str, decide: Callable[[re.Match[str]], Splice]) -> str:
    """Apply `decide` to every match; splices that would overlap an earlier one are skipped."""
    out: list[str] = []
    last = 0
    for m in _rx(pattern).finditer(text):
        splice = decide(m)
        if splice is None or splice[0] < last:
            continue
        start, end, new = splice
        out += (text[last:start], new)
        last = end
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def _before(m: re.Match[str], start: int | None = None) -> str:
    i = m.start() if start is None else start
    return m.string[i - 1] if i > 0 else ""


def _after(m: re.Match[str], end: int | None = None) -> str:
    i = m.end() if end is None else end
    return m.string[i : i + 1]


def _back(text: str, i: int, chars: frozenset[str], limit: int) -> int:
    """Where a run of `chars` that ends at `i` starts (at most `limit` back; -1 if longer)."""
    j = i
    while j > 0 and text[j - 1] in chars:
        j -= 1
        if i - j > limit:
            return -1
    return j


class Redactor:
    """Replaces what :data:`KINDS` names by `<kind-N>`; one instance keeps the numbering, so
    the same value gets the same placeholder in every text it redacts."""

    def __init__(
        self, users: tuple[str, ...] = (), hosts: tuple[str, ...] = (), words: tuple[str, ...] = ()
    ) -> None:
        self._seen: dict[tuple[str, str], str] = {}
        self.counts: dict[str, int] = dict.fromkeys(KINDS, 0)
        self._users: list[str] = [u for u in users if u and u.lower() not in _COMMON_USERS]
        known = [("host", h) for h in hosts if h and not _public(h)]
        self._known = sorted(
            [*known, *(("word", w) for w in words if w)], key=lambda kv: -len(kv[1])
        )

    def placeholder(self, kind: str, value: str) -> str:
        key = (kind, value)
        if key not in self._seen:
            self.counts[kind] += 1
            self._seen[key] = f"<{kind}-{self.counts[kind]}>"
        return self._seen[key]

    def summary(self) -> str:
        """`2 tokens, 1 user name` (what was replaced; distinct values), or `nothing`."""
        names = {"user": "user name", "ip": "IP address", "email": "e-mail address"}
        names["word"] = "extra word"
        parts = [
            f"{n} {names.get(k, k)}{'' if n == 1 else 'es' if k in ('ip', 'email') else 's'}"
            for k, n in self.counts.items()
            if n
        ]
        return ", ".join(parts) or "nothing"

    def __call__(self, text: str) -> str:
        for wanted, pattern, decide in self._rules(text):
            if wanted:
                text = _rewrite(text, pattern, decide)
        for name in self._users:
            if len(name) >= 3 and name in text:
                text = _rewrite(text, _literal(name) + r"(?![\w-])", self._user_word)
        for kind, name in self._known:
            if name in text:
                text = _rewrite(text, _literal(name) + r"(?![\w-])", self._known_word(kind))
        for wanted, pattern, decide in self._network_rules(text):
            if wanted:
                text = _rewrite(text, pattern, decide)
        return text

    def _rules(self, text: str) -> list[tuple[bool, str, Callable[[re.Match[str]], Splice]]]:
        lower = text.lower()
        rules: list[tuple[bool, str, Callable[[re.Match[str]], Splice]]] = [
            ("://" in text, _URL, self._url)
        ]
        rules += [(_any(text, lit), pat, self._token) for lit, pat in _TOKENS]
        rules += [
            ("bearer" in lower or "basic" in lower, _AUTH, self._auth),
            (any(k in lower for k in ("pass", "secret", "key", "token")), _PAIR, self._pair),
            ("@" in text, _EMAIL, self._email),
        ]
        rules += [(_any(text, lit), pat, self._home) for lit, pat in _HOMES]
        rules.append(("Users" in text, _WIN_HOME, self._win_home))
        return rules

    def _network_rules(
        self, text: str
    ) -> list[tuple[bool, str, Callable[[re.Match[str]], Splice]]]:
        return [
            ("." in text, _IPV4, self._ipv4),
            ("ip-" in text, _EC2, self._ec2),
            (":" in text, _IPV6, self._ipv6),
            ("." in text, _DOTTED, self._dotted),
            (":" in text, _HOST_PORT, self._host_port),
            ("@" in text, _AT_HOST, self._at_host),
        ]

    # ------------------------------------------------------------------ one rule each

    def _url(self, m: re.Match[str]) -> Splice:
        text = m.string
        scheme = _back(text, m.start(), _LOCAL_CHARS - {"%", "_"}, 16)
        if scheme < 0 or scheme == m.start() or not text[scheme].isalpha():
            return None
        user, password, host = m.group(1, 2, 3)
        out = "://"
        if user is not None:
            out += (self._user(user) if user else "") + (
                ":" + self.placeholder("password", password) if password is not None else ""
            )
            out += "@"
        if host:
            trimmed = host.rstrip(".-")
            out += self._host(trimmed) + host[len(trimmed) :]
        return m.start(), m.end(), out

    def _user(self, name: str) -> str:
        if name.startswith("<") or name.lower() in _COMMON_USERS:
            return name
        if name not in self._users:
            self._users.append(name)
        return self.placeholder("user", name)

    def _host(self, host: str) -> str:
        if _is_ipv4(host):
            return self._ip4(host)
        if not host or _public(host):
            return host
        return self.placeholder("host", host)

    def _token(self, m: re.Match[str]) -> Splice:
        if _before(m) in _TOKEN_CHARS or _after(m) in _TOKEN_CHARS:
            return None  # inside a longer word
        return m.start(), m.end(), self.placeholder("token", m.group())

    def _auth(self, m: re.Match[str]) -> Splice:
        value = m.group(3)
        if _before(m) in _TOKEN_CHARS or (value.isalpha() and value.islower()):
            return None  # "bearer authentication": a word
        return m.start(3), m.end(3), self.placeholder("token", value)

    def _pair(self, m: re.Match[str]) -> Splice:
        key, value = m.group(1).lower(), m.group(3)
        if value.startswith("<") or value.lower() in ("none", "null", "true", "false", "***"):
            return None
        if key not in _SECRET_KEYS and not _random_looking(value):
            return None  # max_new_token=512, token: invalid: not a credential
        kind = "password" if key.startswith("pass") else "token"
        return m.start(3), m.end(3), self.placeholder(kind, value)

    def _email(self, m: re.Match[str]) -> Splice:
        text = m.string
        start = _back(text, m.start(), _LOCAL_CHARS, 64)
        if start < 0 or start == m.start():
            return None
        domain = m.group(1)
        trimmed = domain.rstrip(".-")
        tld = trimmed.rsplit(".", 1)[-1]
        end = m.start(1) + len(trimmed)
        if (
            _after(m, end) in ("(", "[")
            or not tld.isalpha()
            or not (tld.islower() or tld.isupper())
            or not (tld.lower() in EMAIL_TLDS or len(tld) == 2)
        ):
            return None
        return start, end, self.placeholder("email", text[start:end])

    def _home(self, m: re.Match[str]) -> Splice:
        return m.start(1), m.end(1), self._user(m.group(1))

    def _win_home(self, m: re.Match[str]) -> Splice:
        text, i = m.string, m.start()
        drive = text[max(0, i - 4) : i]
        if not (drive[-3:-2].isalpha() and drive[-2:] in (":\\", ":/")) and not (
            drive[:1].isalpha() and drive[1:] == ":\\\\"
        ):
            return None
        return self._home(m)

    def _user_word(self, m: re.Match[str]) -> Splice:
        if _before(m) in _HOST_CHARS:
            return None
        return m.start(), m.end(), self.placeholder("user", m.group())

    def _known_word(self, kind: str) -> Callable[[re.Match[str]], Splice]:
        def decide(m: re.Match[str]) -> Splice:
            if _before(m) in _HOST_CHARS:
                return None
            return m.start(), m.end(), self.placeholder(kind, m.group())

        return decide

    def _host_port(self, m: re.Match[str]) -> Splice:
        name = m.group(1)
        if _before(m) in _HOST_CHARS | {"/", "<", ":"} or not _host_like(name):
            return None
        if int(m.group(2)) > 65535:
            return None
        return m.start(1), m.end(1), self._host(name)

    def _at_host(self, m: re.Match[str]) -> Splice:
        """`alice@node3` (ssh, scp, MPI host lists): the user name and the dotless host."""
        text, name = m.string, m.group(1)
        if _before(m) == ">" and _host_like(name):  # the user name is a placeholder already
            return m.start(1), m.end(), self._host(name)
        start = _back(text, m.start(), _LOCAL_CHARS, 32)
        if start < 0 or m.start() - start < 2 or not _host_like(name):
            return None
        user = self._user(text[start : m.start()])
        return start, m.end(), f"{user}@{self._host(name)}"

    def _ipv4(self, m: re.Match[str]) -> Splice:
        after = _after(m)
        if _before(m) in _HOST_CHARS - {"-"} or after in _TOKEN_CHARS:
            return None
        if after == "." and m.string[m.end() + 1 : m.end() + 2] in _TOKEN_CHARS:
            return None  # 1.2.3.4.5, 1.2.3.4.post1: not an address
        return m.start(), m.end(), self._ip4(m.group())

    def _ip4(self, ip: str) -> str:
        if not _is_ipv4(ip) or ip.startswith("127.") or ip == "0.0.0.0":
            return ip
        return self.placeholder("ip", ip)

    def _ec2(self, m: re.Match[str]) -> Splice:
        if _before(m) in _HOST_CHARS or _after(m) in _HOST_CHARS:
            return None
        return m.start(), m.end(), self.placeholder("host", m.group())

    def _ipv6(self, m: re.Match[str]) -> Splice:
        text, seen = m.string, m.group()
        if "::" not in seen and seen.count(":") < 6:
            return None  # 12:34:56 (without "::" an address has 7 colons, 6 before an IPv4)
        start = _back(text, m.start(), _HEX, 4)
        if start < 0 or _before(m, start) in _TOKEN_CHARS | {":", "."}:
            return None
        if _after(m) in _TOKEN_CHARS:
            return None
        candidate = text[start : m.end()]
        for value in (candidate, candidate[:-1]):
            if _is_ipv6(value):
                return start, start + len(value), self.placeholder("ip", value)
        return None

    def _dotted(self, m: re.Match[str]) -> Splice:
        text = m.string
        if _after(m) == "." and text[m.end() + 1 : m.end() + 2] in _HOST_CHARS:
            return None  # the name goes on: a later top-level domain ends it
        start = _back(text, m.start(), _HOST_CHARS, 253)
        name = text[start : m.end()] if start >= 0 else ""
        if (
            not name
            or "_" in name
            or name[0] in ".-"
            or ".." in name
            or _after(m) == "("
            or _public(name)
        ):
            return None
        return start, m.end(), self.placeholder("host", name)


def _any(text: str, literals: tuple[str, ...]) -> bool:
    return any(lit in text for lit in literals)


def _literal(text: str) -> str:
    """`text` as a regex that matches it literally (re.escape without importing re)."""
    return "".join(c if c.isalnum() or c == "_" else "\\" + c for c in text)


def _random_looking(value: str) -> bool:
    """At least 8 characters, not a number, with a digit or a capital in it: a key."""
    return (
        len(value) >= 8 and not value.isdigit() and any(c.isdigit() or c.isupper() for c in value)
    )


def _host_like(name: str) -> bool:
    """A dotless name that looks like a machine (a digit or a hyphen in it, ending in a letter or
    digit), not a word such as `cuda` in `cuda:10` or `epoch` in `epoch:12`."""
    return (
        name[-1].isalnum()
        and any(c.isdigit() or c == "-" for c in name)
        and any(c.islower() for c in name)  # TP0:12, GPU1:80: ranks and devices, not hosts
    )


def _public(host: str) -> bool:
    host = host.lower()
    return any(host == h or host.endswith("." + h) for h in PUBLIC_HOSTS)


def _is_ipv4(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 4 and all(p.isdigit() and len(p) <= 3 and int(p) <= 255 for p in parts)


def _is_ipv6(text: str) -> bool:
    """A real IPv6 address, not a timestamp, a MAC address or a slice (`x[1::2]`): it has a
    four-digit group or at least four groups, and it parses; loopback and `::` are kept."""
    groups = [g for g in text.split(":") if g]
    if text.count(":") < 2 or not (len(groups) >= 4 or any(len(g) == 4 for g in groups)):
        return False
    from ipaddress import AddressValueError, IPv6Address

    try:
        addr = IPv6Address(text)
    except (AddressValueError, ValueError):
        return False
    return not (addr.is_loopback or addr.is_unspecified)


def redact(text: str, redactor: Redactor | None = None) -> str:
    """`text` with secrets and personal details replaced (see the module docstring)."""
    return (redactor or Redactor())(text)
