#!/usr/bin/env bash
# install.sh [PACKAGE...] -- installs the mail servers the integration tests run (Dovecot
# IMAP + LMTP, Postfix, Cyrus IMAP, Courier-IMAP), the tools start.sh needs and any extra
# Debian packages named (e.g. the benchmarks' isync msmtp), without letting the packages start
# their own system daemons: the tests start private instances on 127.0.0.1 high ports
# (start.sh), never the system ones.
# cyrus-imapd and courier-imap conflict with dovecot-imapd in apt (all provide imap-server), so
# their .debs are downloaded and unpacked into MAILFS_SERVERS_CACHE/root, outside the system's
# package database; only their non-conflicting parts (cyrus-common, libraries) are installed.
# Idempotent and quiet: silent when everything is there; one line, or apt's log on failure.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../host-setup.sh"
. "$HERE/process.sh"

# cyrus-common has master and the tools, cyrus-admin cyradm, sasl2-bin saslpasswd2; the
# libraries are those the unpacked Courier binaries link, gamin the FAM server of its IDLE.
CYRUS_PACKAGES=(cyrus-common cyrus-admin sasl2-bin)
COURIER_LIBRARIES=(libcourier-unicode4 libgamin0 gamin libgdbm6 libidn12 libgnutls30 libpcre3 libltdl7 libcrypt1
    libpam0g perl)
SERVER_PACKAGES=(dovecot-imapd dovecot-lmtpd postfix openssl python3 "${CYRUS_PACKAGES[@]}" "${COURIER_LIBRARIES[@]}" "$@")
UNPACKED_PACKAGES=(courier-imap courier-base courier-authlib courier-authdaemon courier-authlib-userdb)
POLICY=/usr/sbin/policy-rc.d
TEMPORARY_FILES=()
trap 'rm -rf "${TEMPORARY_FILES[@]}"' EXIT

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

install_packages() {
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
    [ -z "$(not_installed cyrus-common)" ] || new_services+=(cyrus-imapd)
    [ -z "$(not_installed sasl2-bin)" ] || new_services+=(saslauthd)
    echo "installing: ${missing[*]}" >&2
    echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
    forbid_daemon_starts
    log="$(mktemp)"
    TEMPORARY_FILES+=("$log")
    mailfs_ensure_packages "${missing[@]}" >"$log" 2>&1 || { cat "$log" >&2; return 1; }
    keep_services_down "${new_services[@]}"
}

# What the unpacked tree is made of: Courier's packages (whichever version apt offers) and
# cyrus-imapd at exactly the installed cyrus-common's version (imapd needs its libraries).
wanted_debs() {
    printf '%s\n' "${UNPACKED_PACKAGES[@]}"
    echo "cyrus-imapd=$(dpkg-query -W -f='${Version}' cyrus-common)"
}

# $1 directory: downloads the wanted .debs there; refreshes apt's lists once if they lack them.
download_debs() {
    # apt-get download runs as _apt when _apt may write there (else it warns and runs as root).
    chown _apt "$1" 2>/dev/null || true
    # shellcheck disable=SC2046
    (cd "$1" && apt-get download -qq $(wanted_debs)) ||
        { apt-get update -qq && (cd "$1" && apt-get download -qq $(wanted_debs)); }
}

# Downloads and unpacks the conflicting packages into MAILFS_SERVERS_ROOT, unless the tree
# there was made of the same packages (its .mailfs-debs lists them).
unpack_conflicting() {
    local stamp="$MAILFS_SERVERS_ROOT/.mailfs-debs" new="$MAILFS_SERVERS_ROOT.new" debs log deb
    [ "$(cat "$stamp" 2>/dev/null)" != "$(wanted_debs)" ] || return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "the server tests need Cyrus's imapd and Courier unpacked in $MAILFS_SERVERS_ROOT: run $0 as root" >&2
        return 1
    fi
    echo "unpacking into $MAILFS_SERVERS_ROOT: $(wanted_debs | tr '\n' ' ')" >&2
    log="$(mktemp)"
    debs="$(mktemp -d)"
    TEMPORARY_FILES+=("$log" "$debs")
    download_debs "$debs" >"$log" 2>&1 || { cat "$log" >&2; return 1; }
    rm -rf "$new"
    mkdir -p "$new"
    for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$new"; done
    wanted_debs >"$new/.mailfs-debs"
    chmod 755 "$new"
    rm -rf "$MAILFS_SERVERS_ROOT"
    mv "$new" "$MAILFS_SERVERS_ROOT"
}

main() {
    install_packages
    unpack_conflicting
}

main
