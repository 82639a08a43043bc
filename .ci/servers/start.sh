#!/usr/bin/env bash
# start.sh STATE_DIR -- starts the mail servers of the integration tests on 127.0.0.1 high
# ports, without systemd, everything (certificates, configs, mail, queues, logs, pids) under
# STATE_DIR, and writes STATE_DIR/env: `export MAILFS_TEST_*=…` lines the tests read.
# Stop with stop.sh STATE_DIR. Set MAILFS_TEST_PORT_BASE to pick the ports yourself.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/certs.sh"
. "$HERE/dovecot.sh"
. "$HERE/postfix.sh"
. "$HERE/process.sh"

MAIL_USER=mail
MAIL_DOMAIN=example.test
MAIL_USERS=(alice bob carol gmail dave erin frank)
START_TIMEOUT_SECONDS=20

# Known test passwords, distinctive enough to grep for in stores and logs. XOAUTH2 and
# OAUTHBEARER take the same string as bearer token (Dovecot checks a token like a password).
user_password() { printf 'pw-%s-4729' "$1"; }

fail() { echo "start.sh: $*" >&2; exit 1; }

# The daemons drop privileges: every directory above STATE must be traversable by others.
check_state_dir() {
    [ "$(id -u)" -eq 0 ] || fail "needs root (Dovecot and Postfix switch users)"
    [ ${#STATE} -le 70 ] || fail "$STATE is too long for the unix sockets inside it"
    local dir="$STATE"
    chmod 755 "$STATE"
    while [ "$dir" != / ]; do
        dir="$(dirname "$dir")"
        [ "$(( 0$(stat -c %a "$dir") & 1 ))" -eq 1 ] ||
            fail "$dir is not traversable by other users: put the state dir under /tmp"
    done
}

# Ports in this order from one base: base+0 IMAPS … base+9 IMAPS_NOMOVE.
PORT_NAMES=(IMAPS IMAP_STARTTLS IMAPS_SELFSIGNED IMAP_PLAIN LMTP SMTPS SUBMISSION SMTP_PLAIN SMTPS_SELFSIGNED
    IMAPS_NOMOVE)

# Sets PORT_<NAME> for each of PORT_NAMES, and ALL_PORTS.
assign_ports() {
    local port="${MAILFS_TEST_PORT_BASE:-$("$HERE/ports.py" ${#PORT_NAMES[@]})}" name
    ALL_PORTS=()
    for name in "${PORT_NAMES[@]}"; do
        printf -v "PORT_$name" '%s' "$port"
        ALL_PORTS+=("$port")
        port=$((port + 1))
    done
}

# $1 name after MAILFS_TEST_, $2 value: one line of the env file. Values are paths, numbers and
# test names, so single quotes are enough; a value with a quote in it is refused.
env_line() {
    case "$2" in *"'"*) fail "the value of MAILFS_TEST_$1 contains a quote: $2" ;; esac
    printf "export MAILFS_TEST_%s='%s'\n" "$1" "$2"
}

write_env() {
    local name user instance upper port_var
    {
        env_line STATE_DIR "$STATE"
        env_line HOST 127.0.0.1
        env_line HOSTNAME localhost
        env_line DOMAIN "$MAIL_DOMAIN"
        env_line CA_FILE "$CERTS/ca.pem"
        env_line SELFSIGNED_CERT_FILE "$CERTS/selfsigned.pem"
        for name in "${PORT_NAMES[@]}"; do
            port_var="PORT_$name"
            env_line "${name}_PORT" "${!port_var}"
        done
        env_line USERS "${MAIL_USERS[*]}"
        for user in "${MAIL_USERS[@]}"; do
            upper="${user^^}"
            env_line "${upper}_USER" "$user"
            env_line "${upper}_EMAIL" "$user@$MAIL_DOMAIN"
            env_line "${upper}_PASSWORD" "$(user_password "$user")"
            env_line "${upper}_TOKEN" "$(user_password "$user")"
        done
        for instance in "${DOVECOT_INSTANCES[@]}"; do
            upper="${instance^^}"
            env_line "DOVECOT_${upper}_CONFIG" "$STATE/dovecot/$instance.conf"
            env_line "DOVECOT_${upper}_PID" "$(dovecot_pid "$instance")"
        done
        env_line DOVECOT_CONFIG "$STATE/dovecot/main.conf"
        env_line POSTFIX_CONFIG_DIR "$STATE/postfix/config"
        env_line POSTFIX_PID "$(postfix_pid)"
        env_line MAIL_DIR "$STATE/mail"
        env_line SEED "$HERE/seed.py"
        env_line CTL "$HERE/ctl.sh"
    } >"$STATE/env.tmp"
    mv "$STATE/env.tmp" "$STATE/env"
}

main() {
    [ $# -eq 1 ] || fail "usage: start.sh STATE_DIR"
    mkdir -p "$1"
    STATE="$(cd "$1" && pwd)"
    CERTS="$STATE/certs"
    check_state_dir
    [ ! -e "$STATE/env" ] || fail "$STATE already has running servers (stop.sh $STATE first)"
    # From here on, a failure stops whatever did start.
    trap '[ $? -eq 0 ] || "$HERE/stop.sh" "$STATE"' EXIT
    assign_ports
    mailfs_make_certs "$CERTS"
    dovecot_configure
    postfix_configure
    dovecot_start || fail "dovecot did not start (see $STATE/dovecot/*.log)"
    postfix_start || fail "postfix did not start (see $STATE/postfix/postfix.log)"
    wait_for_ports "$START_TIMEOUT_SECONDS" "${ALL_PORTS[@]}" ||
        fail "servers not up after ${START_TIMEOUT_SECONDS}s (logs in $STATE/dovecot, $STATE/postfix)"
    write_env
}

main "$@"
