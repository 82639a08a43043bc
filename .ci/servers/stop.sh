#!/usr/bin/env bash
# stop.sh STATE_DIR -- stops the servers start.sh started there (Dovecot instances, Postfix)
# and waits until they are gone. Safe to call twice, after a partial start, or on a directory
# that never had servers. Leaves the files (logs, mail) for the caller to inspect or delete.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/process.sh"
. "$HERE/dovecot.sh"

[ $# -eq 1 ] || { echo "usage: stop.sh STATE_DIR" >&2; exit 2; }
[ -d "$1" ] || exit 0
STATE="$(cd "$1" && pwd)"

postfix="$(postfix_pid)"
[ -z "$postfix" ] || stop_master "$postfix" &
for instance in "${DOVECOT_INSTANCES[@]}"; do
    dovecot_end "$instance" stop_master &
done
wait
rm -f "$STATE/env"
