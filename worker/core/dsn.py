"""Database URLs: parse, redact, and recognise the Supabase transaction pooler."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import SplitResult, parse_qsl, quote, unquote, urlsplit

from worker.core.errors import InvalidInput

SUPABASE_TRANSACTION_POOLER_PORT = 6543
_SCHEMES = ("postgres", "postgresql")
Pooler = Literal["session", "transaction"]


@dataclass(frozen=True)
class DatabaseUrl:
    url: str
    host: str
    port: int
    database: str
    # What sits between us and Postgres, once known (worker/db/pooler.py); None: judged by the port alone.
    pooler: Pooler | None = None

    @property
    def redacted(self) -> str:
        return redact(self.url)

    @property
    def where(self) -> str:
        """Host and port as a user should see them in an error: never the password."""
        return f"{self.host}:{self.port}"

    def parameter(self, name: str) -> str | None:
        return url_parameter(self.url, name)

    @property
    def password_given(self) -> bool:
        """Whether the URL gives a password, in its address or as `?password=`."""
        return bool(urlsplit(self.url).password) or self.parameter("password") is not None

    @property
    def is_transaction_pooler(self) -> bool:
        """A transaction pooler (pgbouncer in transaction mode, Supabase's port 6543) has no LISTEN, no session
        locks and no prepared statements."""
        if self.pooler is not None:
            return self.pooler == "transaction"
        return self.port == SUPABASE_TRANSACTION_POOLER_PORT


# What libpq and asyncpg accept; anything else fails at the first connection with the driver's own words (for
# target_session_attrs a line that prints a Python object instead of the choices).
URL_CHOICES = {
    "sslmode": ("disable", "allow", "prefer", "require", "verify-ca", "verify-full"),
    "target_session_attrs": ("any", "primary", "standby", "prefer-standby", "read-write", "read-only"),
}


def parse_database_url(url: str) -> DatabaseUrl:
    """The one reading of a database URL: refused, in the run's words and without its password, where asyncpg
    and libpq would read it differently or fail on it later."""
    parts, port = _split(url)
    _check_pairs(url, parts.query)
    _check_choices(url, parts.query)
    ports, hosts = _query_server(url, parts.query, port)
    database = _database(url, parts.path, parts.query) or parts.username or "postgres"
    host, port = _server(url, parts.hostname, port, ports, hosts)
    return DatabaseUrl(url=url.strip(), host=host, port=port, database=database)


def _query_server(url: str, query: str, port: int | None) -> tuple[list[str], list[str]]:
    """The ports and hosts the query gives (asyncpg takes them there too): each one, and one port of digits."""
    ports = [p.strip() for value in _query_values(query, "port") for p in value.split(",")]
    if port == 0 or not all(_is_port(p) for p in ports):
        raise InvalidInput("malformed_url_port", url=redact(url))
    hosts = _query_values(query, "host")
    if any("," in host for host in hosts):  # several, as in the address above
        raise InvalidInput("url_several_hosts", url=redact(url))
    return ports, hosts


def _server(url: str, hostname: str | None, port: int | None, ports: list[str], hosts: list[str]) -> tuple[str, int]:
    """Host and port: the address's, else the query's, else localhost:5432."""
    if not hostname:
        return next(iter(hosts), "") or "localhost", port or (int(ports[0]) if ports else 5432)
    # asyncpg then reads neither `host=` nor `port=` of the query; psql reads them both: they must agree
    port = port or 5432
    _named_once(url, "host", hostname, f"{hostname}:{port}", hosts)
    _named_once(url, "port", str(port), f"{hostname}:{port}", ports)
    return hostname, port


def _split(url: str) -> tuple[SplitResult, int | None]:
    """The URL's parts and its address's port, or what is wrong with how it is written."""
    if _raw_in_userinfo(url):  # asyncpg and libpq would each read another user, password or host out of it
        raise _malformed(url)
    if "," in _host_part(url):  # asyncpg would try each in turn; one address is what every line here names
        raise InvalidInput("url_several_hosts", url=redact(url))
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        # Not the parser's message: it can quote the password back (a '#' in it makes the rest a "port").
        raise _unsplittable(url, exc) from None
    if parts.scheme not in _SCHEMES or (not parts.netloc and "://" not in url):
        # `postgres:pw@host/db` has no address part: asyncpg read it as a database named `pw@host/db`
        raise InvalidInput("bad_scheme", url=redact(url))
    return parts, port


def _unsplittable(url: str, exc: ValueError) -> InvalidInput:
    if "[" in _host_part(url) or "]" in _host_part(url):  # the host's brackets: not the password's
        key = "malformed_url_brackets" if "IPv6" in str(exc) else "url_ipv4_in_brackets"
        return InvalidInput(key, url=redact(url))
    if _port_is_wrong(url):
        return InvalidInput("malformed_url_port", url=redact(url))
    return _malformed(url)


def _malformed(url: str) -> InvalidInput:
    return InvalidInput("malformed_url", url=redact(url), example=_encoding_example(url))


def _check_pairs(url: str, query: str) -> None:
    for pair in query.split("&") if query else ():
        key, equals, _ = pair.partition("=")
        if "@" in key:  # a key with an '@': the rest of a user or password with a raw '?'
            raise _malformed(url)
        if not key or not equals:  # asyncpg's own words for these are an internal error
            shown = "=…" if equals else unquote(pair)  # what follows `=` could be a password
            raise InvalidInput("url_bad_parameter", url=redact(url), pair=shown)


def _check_choices(url: str, query: str) -> None:
    """A parameter with a few allowed values has one of them, every time it is given."""
    for name, choices in URL_CHOICES.items():
        value = next((value for value in _query_values(query, name) if value not in choices), None)
        if value is not None:
            raise InvalidInput("bad_url_choice", url=redact(url), name=name, value=value, modes=", ".join(choices))


def _named_once(url: str, name: str, value: str, server: str, in_query: list[str]) -> None:
    """A URL that gives the host (or port) in its address and another in its query: asyncpg uses the address's,
    libpq the query's. One URL, two servers: refused unless they agree."""
    other = next((given for given in in_query if given.strip("[]") != value), None)
    if other is not None:
        raise InvalidInput("url_named_twice", url=redact(url), server=server, name=name, query=other)


def _database(url: str, path: str, query: str) -> str:
    """The database the driver connects to: the path's, else the last `dbname=`. asyncpg reads a path, even a
    bare `/`, before the query and libpq the other way round: a URL with both would mean one database here and
    another in psql, so it is refused unless they agree."""
    in_path = unquote(path.lstrip("/"))
    in_query = _query_values(query, "dbname")
    if path and any(name != in_path for name in in_query):
        raise InvalidInput("url_two_databases", url=redact(url), path=in_path, query=in_query[-1])
    return in_path or (in_query[-1] if in_query else "")


def url_parameter(url: str, name: str) -> str | None:
    """The last value of a parameter in a URL's query (the one asyncpg uses), None when it is not given."""
    found = _query_values(urlsplit(url.strip()).query, name)
    return found[-1] if found else None


def url_search_path(url: str) -> str | None:
    """The search_path a URL gives the session: as its own parameter, or as a server option in `options`
    (`-c search_path=x`, `--search_path=x`), which libpq and asyncpg both pass on."""
    given = url_parameter(url, "search_path")
    options = url_parameter(url, "options") or ""
    in_options = re.findall(r"(?:-c\s*|--)search_path=(\S+)", options)
    return in_options[-1] if in_options else given


def certificate_files(url: str) -> list[tuple[str, str]]:
    """The certificate and key files a URL names, as (parameter, path), in order (an empty one is none)."""
    names = ("sslrootcert", "sslcert", "sslkey", "sslcrl")
    return [(name, value) for name, value in parse_qsl(urlsplit(url).query) if name in names]


def _query_values(query: str, name: str) -> list[str]:
    """Every value the parameter is given, in order (`?sslmode=` gives one empty value)."""
    return [unquote(value) for key, _, value in (pair.partition("=") for pair in query.split("&")) if key == name]


def _is_port(text: str) -> bool:
    text = text.strip()
    return text.isascii() and text.isdigit() and len(text) <= 5 and 1 <= int(text) <= 65535


def _raw_in_userinfo(url: str) -> bool:
    """A character in the user or password as written (up to the last `@` before the query's first `=`: an `@`
    after that is a parameter's value) that ends them early unless encoded: a `#`, `/` or `?` (the parsers take what
    follows for a fragment, a path or a query) or a second `@` (asyncpg and psql split at the first, Python's
    urlsplit at the last)."""
    rest = url.strip().partition("//")[2]
    equals = rest.find("=")
    at = (rest[:equals] if equals != -1 else rest).rfind("@")
    return at != -1 and any(ch in "#/?@[]" for ch in rest[:at])


def _encoding_example(url: str) -> str:
    """How the first character that must be encoded, where the user and password stand, is written (`@ is %40`);
    `#` when none is seen. Only the character is named, never the password around it."""
    rest = url.strip().partition("//")[2]
    found = next((ch for ch in rest[: rest.rfind("@")] if ch in "#/?@[]"), "#")
    return f"{found} is {quote(found, safe='')}"


def _host_part(url: str) -> str:
    """Host and port as written, right of the last `@` (what is left of it is the user's and the password's)."""
    rest = url.strip().partition("//")[2]
    return re.split(r"[/?#]", rest[rest.rfind("@") + 1 :], maxsplit=1)[0]


def _port_is_wrong(url: str) -> bool:
    """Whether what stands after the host's colon is no port (`:abc`, `:70000`). Read from the right of the
    last `@`, so that a password with `/`, `#` or `?` in it is never taken for a host and port."""
    after_host = _host_part(url).rpartition("]")[2]  # an IPv6 address is bracketed
    if ":" not in after_host:
        return False
    return not _is_port(after_host.rpartition(":")[2])


# A password given as a parameter: `?password=...` in a URL, `password=...` in a libpq keyword string.
_PASSWORD_PARAMETER = re.compile(r"(?i)(\bpassword\s*=\s*)('[^']*'|[^&\s]+)")


def redact(url: str) -> str:
    """The URL with its password replaced by ***; anything unparsable is hidden whole. Everything between the
    user name and the last '@' counts as the password, so one with a raw '#' or '/' is hidden too; so is a
    password given as a parameter (`?password=`, or `password=` in a keyword string that is no URL at all)."""
    return _NAMELESS_PARAMETER.sub(r"\1=***", _PASSWORD_PARAMETER.sub(r"\1***", _redact_userinfo(url)))


# A parameter without a name (`?=...`): nothing says what its value is, so it is hidden as a password would be.
_NAMELESS_PARAMETER = re.compile(r"([?&])=[^&#]*")


def _redact_userinfo(url: str) -> str:
    scheme, sep, rest = url.partition("://")
    if not sep and ("@" in url or ":" in url):
        # no address part (`postgres:pw@host`, `postgresql:pw`): nothing says where a password ends
        _, at, host = url.rpartition("@")
        return f"…@{host}" if at else "<…>"
    userinfo, at, host = rest.rpartition("@")
    if sep and at and ":" in userinfo:  # every password the URL parser would find stands there
        return f"{scheme}://{userinfo.split(':', 1)[0]}:***@{host}"
    try:
        urlsplit(url)
    except ValueError:  # unparsable: whatever stands left of the last '@' may be a password, none of it is shown
        return f"{scheme}://…@{host}" if sep and at else "<…>"
    return url
