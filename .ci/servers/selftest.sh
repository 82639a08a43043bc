#!/usr/bin/env bash
# selftest.sh -- starts the test servers in a fresh state dir, checks them (selftest.py),
# stops them, and checks that nothing of them is left. Exit status 0 when all is well.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
STATE="$(mktemp -d /tmp/mailfs-servers.XXXXXX)"
trap '"$HERE/stop.sh" "$STATE"; rm -rf "$STATE"' EXIT

started=$SECONDS
"$HERE/start.sh" "$STATE"
echo "started in $((SECONDS - started))s"
# shellcheck source=/dev/null
. "$STATE/env"
status=0
"$HERE/selftest.py" "$STATE" || status=1

"$HERE/stop.sh" "$STATE"
"$HERE/stop.sh" "$STATE"
leftover="$(pgrep -f -- "$STATE/" || true)"
# Courier's daemons do not name the state dir: their ports tell whether they are gone.
for port in "$MAILFS_TEST_IMAPS_PORT" "${MAILFS_TEST_CYRUS_IMAPS_PORT:-}" "${MAILFS_TEST_CYRUSALT_IMAPS_PORT:-}" \
    "${MAILFS_TEST_COURIER_IMAPS_PORT:-}"; do
    [ -z "$port" ] || ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || leftover+=" port $port"
done
if [ -n "$leftover" ]; then
    echo "FAIL - stop.sh left processes or listeners behind: $leftover"
    status=1
else
    echo "ok - stop.sh (twice) stops everything"
fi
exit $status
