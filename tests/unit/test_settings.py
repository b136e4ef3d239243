"""The settings class and database URLs: defaults, validation, and no password anywhere it could leak."""

from __future__ import annotations

from pathlib import Path

import pytest

from worker.core.dsn import parse_database_url, redact
from worker.core.errors import InvalidInput
from worker.db.connect import connection_options
from worker.settings import Settings, SettingsError, unreadable_settings

SECRET = "s3cr3t-pa55"


def refused_line(monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], language: str = "en") -> str:
    """The one line the commands say for settings that cannot be read, with these variables set."""
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as refused:
        Settings(_env_file=None)
    line = unreadable_settings(refused.value, language)
    assert line is not None
    return line


def test_defaults_follow_the_household(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TAAK_TIMEZONE", "TAAK_LANGUAGE", "TAAK_DATABASE_URL", "TAAK_LEASE_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=None)
    assert settings.timezone == "Europe/Amsterdam"
    assert settings.language == "nl"
    assert settings.lease_seconds == 1200
    assert settings.database is None
    assert settings.machine


def test_settings_come_from_taak_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAAK_LANGUAGE", "en")
    monkeypatch.setenv("TAAK_TIMEZONE", "Asia/Tokyo")
    monkeypatch.setenv("TAAK_MACHINE", "keukenhof-veranda")
    settings = Settings(_env_file=None)
    assert (settings.language, settings.timezone, settings.machine) == (
        "en",
        "Asia/Tokyo",
        "keukenhof-veranda",
    )


def test_folders_are_made_absolute_where_they_are_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Sessions and hooks run in other folders, and a unit file's ~ is expanded by no shell.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "thuis"))
    monkeypatch.setenv("TAAK_DATA_DIR", "data/taak")
    monkeypatch.setenv("TAAK_SOCKET_DIR", "~/run")
    settings = Settings(_env_file=None)
    assert (settings.data_dir, settings.socket_dir) == (tmp_path / "data" / "taak", tmp_path / "thuis" / "run")


def test_an_empty_path_that_may_be_left_out_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TAAK_WORKDIR", "TAAK_SOCKET_DIR", "TAAK_REGISTRY_FILE", "TAAK_BRIEFING_FILE"):
        monkeypatch.setenv(name, "")
    settings = Settings(_env_file=None)
    assert (settings.workdir, settings.socket_dir, settings.registry_file, settings.briefing_file) == (None,) * 4


def test_an_unknown_time_zone_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAAK_TIMEZONE", "Europe/Veranda")
    with pytest.raises(ValueError, match="unknown time zone"):
        Settings(_env_file=None)


def test_the_password_is_not_in_the_settings_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAAK_DATABASE_URL", f"postgresql://bot:{SECRET}@db.example:5432/postgres")
    settings = Settings(_env_file=None)
    assert SECRET not in repr(settings)
    assert SECRET not in str(vars(settings))
    assert settings.database is not None
    assert SECRET not in repr(settings.database.where) + settings.database.redacted


def test_redact_hides_the_password_and_keeps_the_rest() -> None:
    assert redact(f"postgresql://bot:{SECRET}@db.example:6543/postgres?sslmode=require") == (
        "postgresql://bot:***@db.example:6543/postgres?sslmode=require"
    )
    assert redact("postgresql://bot@localhost/postgres") == "postgresql://bot@localhost/postgres"


@pytest.mark.parametrize(
    "url",
    ["http://bot:x@host/db", "postgresql://bot:x@host:notaport/db", "mysql://root@host/db"],
)
def test_a_malformed_url_is_invalid_input_without_the_password(url: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(url)
    assert ":x@" not in refused.value.render("en")


def test_a_unix_socket_url_names_its_folder() -> None:
    parsed = parse_database_url("postgresql://postgres:@/taak?host=/tmp/pg")
    assert (parsed.host, parsed.port, parsed.database) == ("/tmp/pg", 5432, "taak")


@pytest.mark.parametrize(
    ("url", "pooler"),
    [
        ("postgresql://postgres.abc:pw@aws-0-eu-central-1.pooler.supabase.com:6543/postgres", True),
        ("postgresql://postgres.abc:pw@aws-0-eu-central-1.pooler.supabase.com:5432/postgres", False),
        ("postgresql://postgres:pw@db.abc.supabase.co:5432/postgres", False),
        ("postgresql://postgres:pw@10.0.0.5:6543/postgres", True),
    ],
)
def test_the_transaction_pooler_is_recognised_and_gets_no_statement_cache(
    monkeypatch: pytest.MonkeyPatch, url: str, pooler: bool
) -> None:
    monkeypatch.setenv("TAAK_DATABASE_URL", url)
    settings = Settings(_env_file=None)
    assert settings.database is not None
    assert settings.database.is_transaction_pooler is pooler
    options = connection_options(settings, settings.database)
    assert (options.get("statement_cache_size") == 0) is pooler


@pytest.mark.parametrize("bots", ["a/b", "pa co", "é", "../../tmp/x", "\x1b]0;x\x07", ".", "..", "x" * 65])
def test_a_bot_name_that_is_no_name_is_refused_before_it_becomes_a_file(bots: str) -> None:
    with pytest.raises(SettingsError, match="not a bot name"):
        Settings(_env_file=None, bots=bots)


@pytest.mark.parametrize("bot", ["p\x1b]0;x\x07", "pa\nco", "pa co", "x" * 65, "\u200b"])
def test_the_bot_a_log_row_is_written_by_is_a_bot_name_too(bot: str) -> None:
    with pytest.raises(SettingsError, match="not a bot name"):
        Settings(_env_file=None, bot=bot)


def test_the_bot_has_the_one_spelling_of_taak_bots() -> None:
    assert Settings(_env_file=None, bot=" Paco ").bot == "paco"


@pytest.mark.parametrize("machine", ["../../tmp/x", "a/b", ".verborgen", "", "veranda\n", "\u202eevil", "y" * 65])
def test_a_machine_name_that_is_a_path_or_invisible_is_refused(machine: str) -> None:
    with pytest.raises(SettingsError, match="not a machine name"):
        Settings(_env_file=None, machine=machine)


@pytest.mark.parametrize("field", ["agent_cmd", "agent_args", "notify_cmd", "on_klaar_cmd"])
def test_a_command_with_a_quote_left_open_is_refused_before_anything_is_claimed(field: str) -> None:
    with pytest.raises(SettingsError, match="a quote without its closing one"):
        Settings(_env_file=None, **{field: "'onaf --print"})


@pytest.mark.parametrize("command", ["", "   "])
def test_an_empty_agent_command_is_refused(command: str) -> None:
    with pytest.raises(SettingsError, match="is empty: give the program that is the agent"):
        Settings(_env_file=None, agent_cmd=command)


def test_a_quoted_agent_command_is_taken() -> None:
    assert Settings(_env_file=None, agent_cmd="'/opt/mijn agent/claude' --x", agent_args="").agent_cmd.startswith("'")


@pytest.mark.parametrize("machine", ["veranda", "Jamals-MacBook-Pro.local", "vm_2", "küche"])
def test_a_host_name_is_a_machine_name(machine: str) -> None:
    assert Settings(_env_file=None, machine=machine).machine == machine


@pytest.mark.parametrize(
    "url",
    [
        f"host=127.0.0.1 user=postgres password={SECRET} dbname=taak",
        f"host=127.0.0.1 password='{SECRET} met spatie'",
        f"postgresql://bot@db.example/taak?sslmode=bogus&PASSWORD={SECRET}",
    ],
)
def test_a_refused_url_never_shows_a_password_given_as_a_parameter(url: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(url)
    assert SECRET not in refused.value.render("nl") + refused.value.render("en")


def test_a_url_with_its_password_as_a_parameter_is_redacted() -> None:
    url = f"postgresql://bot@db.example/taak?password={SECRET}&sslmode=require"
    assert parse_database_url(url).redacted == "postgresql://bot@db.example/taak?password=***&sslmode=require"


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://bot@db.example:99999/taak",
        "postgresql://bot@db.example:abc/taak",
        "postgresql://bot@db.example:54 32/taak",
        "postgresql://bot@db.example:0/taak",  # urlsplit takes 0, and `port or 5432` made it 5432
        "postgresql://bot@/taak?host=db.example&port=abc",  # asyncpg reads a port from the query too
        "postgresql://bot@/taak?host=db.example&port=99999",
        "postgresql://bot@/taak?host=db.example&port=0",
        "postgresql://bot@/taak?host=a,b&port=5432,٥٤٣٢",
        "postgresql://bot@/taak?host=db.example&port=" + "9" * 5000,
    ],
)
def test_a_port_that_is_no_port_is_said_to_be_the_port(url: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(url)
    assert "65535" in refused.value.render("en")
    assert "percent-encoded" not in refused.value.render("en")


@pytest.mark.parametrize("query", ["a", "&&", "sslmode%3Dbogus", "=x", "application_name=x&"])
def test_a_query_field_that_is_no_name_and_value_is_refused_as_such(query: str) -> None:
    """asyncpg's own refusal of these was a ValueError, shown as an internal error."""
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(f"postgresql://bot@db.example/taak?{query}")
    assert "NAME=VALUE" in refused.value.render("en")


def test_a_query_field_without_a_name_never_shows_its_value() -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(f"postgresql://bot@db.example/taak?={SECRET}")
    assert SECRET not in refused.value.render("en")


def test_a_port_given_in_the_query_is_the_one_shown() -> None:
    assert parse_database_url("postgresql://bot@/taak?host=db.example&port=6543").where == "db.example:6543"


def test_a_choice_given_twice_is_checked_both_times() -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_database_url("postgresql://bot@db.example/taak?sslmode=disable&sslmode=bogus")
    assert "sslmode=bogus" in refused.value.render("en")


def test_a_slash_in_the_password_is_still_said_to_be_the_password() -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(f"postgresql://bot:ge/{SECRET}@db.example:5432/taak")
    assert "percent-encoded" in refused.value.render("en")
    assert SECRET not in refused.value.render("en")


@pytest.mark.parametrize("owner", ["eig\udcff", "\u200b", "\u3164", "jamal\nx", "\x1b[2Jx", "j\u202eamal", "j" * 65])
def test_an_owner_that_is_no_readable_text_is_refused(owner: str) -> None:
    with pytest.raises(SettingsError, match="TAAK_OWNER: "):
        Settings(_env_file=None, owner=owner)


@pytest.mark.parametrize(
    ("variable", "value", "nl", "en"),
    [
        (
            "TAAK_CONCURRENCY",
            "veel",
            "TAAK_CONCURRENCY: moet een geheel getal zijn",
            "TAAK_CONCURRENCY: must be a whole number",
        ),
        (
            "TAAK_LEASE_SECONDS",
            "3",
            "TAAK_LEASE_SECONDS: moet minstens 10 zijn",
            "TAAK_LEASE_SECONDS: must be at least 10",
        ),
        ("TAAK_LISTEN", "misschien", "TAAK_LISTEN: moet ja of nee zijn", "TAAK_LISTEN: must be yes or no"),
        (
            "TAAK_LANGUAGE",
            "fr",
            "TAAK_LANGUAGE: moet een van deze zijn: 'nl' of 'en'",
            "TAAK_LANGUAGE: must be one of these: 'nl' or 'en'",
        ),
        (
            "TAAK_TIMEZONE",
            "Europe/Veranda",
            "onbekende tijdzone 'Europe/Veranda'",
            "unknown time zone 'Europe/Veranda'",
        ),
        ("TAAK_BOTS", "../x", "'../x' is geen botnaam", "'../x' is not a bot name"),
        ("TAAK_BOTS", "a" * 300, f"'{'a' * 64}…' is geen botnaam", f"'{'a' * 64}…' is not a bot name"),  # cut
        (
            "TAAK_BOTS",
            "Paco!",
            "'Paco!' is geen botnaam (letters, cijfers",
            "'Paco!' is not a bot name (letters,",
        ),  # as typed
        ("TAAK_POLL_SECONDS", "inf", "TAAK_POLL_SECONDS: moet een eindig getal zijn", "finite number"),
        # one idle daemon at 0.001 sent 1,000 statements a second (outside try of issue 42)
        ("TAAK_POLL_SECONDS", "0.001", "TAAK_POLL_SECONDS: moet minstens 0.2 zijn", "must be at least 0.2"),
        ("TAAK_POLL_SECONDS", "1e9", "TAAK_POLL_SECONDS: mag hoogstens 3600 zijn", "must be at most 3600"),
        ("TAAK_LEASE_SECONDS", "99999999999", "TAAK_LEASE_SECONDS: mag hoogstens 2147483647 zijn", "2147483647"),
        ("TAAK_LEASE_EXTEND_SECONDS", "nan", "moet een eindig getal zijn", "finite number"),
        # a limit of a seconds setting as it is typed, not as the float it is (tester 23)
        (
            "TAAK_TOKEN_CHECK_SECONDS",
            "11",
            "TAAK_TOKEN_CHECK_SECONDS: mag hoogstens 10 zijn",
            "CHECK_SECONDS: must be at most 10",
        ),
        ("TAAK_DATA_DIR", "", "TAAK_DATA_DIR: is leeg: noem een pad", "TAAK_DATA_DIR: is empty: name a path"),
        ("TAAK_MEMORY_DIR", " ", "TAAK_MEMORY_DIR: is leeg", "TAAK_MEMORY_DIR: is empty"),
    ],
)
def test_a_bad_setting_is_said_in_the_runs_language(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, nl: str, en: str
) -> None:
    from worker.settings import settings_problem

    monkeypatch.setenv(variable, value)
    with pytest.raises(SettingsError) as refused:
        Settings(_env_file=None)
    (problem,) = refused.value.problems
    assert nl in settings_problem(problem, "nl")
    assert en in settings_problem(problem, "en")


def test_a_database_named_only_in_the_query_is_the_one_used() -> None:
    assert parse_database_url("postgresql://bot@db.example:5432?dbname=taak").database == "taak"


@pytest.mark.parametrize(
    "path_and_query", ["/taak?dbname=andere", "/taak?dbname=taak&dbname=andere", "/?dbname=andere"]
)
def test_a_url_naming_the_database_twice_is_refused(path_and_query: str) -> None:
    # asyncpg takes the path's (a bare / too) and psql the query's: the same URL would mean two databases.
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(f"postgresql://bot:{SECRET}@db.example{path_and_query}")
    line = refused.value.render("en")
    assert "names the database twice" in line
    assert "dbname=andere" in line
    assert SECRET not in line


def test_the_same_database_in_path_and_query_is_taken() -> None:
    assert parse_database_url("postgresql://bot@db.example/taak?dbname=taak").database == "taak"


@pytest.mark.parametrize(
    ("address", "query", "other"),
    [
        ("db.example:5432", "port=6543", "port=6543"),
        ("db.example", "port=6543", "port=6543"),  # no port in the address: asyncpg's 5432, psql's 6543
        ("db.example:5432", "host=elders.example", "host=elders.example"),
        ("db.example:5432", "host=db.example&port=5432&port=5433", "port=5433"),
    ],
)
def test_a_url_naming_its_server_twice_is_refused(address: str, query: str, other: str) -> None:
    # asyncpg takes the address's host and port and ignores the query's; psql takes the query's.
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(f"postgresql://bot:{SECRET}@{address}/taak?{query}")
    line = refused.value.render("en")
    assert "names two servers" in line
    assert f"{other} after it" in line
    assert SECRET not in line


def test_the_same_server_in_address_and_query_is_taken() -> None:
    url = parse_database_url("postgresql://bot@db.example:6543/taak?host=db.example&port=6543")
    assert url.where == "db.example:6543"


@pytest.mark.parametrize(
    ("url", "said"),
    [
        (f"postgresql://bot:{SECRET}@[127.0.0.1]:55432/taak", "only an IPv6 address stands between [ and ]"),
        (f"postgresql://bot:{SECRET}@a.example:5432,b.example:5433/taak", "names more than one server"),
        (f"postgresql://bot:{SECRET}@a.example,b.example/taak", "names more than one server"),
    ],
)
def test_a_host_that_is_wrong_is_not_blamed_on_the_password(url: str, said: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(url)
    line = refused.value.render("en")
    assert said in line
    assert "password" not in line
    assert SECRET not in line


@pytest.mark.parametrize(
    "userinfo",
    [f"bot:ge@{SECRET}", f"bot@h:{SECRET}", f"bot:a@b:{SECRET}"],  # an '@' in the password, not encoded
)
def test_a_raw_at_sign_in_the_password_is_said_to_be_the_password(userinfo: str) -> None:
    # asyncpg splits at the first '@' and psql at the last: the same URL would be two servers, or a crash.
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(f"postgresql://{userinfo}@db.example:5432/taak")
    line = refused.value.render("en")
    assert "percent-encoded: @ is %40)" in line  # the character that is wrong, as it is written
    assert SECRET not in line


@pytest.mark.parametrize(
    ("userinfo", "example"),
    [
        (f"te?us:{SECRET}", "? is %3F"),  # the rest was read as a query, and its "parameter" shown
        (f"te/us:{SECRET}", "/ is %2F"),  # the rest was read as a path, and the host as `te`
        (f"te@us#r:{SECRET}", "@ is %40"),
        (f"bot:a=b?c{SECRET}", "? is %3F"),
        (f"bot:p@ss#w/rd?x[y]{SECRET}", "@ is %40"),
    ],
)
def test_a_raw_character_anywhere_in_user_or_password_is_named_and_nothing_of_them_shown(
    userinfo: str, example: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(f"postgresql://{userinfo}@127.0.0.1:5432/taak")
    line = refused.value.render("en")
    assert f"in the user name or password must be percent-encoded: {example})" in line
    assert SECRET not in line


def test_several_hosts_in_the_query_are_refused_as_in_the_address() -> None:
    with pytest.raises(InvalidInput, match="names more than one server"):
        parse_database_url("postgresql://bot@/taak?host=127.0.0.1,elders.example&port=5432")


def test_an_at_sign_in_the_query_is_no_password() -> None:
    assert parse_database_url("postgresql://bot@db.example/taak?application_name=a@b").where == "db.example:5432"


def test_an_unparsable_url_shows_its_host_and_hides_what_could_be_a_password() -> None:
    assert redact(f"postgresql://bot{SECRET}@[::1/taak") == "postgresql://…@[::1/taak"


@pytest.mark.parametrize("setting", ["data_dir", "socket_dir", "memory_dir", "workdir"])
def test_a_folder_setting_that_lies_in_a_file_is_refused_naming_the_file(setting: str, tmp_path: Path) -> None:
    a_file = tmp_path / "bestand"
    a_file.write_text("x")
    with pytest.raises(SettingsError, match=f"lies in {a_file}, and that is a file, not a folder"):
        Settings(_env_file=None, **{setting: str(a_file / "diep" / "map")})


@pytest.mark.parametrize("setting", ["data_dir", "socket_dir", "memory_dir", "workdir"])
def test_a_folder_setting_that_names_a_file_is_refused_as_such(setting: str, tmp_path: Path) -> None:
    a_file = tmp_path / "bestand"
    a_file.write_text("x")
    with pytest.raises(SettingsError, match="is a file, not a folder"):
        Settings(_env_file=None, **{setting: str(a_file)})


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://bot@[::1/taak", "an IPv6 address stands between [ and ]"),
        ("postgresql://bot@::1]/taak", "an IPv6 address stands between [ and ]"),
        (
            f"postgresql://bot:{SECRET}[@db.example/taak",
            "# / ? @ [ or ] in the user name or password must be percent-encoded",
        ),
    ],
)
def test_a_bracket_is_blamed_on_the_part_of_the_url_it_stands_in(url: str, said: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(url)
    line = refused.value.render("en")
    assert said in line
    assert SECRET not in line


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("TAAK_DIGEST_TIMES", "25:00", "TAAK_DIGEST_TIMES: '25:00' is no time of day"),
        ("TAAK_DIGEST_TIMES", "08:00;18:00", "TAAK_DIGEST_TIMES: '08:00;18:00' is no time of day"),
        ("TAAK_QUIET_HOURS", "22-7", "TAAK_QUIET_HOURS: '22-7' is no range of hours"),
        ("TAAK_TELEGRAM_CHAT", "owner", "TAAK_TELEGRAM_CHAT: "),
        ("TAAK_TELEGRAM_TOKEN", "not-a-token", "TAAK_TELEGRAM_TOKEN: that is no bot token"),
        ("TAAK_TELEGRAM_API", "api.telegram.org", "TAAK_TELEGRAM_API: 'api.telegram.org' is no http(s) address"),
        ("TAAK_NOTIFY_URLS", "ntfy://huis nonsense", "TAAK_NOTIFY_URLS: #2 '...' is no address Apprise knows"),
    ],
)
def test_the_owners_channel_refuses_what_does_not_parse(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, said: str
) -> None:
    line = refused_line(monkeypatch, {name: value})
    assert said in line
    assert "\n" not in line


def test_a_telegram_token_needs_the_owners_chat(monkeypatch: pytest.MonkeyPatch) -> None:
    line = refused_line(monkeypatch, {"TAAK_TELEGRAM_TOKEN": "123456:ABC-def"})
    assert "TAAK_TELEGRAM_CHAT: needed beside TAAK_TELEGRAM_TOKEN" in line


def test_the_owners_channel_as_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAAK_DIGEST_TIMES", "18:00, 7:30")
    monkeypatch.setenv("TAAK_QUIET_HOURS", "")
    monkeypatch.setenv("TAAK_TELEGRAM_TOKEN", "123456:ABC-def")
    monkeypatch.setenv("TAAK_TELEGRAM_CHAT", "-1001234")
    monkeypatch.setenv("TAAK_TELEGRAM_API", "http://127.0.0.1:8081/")
    monkeypatch.setenv("TAAK_NOTIFY_URLS", "ntfy://huis, mailto://a:b@x.nl?to=c@x.nl,d@x.nl json://h/p")
    settings = Settings(_env_file=None)
    assert [str(t) for t in settings.digest_times] == ["07:30:00", "18:00:00"]
    assert settings.quiet_hours is None
    assert settings.telegram_chat == -1001234
    assert settings.telegram_api == "http://127.0.0.1:8081"
    assert [url.get_secret_value() for url in settings.notify_urls] == [
        "ntfy://huis",
        "mailto://a:b@x.nl?to=c@x.nl,d@x.nl",
        "json://h/p",
    ]
    assert "a:b" not in repr(settings)  # the addresses' tokens stay out of every repr


@pytest.mark.parametrize(
    ("addresses", "said"),
    [
        (f"tgram:/{SECRET}", "#1 'tgram:...'"),  # by its scheme only
        (f"ntfy://huis {SECRET}tail", "TAAK_NOTIFY_URLS: #2 '...' is no address Apprise knows"),  # no scheme: its place
    ],
)
def test_an_address_with_a_token_is_said_by_its_scheme_or_its_place_only(
    monkeypatch: pytest.MonkeyPatch, addresses: str, said: str
) -> None:
    line = refused_line(monkeypatch, {"TAAK_NOTIFY_URLS": addresses})
    assert said in line
    assert SECRET[:3] not in line


def test_a_renamed_setting_is_read_by_its_old_name_and_said(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from worker.settings import renamed_in_use

    monkeypatch.setenv("TAAK_EIGENAAR", "jamal")
    monkeypatch.setenv("TAAK_FLEET_DAYS", "9")
    (tmp_path / ".env").write_text("export TAAK_BESLIS_UREN=12\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    settings = Settings()
    assert (settings.owner, settings.fleet_days, settings.decide_hours) == ("jamal", 9, 12.0)
    assert renamed_in_use({"TAAK_EIGENAAR": "jamal"}, tmp_path / ".env") == [
        ("TAAK_EIGENAAR", "TAAK_OWNER"),
        ("TAAK_BESLIS_UREN", "TAAK_DECIDE_HOURS"),
    ]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("TAAK_VLOOT_DAGEN", "TAAK_VLOOT_DAGEN"),
        ("taak_vloot_dagen", "TAAK_VLOOT_DAGEN"),
        ("TAAK_FLEET_DAYS", "TAAK_FLEET_DAYS"),
    ],
)
def test_a_renamed_setting_that_does_not_parse_is_named_as_it_was_typed(
    monkeypatch: pytest.MonkeyPatch, typed: str, said: str
) -> None:
    """Outside try: `TAAK_BESLIS_UREN=abc` was said as `TAAK_DECIDE_HOURS: ...`, a name the user never typed."""
    line = refused_line(monkeypatch, {typed: "0"})
    assert line.startswith(f"invalid setting: {said}: ")


def test_the_owners_chat_needs_a_telegram_token(monkeypatch: pytest.MonkeyPatch) -> None:
    line = refused_line(monkeypatch, {"TAAK_TELEGRAM_CHAT": "4242"})
    assert "TAAK_TELEGRAM_CHAT: set without TAAK_TELEGRAM_TOKEN" in line


def test_settings_read_back_as_themselves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`replaced` reads every value again: each reader takes its own result (a path, a list, a secret, a time)."""
    monkeypatch.setenv("TAAK_TELEGRAM_TOKEN", "123456:ABC-def")
    monkeypatch.setenv("TAAK_TELEGRAM_CHAT", "-1001234")
    monkeypatch.setenv("TAAK_NOTIFY_URLS", "ntfy://huis json://h/p")
    monkeypatch.setenv("TAAK_INTAKE_VANAF", "2026-12-01T08:00+01:00")
    monkeypatch.setenv("TAAK_BOTS", "Paco, sjakie")
    settings = Settings(_env_file=None, data_dir=tmp_path, database_url=f"postgresql://bot:{SECRET}@db.example/taak")
    again = settings.replaced()
    assert {name: getattr(again, name) for name in vars(settings)} == vars(settings)
    assert again.replaced(lease_seconds="60").lease_seconds == 60


@pytest.mark.parametrize(
    ("typed", "said"),
    [("0001-01-01", "must be at least 1900-01-01"), ("9999-12-31T23:59+14:00", "must be at most 9998-12-31")],
)
def test_an_intake_cut_off_no_time_zone_can_shift_out_of_the_calendar_is_refused_as_it_is_read(
    monkeypatch: pytest.MonkeyPatch, typed: str, said: str
) -> None:
    """Outside try: `TAAK_INTAKE_VANAF=0001-01-01` was taken, and the intake failed in the database (year 0 in UTC)."""
    line = refused_line(monkeypatch, {"TAAK_INTAKE_VANAF": typed})
    assert line == f"invalid setting: TAAK_INTAKE_VANAF: {said}"


@pytest.mark.parametrize(
    "typed", ["1900-01-01", "1900-01-01T00:00+14:00", "9998-12-31T23:59:59", "9998-12-31T23:59-12:00"]
)
def test_the_first_and_the_last_day_of_the_intake_cut_offs_range_are_taken_whole(
    monkeypatch: pytest.MonkeyPatch, typed: str
) -> None:
    """Outside try: every moment after midnight of 9998-12-31 was refused as past it."""
    monkeypatch.setenv("TAAK_INTAKE_VANAF", typed)
    assert Settings(_env_file=None).intake_vanaf is not None


@pytest.mark.parametrize(("typed", "read"), [("1e3", 1000), (" 42 ", 42), ("+70", 70), ("30.0", 30)])
def test_a_whole_number_is_read_as_written(monkeypatch: pytest.MonkeyPatch, typed: str, read: int) -> None:
    monkeypatch.setenv("TAAK_LEASE_SECONDS", typed)
    assert Settings(_env_file=None).lease_seconds == read


@pytest.mark.parametrize("typed", ["12.5", "12,5", "twaalf", "١٢", "inf"])
def test_a_number_that_is_no_whole_number_is_refused(monkeypatch: pytest.MonkeyPatch, typed: str) -> None:
    monkeypatch.setenv("TAAK_LEASE_SECONDS", typed)
    with pytest.raises(SettingsError, match="TAAK_LEASE_SECONDS: must be a whole number"):
        Settings(_env_file=None)


@pytest.mark.parametrize(("typed", "read"), [("Yes", True), (" off ", False), ("1", True), ("f", False)])
def test_a_switch_is_read_in_any_of_its_spellings(monkeypatch: pytest.MonkeyPatch, typed: str, read: bool) -> None:
    monkeypatch.setenv("TAAK_LISTEN", typed)
    assert Settings(_env_file=None).listen is read


def test_every_setting_that_cannot_be_read_is_said_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    line = refused_line(monkeypatch, {"TAAK_CONCURRENCY": "0", "TAAK_LOG_FORMAT": "xml"}, "nl")
    assert line == (
        "ongeldige instelling: TAAK_CONCURRENCY: moet minstens 1 zijn; "
        "TAAK_LOG_FORMAT: moet een van deze zijn: 'auto', 'json' of 'console'"
    )


def test_settings_are_frozen_and_know_their_names() -> None:
    settings = Settings(_env_file=None)
    with pytest.raises(AttributeError):
        settings.lease_seconds = 5
    with pytest.raises(TypeError, match="no such setting: lease"):
        Settings(_env_file=None, lease=5)


@pytest.mark.parametrize(
    "url",
    [f"postgres:{SECRET}@127.0.0.1:5432/taak", f"postgresql//bot:{SECRET}@127.0.0.1/taak", f"postgresql:{SECRET}"],
)
def test_a_url_without_its_address_part_is_refused_without_its_password(url: str) -> None:
    """asyncpg read `postgres:pw@host/db` as a database named `pw@host/db`, and the line named it (outside try)."""
    with pytest.raises(InvalidInput) as refused:
        parse_database_url(url)
    assert "must start with postgresql://" in refused.value.render("en")
    assert SECRET not in refused.value.render("en") + refused.value.render("nl")


def test_a_home_folder_of_nobody_is_a_setting_that_cannot_be_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAAK_DATA_DIR", "~niemand_hier_taak/data")
    with pytest.raises(SettingsError, match="TAAK_DATA_DIR: '~niemand_hier_taak/data': no home folder is known"):
        Settings(_env_file=None)


@pytest.mark.parametrize(("typed", "read"), [("ja", True), ("Nee", False)])
def test_a_switch_takes_the_dutch_words_its_line_names(monkeypatch: pytest.MonkeyPatch, typed: str, read: bool) -> None:
    monkeypatch.setenv("TAAK_FLEET_ARCHIVE", typed)
    assert Settings(_env_file=None).fleet_archive is read


@pytest.mark.parametrize("name", ["TAAK_NOTIFY_CMD", "TAAK_TELEGRAM_CHAT", "TAAK_WORKDIR", "TAAK_INTAKE_VANAF"])
def test_a_setting_that_may_be_left_out_is_left_out_when_it_is_only_spaces(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A notify command of spaces was taken, and the daemon's deliverer failed on it every few seconds."""
    monkeypatch.setenv(name, "   ")
    assert getattr(Settings(_env_file=None), name.removeprefix("TAAK_").lower()) is None


@pytest.mark.parametrize(
    ("name", "value"),
    [("TAAK_RETRY_BASE_SECONDS", "1e300"), ("TAAK_REAPER_GRACE_SECONDS", "1e13"), ("TAAK_FLEET_DAYS", "3000000")],
)
def test_a_time_beyond_a_century_is_refused_before_it_overflows_a_date(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    """A retry after 1e300 seconds left its task running for ever: now plus it is no date (outside try)."""
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=f"{name}: must be at most"):
        Settings(_env_file=None)


@pytest.mark.parametrize(
    "order", [("taak_poll_seconds", "TAAK_POLL_SECONDS"), ("TAAK_POLL_SECONDS", "taak_poll_seconds")]
)
def test_the_upper_case_name_wins_whatever_the_order(monkeypatch: pytest.MonkeyPatch, order: tuple[str, str]) -> None:
    monkeypatch.delenv("TAAK_POLL_SECONDS", raising=False)
    for name in order:
        monkeypatch.setenv(name, "7" if name.isupper() else "x")
    assert Settings(_env_file=None).poll_seconds == 7.0


def test_choices_are_read_in_any_case_and_a_time_zone_with_spaces_around_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAAK_POOLER", "Session")
    monkeypatch.setenv("TAAK_LOG_FORMAT", " JSON")
    monkeypatch.setenv("TAAK_TIMEZONE", " UTC ")
    settings = Settings(_env_file=None)
    assert (settings.pooler, settings.log_format, settings.timezone) == ("session", "json", "UTC")


@pytest.mark.parametrize("name", ["TAAK_INTAKE_ID_COLUMN", "TAAK_INTAKE_TEXT_COLUMN", "TAAK_INTAKE_TIME_COLUMN"])
def test_an_intake_column_given_empty_is_a_setting_error(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """It reached the database as `""`: "the database refused this", exit 1 (outside try of the settings reader)."""
    monkeypatch.setenv(name, " ")
    with pytest.raises(SettingsError, match=f"{name}: is empty: name the column of the old table"):
        Settings(_env_file=None)


def test_the_intake_status_column_may_be_empty() -> None:
    assert Settings(_env_file=None, intake_status_column="").intake_status_column == ""


def test_the_new_name_of_a_renamed_setting_wins_over_the_old_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """What `taak doctor`'s line about an old name says (outside try: it said only that the old name is read)."""
    from worker.core.catalogue import message

    monkeypatch.setenv("TAAK_EIGENAAR", "oud")
    monkeypatch.setenv("TAAK_OWNER", "nieuw")
    assert Settings(_env_file=None).owner == "nieuw"
    said = message("doctor.setting_renamed", "en", old="TAAK_EIGENAAR", new="TAAK_OWNER")
    assert said.endswith("except when TAAK_OWNER is set too (that one wins)")
