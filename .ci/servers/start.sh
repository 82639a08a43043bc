#!/usr/bin/env bash
# start.sh STATE_DIR -- starts the mail servers of the integration tests on 127.0.0.1 high
# ports, without systemd, everything (certificates, configs, mail, queues, logs, pids) under
# STATE_DIR, and writes STATE_DIR/env: `export MAILFS_TEST_*=…` lines the tests read.
# Stop with stop.sh STATE_DIR. Set MAILFS_TEST_PORT_BASE to pick the ports yourself.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/certs.sh"
. "$HERE/courier.sh"
. "$HERE/cyrus.sh"
. "$HERE/dovecot.sh"
. "$HERE/postfix.sh"
. "$HERE/process.sh"

MAIL_USER=mail
MAIL_DOMAIN=example.test
MAIL_USERS=(alice bob carol gmail gmailv dave erin frank)
# smtpd_recipient_limit of the SMTPS_RCPT_LIMIT listener (Postfix's default, elsewhere: 1000).
RCPT_LIMIT=3
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

# Ports in this order from one base: base+0 IMAPS … base+9 IMAPS_NOMOVE, base+10 … base+12 the
# other IMAP servers' IMAPS, base+13 SMTPS_RCPT_LIMIT.
PORT_NAMES=(IMAPS IMAP_STARTTLS IMAPS_SELFSIGNED IMAP_PLAIN LMTP SMTPS SUBMISSION SMTP_PLAIN SMTPS_SELFSIGNED
    IMAPS_NOMOVE CYRUS_IMAPS CYRUSALT_IMAPS COURIER_IMAPS SMTPS_RCPT_LIMIT)

# The IMAP server kinds and their namespaces: personal prefix and hierarchy delimiter (seed.py translates the tests' "Parent/Child" with them).
declare -A KIND_PREFIX=([dovecot]="" [cyrus]="INBOX." [cyrusalt]="" [courier]="INBOX.")
declare -A KIND_DELIMITER=([dovecot]="/" [cyrus]="." [cyrusalt]="/" [courier]=".")

# Sets PORT_<NAME> for each of PORT_NAMES, and ALL_PORTS: those that will be listened on (an
# IMAP kind that is not started leaves its port unused).
assign_ports() {
    local port="${MAILFS_TEST_PORT_BASE:-$("$HERE/ports.py" ${#PORT_NAMES[@]})}" name kind
    ALL_PORTS=()
    for name in "${PORT_NAMES[@]}"; do
        printf -v "PORT_$name" '%s' "$port"
        kind="${name%_IMAPS}"
        [ "$name" = "${kind}_IMAPS" ] && ! kind_chosen "${kind,,}" || ALL_PORTS+=("$port")
        port=$((port + 1))
    done
}

# $1 name after MAILFS_TEST_, $2 value: one line of the env file. Values are paths, numbers and
# test names, so single quotes are enough; a value with a quote in it is refused.
env_line() {
    case "$2" in *"'"*) fail "the value of MAILFS_TEST_$1 contains a quote: $2" ;; esac
    printf "export MAILFS_TEST_%s='%s'\n" "$1" "$2"
}

# $1 kind: the pid of its server (Cyrus master, Courier namespace init), if it runs.
kind_pid() {
    case "$1" in
        cyrus|cyrusalt) cyrus_pid "$1" ;;
        courier) courier_pid ;;
    esac
}

# $1 kind: its users, one a line.
kind_users() {
    case "$1" in
        dovecot) printf '%s\n' "${MAIL_USERS[@]}" ;;
        cyrus|cyrusalt) printf '%s\n' "${CYRUS_USERS[@]}" ;;
        courier) printf '%s\n' "${COURIER_USERS[@]}" ;;
    esac
}

# Sets IMAP_KINDS: dovecot and those of the other kinds whose software install.sh provided.
choose_kinds() {
    IMAP_KINDS=(dovecot)
    if cyrus_installed; then IMAP_KINDS+=("${CYRUS_INSTANCES[@]}")
    else echo "start.sh: Cyrus is not installed (install.sh): cyrus and cyrusalt not started" >&2; fi
    if courier_installed; then IMAP_KINDS+=(courier)
    else echo "start.sh: Courier is not unpacked (install.sh): courier not started" >&2; fi
}

# True if kind $1 is one of IMAP_KINDS.
kind_chosen() { [[ " ${IMAP_KINDS[*]} " == *" $1 "* ]]; }

configure_other_kinds() {
    ! kind_chosen cyrus || cyrus_configure
    ! kind_chosen courier || courier_configure
}

start_other_kinds() {
    local instance
    if kind_chosen cyrus; then
        for instance in "${CYRUS_INSTANCES[@]}"; do
            cyrus_start "$instance" || fail "cyrus master ($instance) did not start (see $STATE/$instance/master.log and syslog)"
        done
    fi
    ! kind_chosen courier || courier_start
}

# Every user of any kind that is not a Dovecot user, one a line.
other_users() {
    local kind
    for kind in "${IMAP_KINDS[@]:1}"; do kind_users "$kind"; done | sort -u | grep -vxF -f <(printf '%s\n' "${MAIL_USERS[@]}") || true
}

write_env() {
    local name user instance upper port_var kind users
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
        env_line RCPT_LIMIT "$RCPT_LIMIT"
        for user in "${MAIL_USERS[@]}" $(other_users); do
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
        env_line IMAP_SERVERS "${IMAP_KINDS[*]}"
        env_line DOVECOT_IMAPS_PORT "$PORT_IMAPS"
        for kind in "${IMAP_KINDS[@]}"; do
            upper="${kind^^}"
            [ "$kind" = dovecot ] || env_line "${upper}_PID" "$(kind_pid "$kind")"
            env_line "${upper}_PREFIX" "${KIND_PREFIX[$kind]}"
            env_line "${upper}_DELIMITER" "${KIND_DELIMITER[$kind]}"
            users="$(kind_users "$kind" | tr '\n' ' ')"
            env_line "${upper}_USERS" "${users% }"
        done
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
    choose_kinds
    assign_ports
    mailfs_make_certs "$CERTS"
    dovecot_configure
    postfix_configure
    configure_other_kinds
    start_other_kinds
    dovecot_start || fail "dovecot did not start (see $STATE/dovecot/*.log)"
    # Cyrus's autocreation (a second) overlaps Postfix's start (another).
    local autocreate=""
    if kind_chosen cyrus; then cyrus_autocreate & autocreate=$!; fi
    postfix_start || fail "postfix did not start (see $STATE/postfix/postfix.log)"
    wait_for_ports "$START_TIMEOUT_SECONDS" "${ALL_PORTS[@]}" ||
        fail "servers not up after ${START_TIMEOUT_SECONDS}s (logs in $STATE/*/)"
    [ -z "$autocreate" ] || wait "$autocreate" || fail "Cyrus did not autocreate the users' folders"
    write_env
}

main "$@"
