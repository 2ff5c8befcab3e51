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
  (``node3.corp.example.com``, ``db.internal``) and EC2-style ``ip-10-0-0-1`` names; well-known
  public hosts (github.com, huggingface.co, pytorch.org, ...) and ``localhost`` are kept.

The same value gets the same placeholder within one :class:`Redactor`. Every pattern is
linear-time: no nested quantifiers and every repetition bounded; most rules can start only where
a lookbehind allows (not in the middle of a run), and each rule runs only when a cheap substring
test says it can match. What to replace is decided in Python, per match.
"""

from __future__ import annotations

from errexplain._startup import TYPE_CHECKING, compile_regex, memo

if TYPE_CHECKING:
    import re
    from collections.abc import Callable

KINDS = ("token", "password", "email", "user", "ip", "host")

_TOKENS = (
    r"(?<![A-Za-z0-9_])(?:"
    r"hf_[A-Za-z0-9]{30,80}"
    r"|sk-[A-Za-z0-9_-]{20,200}"
    r"|[sr]k_(?:live|test)_[A-Za-z0-9]{16,200}"
    r"|gh[pousr]_[A-Za-z0-9]{30,255}"
    r"|github_pat_[A-Za-z0-9_]{20,255}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,200}"
    r"|(?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[A-Z0-9]{16}"
    r"|eyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{0,2000}"
    r")(?![A-Za-z0-9_])"
)
_AUTH = r"(?i)(?<![A-Za-z0-9_])(bearer|basic)([ \t]{1,8})([A-Za-z0-9._~+/=-]{8,4096})"
_PAIR = (
    r"(?i)(password|passwd|secret|api_?key|apikey|access_?key|private_?key|token)"
    r"([\"']?[ \t]{0,3}[:=][ \t]{0,3}[\"']?)([^\s\"',;)}\]]{1,512})"
)
_URL = (
    r"(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{0,15}://)"
    r"(?:([^\s/?#@:<>]{0,128})(?::([^\s/?#@<>]{1,256}))?@)?([A-Za-z0-9.-]{1,253})?"
)
_EMAIL = r"(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-]{1,64})@([A-Za-z0-9-]{1,63}\.[A-Za-z0-9.-]{1,200})"
_HOME = r"(/home/|/Users/|[A-Za-z]:(?:\\{1,2}|/)Users(?:\\{1,2}|/))([^\s/\\:*?\"'<>|]{1,64})"
_IPV4 = r"(?<![\w.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\w.])"
_IPV4_END = r"(?<![\w.])\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\.(?!\w)"
_EC2 = r"(?<![\w-])ip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}(?![\w-])"
_IPV6 = r"(?<![\w:.])[0-9A-Fa-f:.]{2,45}(?![\w:])"
_DOTTED = r"(?<![\w.-])[A-Za-z0-9][A-Za-z0-9-]{0,62}\.[A-Za-z0-9.-]{1,200}"


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


HOST_TLDS = _words(
    "com net org edu gov mil int info biz io ai dev app cloud tech xyz internal local "
    "localdomain lan corp intra intranet priv home arpa cn uk de jp kr fr nl ru eu ca "
    "au sg ch se"
)
"""Top-level domains that make a dotted name a host name (not `.py`, `.so`, `.in`: files)."""
EMAIL_TLDS = HOST_TLDS | _words("co me us mail email")
PUBLIC_HOSTS = (
    "github.com",
    "githubusercontent.com",
    "huggingface.co",
    "hf.co",
    "pypi.org",
    "pythonhosted.org",
    "python.org",
    "pytorch.org",
    "nvidia.com",
    "sglang.ai",
    "readthedocs.io",
    "localhost",
)
"""Hosts (and their subdomains) kept as they are: public, and they tell where a file came from."""
_COMMON_USERS = _words(
    "root user users admin ubuntu runner jovyan vscode app home ec2-user colab public "
    "default shared guest test"
)
_SECRET_KEYS = frozenset(("password", "passwd", "secret"))


@memo(64)
def _rx(pattern: str) -> re.Pattern[str]:
    return compile_regex(pattern)


class Redactor:
    """Replaces what :data:`KINDS` names by `<kind-N>`; one instance keeps the numbering, so
    the same value gets the same placeholder in every text it redacts."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], str] = {}
        self.counts: dict[str, int] = dict.fromkeys(KINDS, 0)
        self._users: list[str] = []

    def placeholder(self, kind: str, value: str) -> str:
        key = (kind, value)
        if key not in self._seen:
            self.counts[kind] += 1
            self._seen[key] = f"<{kind}-{self.counts[kind]}>"
        return self._seen[key]

    def summary(self) -> str:
        """`2 tokens, 1 user name` (what was replaced; distinct values), or `nothing`."""
        names = {"user": "user name", "ip": "IP address", "email": "e-mail address"}
        parts = [
            f"{n} {names.get(k, k)}{'' if n == 1 else 'es' if k in ('ip', 'email') else 's'}"
            for k, n in self.counts.items()
            if n
        ]
        return ", ".join(parts) or "nothing"

    def __call__(self, text: str) -> str:
        lower = text.lower()
        steps: tuple[tuple[bool, str, Callable[[re.Match[str]], str]], ...] = (
            ("://" in text, _URL, self._url),
            (True, _TOKENS, lambda m: self.placeholder("token", m.group())),
            ("bearer" in lower or "basic" in lower, _AUTH, self._auth),
            (True, _PAIR, self._pair),
            ("@" in text, _EMAIL, self._email),
            ("users" in lower or "/home/" in text, _HOME, self._home),
        )
        for wanted, pattern, repl in steps:
            if wanted:
                text = _rx(pattern).sub(repl, text)
        text = self._other_user_words(text)
        if "." in text:
            text = _rx(_IPV4).sub(self._ipv4, text)
            text = _rx(_IPV4_END).sub(lambda m: self._ipv4_dot(m.group()), text)
        if "ip-" in text:
            text = _rx(_EC2).sub(lambda m: self.placeholder("host", m.group()), text)
        if "::" in text or text.count(":") > 2:
            text = _rx(_IPV6).sub(self._ipv6, text)
        if "." in text:
            text = _rx(_DOTTED).sub(self._dotted, text)
        return text

    # ------------------------------------------------------------------ one rule each

    def _url(self, m: re.Match[str]) -> str:
        scheme, user, password, host = m.group(1, 2, 3, 4)
        out = scheme
        if user is not None:
            out += self._user(user) if user else ""
            if password is not None:
                out += ":" + self.placeholder("password", password)
            out += "@"
        if host:
            out += self._host(host.rstrip(".-")) + host[len(host.rstrip(".-")) :]
        return out

    def _user(self, name: str) -> str:
        if name.startswith("<") or name.lower() in _COMMON_USERS:
            return name
        if name not in self._users:
            self._users.append(name)
        return self.placeholder("user", name)

    def _host(self, host: str) -> str:
        if not host or _public(host) or _is_ipv4(host):
            return self._ipv4_text(host) if _is_ipv4(host) else host
        return self.placeholder("host", host)

    def _auth(self, m: re.Match[str]) -> str:
        value = m.group(3)
        if value.isalpha() and value.islower():  # "bearer authentication": a word
            return m.group()
        return m.group(1) + m.group(2) + self.placeholder("token", value)

    def _pair(self, m: re.Match[str]) -> str:
        key, sep, value = m.group(1, 2, 3)
        if value.startswith("<") or value.lower() in ("none", "null", "true", "false", "***"):
            return m.group()
        if key.lower() not in _SECRET_KEYS and not _random_looking(value):
            return m.group()  # max_new_token=512, token: invalid: not a credential
        kind = "password" if key.lower().startswith("pass") else "token"
        return key + sep + self.placeholder(kind, value)

    def _email(self, m: re.Match[str]) -> str:
        local, domain = m.group(1, 2)
        trimmed = domain.rstrip(".-")
        rest = domain[len(trimmed) :]
        tld = trimmed.rsplit(".", 1)[-1]
        after = m.string[m.end() : m.end() + 1]
        if (
            after in ("(", "[")
            or not tld.isalpha()
            or not (tld.islower() or tld.isupper())
            or not (tld.lower() in EMAIL_TLDS or len(tld) == 2)
        ):
            return m.group()
        return self.placeholder("email", f"{local}@{trimmed}") + rest

    def _home(self, m: re.Match[str]) -> str:
        return m.group(1) + self._user(m.group(2))

    def _other_user_words(self, text: str) -> str:
        for name in self._users:
            if len(name) >= 3 and name in text:
                escaped = "".join("\\" + c if not c.isalnum() else c for c in name)
                pattern = rf"(?<![\w.-]){escaped}(?![\w-])"
                text = _rx(pattern).sub(self.placeholder("user", name), text)
        return text

    def _ipv4(self, m: re.Match[str]) -> str:
        return self._ipv4_text(m.group())

    def _ipv4_dot(self, text: str) -> str:
        return self._ipv4_text(text[:-1]) + "."

    def _ipv4_text(self, ip: str) -> str:
        if not _is_ipv4(ip) or ip.startswith("127.") or ip == "0.0.0.0":
            return ip
        return self.placeholder("ip", ip)

    def _ipv6(self, m: re.Match[str]) -> str:
        text = m.group()
        return self.placeholder("ip", text) if _is_ipv6(text) else text

    def _dotted(self, m: re.Match[str]) -> str:
        name = m.group()
        trimmed = name.rstrip(".-")
        labels = trimmed.split(".")
        tld = labels[-1]
        after = m.string[m.end() : m.end() + 1]
        if (
            len(labels) < 2
            or after == "("
            or tld.lower() not in HOST_TLDS
            or not (tld.islower() or tld.isupper())
            or _public(trimmed)
            or "" in labels
        ):
            return name
        return self.placeholder("host", trimmed) + name[len(trimmed) :]


def _random_looking(value: str) -> bool:
    """At least 8 characters, not a number, with a digit or a capital in it: a key."""
    return (
        len(value) >= 8 and not value.isdigit() and any(c.isdigit() or c.isupper() for c in value)
    )


def _public(host: str) -> bool:
    host = host.lower()
    return any(host == h or host.endswith("." + h) for h in PUBLIC_HOSTS)


def _is_ipv4(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 4 and all(p.isdigit() and len(p) <= 3 and int(p) <= 255 for p in parts)


def _is_ipv6(text: str) -> bool:
    """A real IPv6 address, not a timestamp, a MAC address or a slice (`x[1::2]`): it parses,
    and it has a four-digit group or at least four groups; loopback and `::` are kept."""
    if text.count(":") < 2:
        return False
    from ipaddress import AddressValueError, IPv6Address

    try:
        addr = IPv6Address(text)
    except (AddressValueError, ValueError):
        return False
    if addr.is_loopback or addr.is_unspecified:
        return False
    groups = [g for g in text.split(":") if g]
    return len(groups) >= 4 or any(len(g) == 4 for g in groups)


def redact(text: str, redactor: Redactor | None = None) -> str:
    """`text` with secrets and personal details replaced (see the module docstring)."""
    return (redactor or Redactor())(text)
