# Dovecot for the tests, sourced by start.sh: three instances sharing one passwd-file and one
# Maildir tree, because Dovecot 2.3 cannot vary TLS by listener port (its `local` filter takes
# an address, not a port) and everything must listen on 127.0.0.1:
#   main        IMAPS + IMAP with STARTTLS (CA-signed), LMTP, the SASL socket for Postfix
#   selfsigned  IMAPS with a certificate no CA signed
#   plain       IMAP with ssl = no, so CAPABILITY never offers STARTTLS
#   nomove      IMAPS (CA-signed) whose CAPABILITY lacks MOVE (RFC 6851) but has UIDPLUS, and
#               that records every session (what each client sent: ~/rawlog-nomove/*.in)
# Needs STATE, MAIL_USER, CERTS and the PORT_* variables of start.sh.
#
# Two Gmail-like users: gmail, whose "[Gmail]/All Mail" is a plain folder (a test copies into
# it what it wants there), and gmailv, whose All Mail is what Gmail's is, a view over every
# folder but Trash and Spam (Dovecot's virtual plugin): a message lives only while some folder
# holds it. gmailv lives in these instances, not in one of its own: everything it needs (the
# plugin, two namespaces) is switched on for it alone by its userdb fields, so the other users'
# LIST and NAMESPACE stay as they were (selftest.py checks both).

DOVECOT_INSTANCES=(main selfsigned plain nomove)
GENERIC_FOLDERS=(Sent Drafts Trash Junk Archive)
GMAIL_FOLDERS=("[Gmail]/All Mail" "[Gmail]/Important" "[Gmail]/Sent Mail" "[Gmail]/Drafts"
    "[Gmail]/Trash" "[Gmail]/Spam" "[Gmail]/Starred")
# gmailv's real folders: All Mail is the virtual mailbox, not one of them.
GMAILV_FOLDERS=("${GMAIL_FOLDERS[@]:1}")
# Where gmailv's All Mail saves what is copied or appended into it (Gmail: a message with no
# label): a mailbox of a namespace that neither LIST "" "*" nor NAMESPACE shows, so no client
# syncs it as a folder of its own. All Mail shows it, like every other folder.
GMAILV_STORE="AllMailStore/Archived"

# The userdb fields (passwd-file's 8th column) that make a user gmailv-like: the virtual plugin
# (userdb replaces mail_plugins; no instance sets any) and the two namespaces that are
# disabled for everyone else.
GMAILV_USERDB_FIELDS="userdb_mail_plugins=virtual userdb_namespace/allmail/disabled=no userdb_namespace/allmailstore/disabled=no"

# Special-use by folder name. A name only matters for users who have that folder: start.sh
# creates the generic folders for alice, bob and carol and the [Gmail]/ ones for gmail and
# gmailv, so each user sees one layout. gmailv's "[Gmail]/All Mail" is the root of namespace
# allmail, yet gets its \All from here: Dovecot 2.3 looks a LIST entry's special-use up in
# the first namespace (prefix ""), by full name; one in namespace allmail itself is ignored.
dovecot_special_use_blocks() {
    local name use
    while read -r use name; do
        printf '  mailbox "%s" {\n    special_use = %s\n  }\n' "$name" "$use"
    done <<'USES'
\Sent Sent
\Drafts Drafts
\Trash Trash
\Junk Junk
\Archive Archive
\All [Gmail]/All Mail
\Important [Gmail]/Important
\Sent [Gmail]/Sent Mail
\Drafts [Gmail]/Drafts
\Trash [Gmail]/Trash
\Junk [Gmail]/Spam
\Flagged [Gmail]/Starred
USES
}

# Settings every instance shares: users, storage, namespace, limits.
dovecot_common_conf() {
    cat <<CONF
listen = 127.0.0.1
log_timestamp = "%Y-%m-%d %H:%M:%S "
mail_location = maildir:~/Maildir
mail_uid = $MAIL_USER
mail_gid = $MAIL_USER
first_valid_uid = $(id -u "$MAIL_USER")
first_valid_gid = $(id -g "$MAIL_USER")
# Logins as "alice" or "alice@example.test" (and LMTP recipients) are the same user.
auth_username_format = %Ln
# XOAUTH2/OAUTHBEARER check the bearer token like a password: a user's token is its password.
auth_mechanisms = plain login xoauth2 oauthbearer
passdb {
  driver = passwd-file
  args = scheme=PLAIN $STATE/dovecot/users
}
userdb {
  driver = passwd-file
  args = $STATE/dovecot/users
  default_fields = uid=$MAIL_USER gid=$MAIL_USER home=$STATE/mail/%n
}
namespace inbox {
  inbox = yes
  separator = /
$(dovecot_special_use_blocks)
}
# gmailv's All Mail (enabled by GMAILV_USERDB_FIELDS). A namespace whose prefix is
# "[Gmail]/All Mail/" makes "[Gmail]/All Mail" itself its root mailbox: the virtual mailbox of
# ~/virtual/dovecot-virtual, beside the real [Gmail]/ folders of the inbox namespace. hidden:
# NAMESPACE shows only "" (as Gmail's does); list = yes: LIST shows the root as a mailbox.
namespace allmail {
  disabled = yes
  prefix = [Gmail]/All Mail/
  separator = /
  location = virtual:~/virtual
  hidden = yes
  list = yes
  subscriptions = no
}
# Where gmailv's All Mail saves (GMAILV_STORE): invisible to LIST "" "*" and NAMESPACE.
namespace allmailstore {
  disabled = yes
  prefix = AllMailStore/
  separator = /
  location = maildir:~/AllMailStore
  hidden = yes
  list = no
  subscriptions = no
}
ssl_min_protocol = TLSv1.2
# Tests try wrong passwords on purpose: refuse within 0.5 s (Dovecot's failure timer tick, not
# 2 s) and never penalize 127.0.0.1 for it (Dovecot otherwise delays each later failure from
# that address more, up to 15 s).
auth_failure_delay = 0
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
protocol imap {
  mail_max_userip_connections = 500
}
service imap-login {
  process_min_avail = 1
}
CONF
}

# $1 instance name. The listeners and TLS of that instance.
dovecot_instance_conf() {
    local instance="$1"
    printf '!include %s/dovecot/common.conf\n' "$STATE"
    printf 'base_dir = %s\nstate_dir = %s\ninstance_name = mailfs-%s\n' \
        "$STATE/dovecot/$instance" "$STATE/dovecot/$instance" "$instance"
    printf 'log_path = %s/dovecot/%s.log\n' "$STATE" "$instance"
    case "$instance" in
        main) dovecot_main_conf ;;
        selfsigned) dovecot_imap_listeners 0 "$PORT_IMAPS_SELFSIGNED"
            dovecot_tls_conf selfsigned
            echo "protocols = imap" ;;
        plain) dovecot_imap_listeners "$PORT_IMAP_PLAIN" 0
            printf 'ssl = no\ndisable_plaintext_auth = no\nprotocols = imap\n' ;;
        nomove) dovecot_imap_listeners 0 "$PORT_IMAPS_NOMOVE"
            dovecot_tls_conf server
            dovecot_nomove_conf ;;
    esac
}

# $1 IMAP port (STARTTLS unless ssl = no), $2 IMAPS port; 0 disables a listener.
dovecot_imap_listeners() {
    cat <<CONF
service imap-login {
  inet_listener imap {
    port = $1
  }
  inet_listener imaps {
    port = $2
    ssl = yes
  }
}
CONF
}

# $1 certificate name in CERTS.
dovecot_tls_conf() {
    printf 'ssl = yes\nssl_cert = <%s/%s.pem\nssl_key = <%s/%s.key\n' \
        "$CERTS" "$1" "$CERTS" "$1"
}

dovecot_main_conf() {
    dovecot_imap_listeners "$PORT_IMAP_STARTTLS" "$PORT_IMAPS"
    dovecot_tls_conf server
    cat <<CONF
protocols = imap lmtp
service lmtp {
  inet_listener lmtp {
    port = $PORT_LMTP
  }
}
service auth {
  unix_listener $STATE/dovecot/auth-postfix {
    mode = 0666
  }
}
CONF
}

# Dovecot 2.3's post-login capabilities without MOVE. imap_capability replaces the list (a
# leading "+" can only add), so this is the default list of 2.3.19 minus MOVE; selftest.py
# checks it is exactly the main instance's list minus MOVE. Dovecot still executes a MOVE it is
# sent: the rawlog lets a test check that a client never sent one.
dovecot_nomove_conf() {
    cat <<'CONF'
protocols = imap
protocol imap {
  imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE SORT SORT=DISPLAY THREAD=REFERENCES THREAD=REFS THREAD=ORDEREDSUBJECT MULTIAPPEND URL-PARTIAL CATENATE UNSELECT CHILDREN NAMESPACE UIDPLUS LIST-EXTENDED I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS BINARY SNIPPET=FUZZY PREVIEW=FUZZY PREVIEW STATUS=SIZE SAVEDATE LITERAL+ NOTIFY SPECIAL-USE
  rawlog_dir = %h/rawlog-nomove
}
CONF
}

# $1 Maildir root, $2... folder names: the folders, as Maildir++ subdirectories.
dovecot_make_folders() {
    local root="$1" folder dir
    shift
    mkdir -p "$root"/{cur,new,tmp}
    for folder in "$@"; do
        # Maildir++ stores "[Gmail]/All Mail" as the directory ".[Gmail].All Mail".
        dir="$root/.${folder//\//.}"
        mkdir -p "$dir"/{cur,new,tmp}
        touch "$dir/maildirfolder"
    done
}

# gmailv's All Mail: every message of every folder but Trash and Spam, and of the store, which
# is also where a COPY or APPEND into All Mail saves ("!"). "*" matches only listed mailboxes
# (so not the store, hence its own line); a folder created later is in it from the next SELECT.
dovecot_gmailv_virtual() {
    cat <<VIRTUAL
!$GMAILV_STORE
*
-[Gmail]/Trash
-[Gmail]/Spam
  all
VIRTUAL
}

# $1 user name: the user's Maildir with the folders of its layout.
dovecot_make_maildir() {
    local user="$1" home="$STATE/mail/$1"
    mkdir -p "$home/rawlog-nomove"
    case "$user" in
        gmail) dovecot_make_folders "$home/Maildir" "${GMAIL_FOLDERS[@]}" ;;
        gmailv) dovecot_make_folders "$home/Maildir" "${GMAILV_FOLDERS[@]}"
            dovecot_make_folders "$home/AllMailStore" "${GMAILV_STORE#AllMailStore/}"
            mkdir -p "$home/virtual"
            dovecot_gmailv_virtual >"$home/virtual/dovecot-virtual" ;;
        *) dovecot_make_folders "$home/Maildir" "${GENERIC_FOLDERS[@]}" ;;
    esac
    chown -R "$MAIL_USER:$MAIL_USER" "$home"
}

# $1 user name: its passwd-file line (password in clear, the userdb's defaults, gmailv's fields).
dovecot_user_line() {
    local fields=""
    [ "$1" != gmailv ] || fields="$GMAILV_USERDB_FIELDS"
    printf '%s:%s::::::%s\n' "$1" "$(user_password "$1")" "$fields"
}

# Writes every config, the users file and the Maildirs.
dovecot_configure() {
    local instance user
    mkdir -p "$STATE/dovecot"
    dovecot_common_conf >"$STATE/dovecot/common.conf"
    for instance in "${DOVECOT_INSTANCES[@]}"; do
        mkdir -p "$STATE/dovecot/$instance"
        dovecot_instance_conf "$instance" >"$STATE/dovecot/$instance.conf"
    done
    : >"$STATE/dovecot/users"
    for user in "${MAIL_USERS[@]}"; do
        dovecot_user_line "$user" >>"$STATE/dovecot/users"
        dovecot_make_maildir "$user"
    done
    chmod 644 "$STATE/dovecot/users"
}

dovecot_start() {
    local instance
    for instance in "${DOVECOT_INSTANCES[@]}"; do
        # Daemonized, with stdio away from the caller: an inherited pipe would never close.
        dovecot -c "$STATE/dovecot/$instance.conf" </dev/null >>"$STATE/dovecot/$instance.log" 2>&1 ||
            return 1
    done
}
