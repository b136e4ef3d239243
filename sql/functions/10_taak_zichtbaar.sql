-- Does a text draw anything? What the taak command refuses as blank the database refuses too: zero-width spaces,
-- joiners, the byte order mark and Unicode's other spaces got in through SQL where `[[:space:]]` saw text. This is
-- worker.core.terminal.is_blank's opposite, character for character (a test compares them over every code point); a
-- plain SQL expression, so Postgres inlines it into the triggers that call it.
create or replace function taak_zichtbaar(tekst text) returns boolean
language sql immutable strict parallel safe as $$
    select tekst ~ E'[^\u0001-\u0020\u007f-\u00a0\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u115f-\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f\U000e0100-\U000e01ef]'
$$;
