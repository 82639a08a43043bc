# Cyrus IMAP 3.6 for the tests, sourced by start.sh, stop.sh and ctl.sh: two instances, each a
# `master` daemon with its own imapd.conf, cyrus.conf, mail spool, sasldb and IMAPS port:
#   cyrus     the namespace Debian ships: personal prefix "INBOX.", delimiter "." (altnamespace
#             and unixhierarchysep off): INBOX.Sent, INBOX.Parent.Child
#   cyrusalt  upstream's default namespace: delimiter "/", altnamespace on: Sent, Parent/Child
#             at the top level beside INBOX
# Users log in with passwords from a sasldb (auxprop); their INBOX and its folders are made by
# Cyrus's own autocreate at the first login (start.sh logs each user in once), with special-use
# flags (xlist-*), as on a Debian host configured for autocreate. `idled` pushes changes to
# IDLE sessions (without it Cyrus polls every 60 s). Cyrus keeps its defaults on content:
# bare-LF APPENDs are refused and 8-bit header bytes become "X".
# The cyrus-imapd package conflicts with dovecot-imapd in apt (both provide imap-server):
# install.sh installs cyrus-common (master, tools) and unpacks cyrus-imapd's imapd and idled
# into MAILFS_SERVERS_ROOT (process.sh), from where cyrus.conf runs them.
# Needs STATE, CERTS, MAIL_DOMAIN and the PORT_* variables of start.sh for configuring.

CYRUS_INSTANCES=(cyrus cyrusalt)
CYRUS_USERS=(alice bob carol)
CYRUS_MASTER=/usr/lib/cyrus/bin/master
CYRUS_USER=cyrus
CYRUS_FOLDERS="Sent|Drafts|Trash|Junk|Archive"

# True when the Cyrus pieces install.sh provides are there.
cyrus_installed() {
    [ -x "$CYRUS_MASTER" ] && [ -x "$MAILFS_SERVERS_ROOT/usr/lib/cyrus/bin/imapd" ] &&
        command -v saslpasswd2 >/dev/null
}

# $1 instance: the imapd.conf.
cyrus_imapd_conf() {
    local dir="$STATE/$1" alt=no
    [ "$1" = cyrusalt ] && alt=yes
    cat <<CONF
configdirectory: $dir/config
partition-default: $dir/spool
defaultpartition: default
proc_path: $dir/config/proc
mboxname_lockpath: $dir/config/lock
idlesocket: $dir/config/socket/idle
notifysocket: $dir/config/socket/notify
lmtpsocket: $dir/config/socket/lmtp
sievedir: $dir/sieve
sieveusehomedir: false
servername: localhost
virtdomains: userid
defaultdomain: $MAIL_DOMAIN
syslog_prefix: mailfs-$1
altnamespace: $alt
unixhierarchysep: $alt
hashimapspool: true
allowplaintext: yes
sasl_pwcheck_method: auxprop
sasl_auxprop_plugin: sasldb
sasl_sasldb_path: $dir/sasldb
sasl_mech_list: PLAIN LOGIN
tls_server_cert: $dir/server.pem
tls_server_key: $dir/server.key
tls_client_ca_file: $CERTS/ca.pem
autocreate_quota: 0
autocreate_inbox_folders: $CYRUS_FOLDERS
autocreate_subscribe_folders: $CYRUS_FOLDERS
xlist-sent: Sent
xlist-drafts: Drafts
xlist-trash: Trash
xlist-junk: Junk
xlist-archive: Archive
CONF
}

# $1 instance: the cyrus.conf. imapd and idled run from the unpacked cyrus-imapd package. Each
# command names the config itself: master does not pass its -C on, and a child without one
# reads the system's /etc/imapd.conf.
cyrus_master_conf() {
    local bin="$MAILFS_SERVERS_ROOT/usr/lib/cyrus/bin" port_var="PORT_${1^^}_IMAPS"
    local config="-C $STATE/$1/imapd.conf"
    cat <<CONF
START {
  recover cmd="ctl_cyrusdb $config -r"
}
SERVICES {
  imaps cmd="$bin/imapd $config -s" listen="127.0.0.1:${!port_var}" proto=tcp4 prefork=1 maxchild=500
}
DAEMON {
  idled cmd="$bin/idled $config"
}
CONF
}

# $1 instance: config, spool, certificate and sasldb, all owned by the cyrus user.
cyrus_configure_instance() {
    local dir="$STATE/$1" user
    mkdir -p "$dir"/{config/db,config/proc,config/lock,config/socket,spool,sieve}
    cyrus_imapd_conf "$1" >"$dir/imapd.conf"
    cyrus_master_conf "$1" >"$dir/cyrus.conf"
    cp "$CERTS/server.pem" "$CERTS/server.key" "$dir/"
    for user in "${CYRUS_USERS[@]}"; do
        user_password "$user" | saslpasswd2 -p -c -f "$dir/sasldb" -u localhost "$user"
        user_password "$user" | saslpasswd2 -p -c -f "$dir/sasldb" -u "$MAIL_DOMAIN" "$user"
    done
    chown -R "$CYRUS_USER:mail" "$dir"
    chmod 600 "$dir/server.key" "$dir/sasldb"
}

cyrus_configure() {
    local instance
    for instance in "${CYRUS_INSTANCES[@]}"; do cyrus_configure_instance "$instance"; done
}

# Logs every user in once on each instance, which makes Cyrus autocreate their folders. The
# logins run at once: each autocreation takes about half a second, mostly waiting for fsync.
# Waits for the instances to accept connections first.
cyrus_autocreate() {
    local instance user ports=() logins=()
    for instance in "${CYRUS_INSTANCES[@]}"; do
        local port_var="PORT_${instance^^}_IMAPS"
        ports+=("${!port_var}")
    done
    for user in "${CYRUS_USERS[@]}"; do logins+=("$user" "$(user_password "$user")"); done
    wait_for_ports 20 "${ports[@]}" || return 1
    python3 - "$CERTS/ca.pem" "${ports[*]}" "${logins[@]}" <<'PYTHON'
import concurrent.futures, imaplib, ssl, sys
context = ssl.create_default_context(cafile=sys.argv[1])
logins = list(zip(sys.argv[3::2], sys.argv[4::2]))

def login(port, user, password):
    session = imaplib.IMAP4_SSL("127.0.0.1", int(port), ssl_context=context, timeout=20)
    session.login(user, password)
    session.logout()

with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
    jobs = [pool.submit(login, port, user, password) for port in sys.argv[2].split() for user, password in logins]
    for job in jobs:
        job.result()
PYTHON
}


# $1 instance. Daemonized, with stdio away from the caller: an inherited pipe would never close.
cyrus_start() {
    "$CYRUS_MASTER" -C "$STATE/$1/imapd.conf" -M "$STATE/$1/cyrus.conf" -p "$STATE/$1/master.pid" -d \
        </dev/null >>"$STATE/$1/master.log" 2>&1
}

# $1 instance: the pid of that Cyrus master if it runs, else nothing.
cyrus_pid() {
    master_pid "$STATE/$1/master.pid" "-C $STATE/$1/imapd.conf"
}

# $1 instance, $2 stop_master or kill_master.
cyrus_end() {
    end_master "$STATE/$1/master.pid" "-C $STATE/$1/imapd.conf" "$2"
}
