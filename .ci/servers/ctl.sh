#!/usr/bin/env bash
# ctl.sh STATE_DIR ACTION SERVER -- takes one test server down or up again, for the tests of
# "server killed mid-sync", "SMTP server down, then back", IDLE recovery and the like.
#   ACTION  stop   SIGTERM, wait until gone (connections are cut)
#           kill   SIGKILL to the master and its children at once (a crash)
#           start  start again with the same config and ports; wait until it accepts connections
#   SERVER  dovecot   the main Dovecot (IMAPS, IMAP+STARTTLS, LMTP, SASL for Postfix)
#           postfix   every SMTP listener
#           cyrus, cyrusalt, courier   that IMAP server (its IMAPS port)
# The pid in STATE_DIR/env is updated on start.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/process.sh"
. "$HERE/postfix.sh"
. "$HERE/cyrus.sh"
. "$HERE/courier.sh"

fail() { echo "ctl.sh: $*" >&2; exit 1; }

[ $# -eq 3 ] || fail "usage: ctl.sh STATE_DIR stop|kill|start dovecot|postfix|cyrus|cyrusalt|courier"
[ -f "$1/env" ] || fail "no servers were started in $1"
STATE="$(cd "$1" && pwd)"
# shellcheck source=/dev/null
. "$STATE/env"
action="$2"
server="$3"

case "$server" in
    dovecot) pid="$(dovecot_pid main)" pid_var=MAILFS_TEST_DOVECOT_MAIN_PID
        ports=("$MAILFS_TEST_IMAPS_PORT" "$MAILFS_TEST_IMAP_STARTTLS_PORT" "$MAILFS_TEST_LMTP_PORT") ;;
    postfix) pid="$(postfix_pid)" pid_var=MAILFS_TEST_POSTFIX_PID
        ports=("$MAILFS_TEST_SMTPS_PORT" "$MAILFS_TEST_SUBMISSION_PORT" "$MAILFS_TEST_SMTP_PLAIN_PORT"
            "$MAILFS_TEST_SMTPS_SELFSIGNED_PORT" "$MAILFS_TEST_SMTPS_RCPT_LIMIT_PORT") ;;
    cyrus|cyrusalt|courier)
        [[ " $MAILFS_TEST_IMAP_SERVERS " == *" $server "* ]] || fail "$server was not started in $STATE"
        if [ "$server" = courier ]; then pid="$(courier_pid)"; else pid="$(cyrus_pid "$server")"; fi
        pid_var="MAILFS_TEST_${server^^}_PID"
        port_var="MAILFS_TEST_${server^^}_IMAPS_PORT"
        ports=("${!port_var}") ;;
    *) fail "unknown server $server (dovecot, postfix, cyrus, cyrusalt or courier)" ;;
esac

start_server() {
    [ -z "$pid" ] || fail "$server already runs (pid $pid)"
    case "$server" in
        dovecot)
            dovecot -c "$STATE/dovecot/main.conf" </dev/null >>"$STATE/dovecot/main.log" 2>&1 ||
                fail "dovecot did not start (see $STATE/dovecot/main.log)"
            pid="$(dovecot_pid main)" ;;
        postfix)
            postfix_start || fail "postfix did not start (see $STATE/postfix/postfix.log)"
            pid="$(postfix_pid)" ;;
        courier)
            PORT_COURIER_IMAPS="${ports[0]}" courier_start ;;
        *)
            cyrus_start "$server" || fail "$server did not start (see $STATE/$server/master.log)" ;;
    esac
    wait_for_ports 20 "${ports[@]}" || fail "$server did not come back (logs in $STATE/$server)"
    case "$server" in
        courier) pid="$(courier_pid)" ;;
        cyrus|cyrusalt) pid="$(cyrus_pid "$server")" ;;
    esac
    sed -i "s/^export $pid_var=.*/export $pid_var='$pid'/" "$STATE/env"
}

case "$action" in
    stop|kill) case "$server" in
            dovecot) dovecot_end main "${action}_master" ;;
            courier) courier_end "${action}_master" ;;
            cyrus|cyrusalt) cyrus_end "$server" "${action}_master" ;;
            *) [ -z "$pid" ] || "${action}_master" "$pid" ;;
        esac ;;
    start) start_server ;;
    *) fail "unknown action $action (stop, kill or start)" ;;
esac
