#!/bin/sh
# The cheapest stand-in for `claude -p`: an init line and a result line, nothing else.
printf '{"type":"system","subtype":"init","session_id":"noop","model":"noop"}\n'
printf '{"type":"result","subtype":"success","is_error":false,"result":"noop","num_turns":0,"duration_ms":0,"total_cost_usd":0}\n'
