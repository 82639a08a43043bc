# Courier-IMAP 5.0 for the tests, sourced by start.sh, stop.sh and ctl.sh. Its packages conflict
# with Dovecot's in apt (both provide imap-server), so install.sh unpacks them into
# MAILFS_SERVERS_ROOT and installs only their libraries. Courier's paths are compiled in
# (/etc/courier, /run/courier/authdaemon, /usr/lib/courier…): courier-ns.sh runs authdaemond
# and couriertcpd in private mount and pid namespaces where /usr is the system's overlaid with
# the unpacked tree, /etc the system's overlaid with STATE/courier/etc (so /etc/courier is
# STATE/courier/etc/courier) and /run a tmpfs. The system is never
# touched, and the namespace's end (its init killed) ends every process of it.
# Namespace: personal prefix "INBOX.", delimiter "." (Maildir++). No MOVE, SPECIAL-USE or
# CONDSTORE. IDLE is pushed through FAM (gamin's gam_server, started by libgamin on demand)
# with IMAP_ENHANCEDIDLE=1.
# Users (authdaemon userdb, all stored as the `mail` user): alice, bob, carol with INBOX.Sent,
# .Drafts, .Trash, .Junk, .Archive; deleteditems whose Trash is "INBOX.Deleted Items"; notrash
# without any Trash.
# Needs STATE, CERTS and PORT_COURIER_IMAPS of start.sh for configuring.

COURIER_USERS=(alice bob carol deleteditems notrash)
COURIER_MAIL_USER=mail

# True when the Courier pieces install.sh provides are there.
courier_installed() {
    [ -x "$MAILFS_SERVERS_ROOT/usr/bin/imapd" ] && [ -x "$MAILFS_SERVERS_ROOT/usr/sbin/couriertcpd" ] &&
        [ -x /usr/libexec/gam_server ]
}

# $1 user: the folders below INBOX of that user, one a line.
courier_folders() {
    case "$1" in
        deleteditems) printf '%s\n' Sent Drafts "Deleted Items" Junk Archive ;;
        notrash) printf '%s\n' Sent Drafts Junk Archive ;;
        *) printf '%s\n' Sent Drafts Trash Junk Archive ;;
    esac
}

# The environment imapd is configured by (Courier's /etc/courier/imapd and imapd-ssl are shell
# assignments its init script exports): Debian's defaults, except push IDLE, no trash
# auto-purge, and paths in the state folder.
courier_imapd_env() {
    cat <<CONF
IMAP_CAPABILITY="IMAP4rev1 UIDPLUS CHILDREN NAMESPACE THREAD=ORDEREDSUBJECT THREAD=REFERENCES SORT QUOTA IDLE"
IMAP_CAPABILITY_TLS="\$IMAP_CAPABILITY AUTH=PLAIN"
IMAP_KEYWORDS=1
IMAP_ACL=1
IMAP_IDLE_TIMEOUT=60
IMAP_ENHANCEDIDLE=1
IMAP_MAILBOX_SANITY_CHECK=1
IMAP_USELOCKS=1
IMAP_UMASK=022
IMAP_TRASHFOLDERNAME=Trash
IMAP_EMPTYTRASH=
IMAP_MOVE_EXPUNGE_TO_TRASH=0
IMAP_SHAREDINDEXFILE=/etc/courier/shared/index
IMAP_TLS=1
IMAP_TLS_REQUIRED=0
MAILDIRPATH=Maildir
TLS_CERTFILE=/etc/courier/imapd.pem
TLS_PROTOCOL=TLS1_2+
TLS_VERIFYPEER=NONE
TLS_CACHEFILE=$STATE/courier/tlscache
TLS_CACHESIZE=524288
GAM_CLIENT_ID=mailfs-${STATE##*/}
CONF
}

courier_authdaemonrc() {
    cat <<'CONF'
authmodulelist="authuserdb"
daemons=2
authdaemonvar=/run/courier/authdaemon
DEBUG_LOGIN=0
DEFAULTOPTIONS=""
CONF
}

# $1 user: a Maildir++ with that user's folders, subscribed to as Courier's own clients do.
courier_make_maildir() {
    local user="$1" root="$STATE/courier/mail/$1/Maildir" folder
    mkdir -p "$root"/{cur,new,tmp}
    while read -r folder; do
        mkdir -p "$root/.$folder"/{cur,new,tmp}
        touch "$root/.$folder/maildirfolder"
        echo "INBOX.$folder"
    done < <(courier_folders "$user") >"$root/courierimapsubscribed"
}

# The userdb source: logins as "alice" and "alice@example.test" are the same account.
courier_userdb() {
    local user uid gid hash home
    uid="$(id -u "$COURIER_MAIL_USER")" gid="$(id -g "$COURIER_MAIL_USER")"
    for user in "${COURIER_USERS[@]}"; do
        hash="$(openssl passwd -6 "$(user_password "$user")")"
        home="$STATE/courier/mail/$user"
        for login in "$user" "$user@$MAIL_DOMAIN"; do
            printf '%s\tuid=%s|gid=%s|home=%s|mail=%s/Maildir|systempw=%s\n' \
                "$login" "$uid" "$gid" "$home" "$home" "$hash"
        done
    done
}

courier_configure() {
    local etc="$STATE/courier/etc/courier" user
    mkdir -p "$etc/shared" "$STATE/courier/mail"
    courier_imapd_env >"$etc/imapd"
    courier_authdaemonrc >"$etc/authdaemonrc"
    cat "$CERTS/server.key" "$CERTS/server.pem" >"$etc/imapd.pem"
    chmod 600 "$etc/imapd.pem"
    (umask 077 && courier_userdb >"$etc/userdb")
    for user in "${COURIER_USERS[@]}"; do courier_make_maildir "$user"; done
    chown -R "$COURIER_MAIL_USER:$COURIER_MAIL_USER" "$STATE/courier/mail"
}

# Starts Courier in its namespaces (courier-ns.sh), daemonized, with stdio away from the caller.
courier_start() {
    rm -f "$STATE/courier/init.pid"
    setsid unshare --mount --propagation private --pid --fork --kill-child \
        "$HERE/courier-ns.sh" "$STATE" "$MAILFS_SERVERS_ROOT" "$PORT_COURIER_IMAPS" \
        </dev/null >>"$STATE/courier/courier.log" 2>&1 &
}

# The outer pid of Courier's namespace init (courier-ns.sh) if it runs, else nothing.
courier_pid() {
    local pid
    pid="$(cat "$STATE/courier/init.pid" 2>/dev/null || true)"
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] &&
        tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "courier-ns.sh $STATE " &&
        echo "$pid"
    return 0
}

# $1 stop_master or kill_master: ends Courier (every process of its pid namespace).
courier_end() {
    local pid
    pid="$(courier_pid)"
    [ -z "$pid" ] || "$1" "$pid"
    rm -f "$STATE/courier/init.pid"
}
