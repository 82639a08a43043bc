#!/usr/bin/env bash
# install.sh [PACKAGE...] -- installs the mail servers the integration tests run (Dovecot
# IMAP + LMTP, Postfix), the tools start.sh needs and any extra Debian packages named (e.g. the
# benchmarks' isync msmtp), without letting the packages start their own system daemons: the
# tests start private instances on 127.0.0.1 high ports (start.sh), never the system ones.
# Idempotent and quiet: silent when everything is there; one line, or apt's log on failure.
set -euo pipefail
. "$(dirname "$0")/../host-setup.sh"

SERVER_PACKAGES=(dovecot-imapd dovecot-lmtpd postfix openssl python3 "$@")
POLICY=/usr/sbin/policy-rc.d
TEMPORARY_FILES=()
trap 'rm -f "${TEMPORARY_FILES[@]}"' EXIT

# $@ packages: those of them not installed.
not_installed() {
    local package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || echo "$package"
    done
}

# A policy-rc.d that exits 101 tells invoke-rc.d / deb-systemd-invoke "do not start anything".
# One that already exists (Docker images ship one) is left as it is.
forbid_daemon_starts() {
    [ -e "$POLICY" ] && return 0
    printf '#!/bin/sh\n# mailfs .ci/servers/install.sh: no daemon starts during install\nexit 101\n' >"$POLICY"
    chmod 755 "$POLICY"
    TEMPORARY_FILES+=("$POLICY")
}

# $@ services this run installed: not running, and on systemd not started at boot either
# (the packages enable them, and a default Dovecot would listen on 143 and 993).
keep_services_down() {
    local service
    for service in "$@"; do
        if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
            systemctl disable --now "$service" >/dev/null 2>&1 || true
        elif [ -x "/etc/init.d/$service" ]; then
            "/etc/init.d/$service" stop >/dev/null 2>&1 || true
        fi
    done
}

main() {
    local missing new_services=() log
    mapfile -t missing < <(not_installed "${SERVER_PACKAGES[@]}")
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "the server tests need: ${missing[*]} (sudo apt-get install ${missing[*]})" >&2
        return 1
    fi
    # Only services this run brings in are kept down: a mail server the host already had is not ours.
    [ -z "$(not_installed dovecot-core)" ] || new_services+=(dovecot)
    [ -z "$(not_installed postfix)" ] || new_services+=(postfix)
    echo "installing: ${missing[*]}" >&2
    echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
    forbid_daemon_starts
    log="$(mktemp)"
    TEMPORARY_FILES+=("$log")
    mailfs_ensure_packages "${missing[@]}" >"$log" 2>&1 || { cat "$log" >&2; return 1; }
    keep_services_down "${new_services[@]}"
}

main
