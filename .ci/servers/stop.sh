#!/usr/bin/env bash
# stop.sh STATE_DIR -- stops the servers start.sh started there (Dovecot instances, Postfix,
# Cyrus instances, Courier) and waits until they are gone. Safe to call twice, after a partial
# start, or on a directory that never had servers. Leaves the files (logs, mail) for the caller
# to inspect or delete.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/process.sh"
. "$HERE/dovecot.sh"
. "$HERE/cyrus.sh"
. "$HERE/courier.sh"

[ $# -eq 1 ] || { echo "usage: stop.sh STATE_DIR" >&2; exit 2; }
[ -d "$1" ] || exit 0
STATE="$(cd "$1" && pwd)"

postfix="$(postfix_pid)"
[ -z "$postfix" ] || stop_master "$postfix" &
for instance in "${DOVECOT_INSTANCES[@]}"; do
    dovecot_end "$instance" stop_master &
done
for instance in "${CYRUS_INSTANCES[@]}"; do
    cyrus_end "$instance" stop_master &
done
courier_end stop_master &
wait
rm -f "$STATE/env"
