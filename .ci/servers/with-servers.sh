#!/usr/bin/env bash
# with-servers.sh COMMAND [ARG...] -- installs the test servers if missing, starts them in a
# fresh state dir under /tmp, runs COMMAND with the MAILFS_TEST_* variables of its env file in
# the environment, stops the servers and exits with COMMAND's status. When COMMAND fails, the
# state dir (server logs, mail) is kept and named. For ./test:
#   .ci/servers/with-servers.sh swift test --skip-build
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"

"$HERE/install.sh"
STATE="$(mktemp -d /tmp/mailfs-servers.XXXXXX)"
status=1
trap '"$HERE/stop.sh" "$STATE"; if [ $status -eq 0 ]; then rm -rf "$STATE"; else echo "server logs: $STATE" >&2; fi' EXIT
"$HERE/start.sh" "$STATE"
# shellcheck source=/dev/null
. "$STATE/env"
status=0
"$@" || status=$?
exit $status
