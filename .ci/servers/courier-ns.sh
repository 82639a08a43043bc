#!/usr/bin/env bash
# courier-ns.sh STATE_DIR ROOT PORT -- the init of Courier's private mount and pid namespaces
# (started by courier.sh's courier_start through `unshare`): mounts Courier's compiled-in paths
# onto the state folder and the unpacked packages in ROOT, builds the userdb, runs authdaemond
# and couriertcpd (IMAPS on 127.0.0.1:PORT), and writes its pid as seen from outside to
# STATE_DIR/courier/init.pid. SIGTERM stops both daemons; when this script ends, the kernel
# ends whatever is left in the namespace (sessions, gam_server).
set -euo pipefail
STATE="$1" ROOT="$2" PORT="$3"

# Overlays are read-only views (no upper layer), so what Courier writes goes elsewhere: the
# userdb.dat is made before /etc is overlaid, sockets go to a tmpfs /run.
mount_courier_paths() {
    # /usr is the system's with the unpacked packages above it: libraries, modules, helpers.
    mount -t overlay overlay -o "lowerdir=$ROOT/usr:/usr" /usr
    /usr/sbin/makeuserdb -f "$STATE/courier/etc/courier/userdb"
    # /etc/courier appears in /etc the same way, from the state folder.
    mount -t overlay overlay -o "lowerdir=$STATE/courier/etc:/etc" /etc
    mount -t tmpfs -o mode=755 tmpfs /run
    mkdir -p /run/courier/authdaemon
}

# $1 path: waits up to 10 s for that socket to appear.
wait_for_socket() {
    local tries=200
    until [ -S "$1" ]; do
        tries=$((tries - 1))
        [ $tries -gt 0 ] || { echo "courier-ns.sh: no $1 after 10 s" >&2; exit 1; }
        sleep 0.05
    done
}

main() {
    local outer_pid authdaemond="" tcpd=""
    trap 'kill -TERM $tcpd $authdaemond 2>/dev/null; wait; exit 0' TERM INT
    # /proc is the host's: its "self" is this shell's pid outside the namespace.
    read -r outer_pid _ </proc/self/stat
    echo "$outer_pid" >"$STATE/courier/init.pid"
    mount_courier_paths
    /usr/lib/courier/courier-authlib/authdaemond &
    authdaemond=$!
    # Logins before authdaemond listens would fail: IMAPS opens only once it does.
    wait_for_socket /run/courier/authdaemon/socket
    set -a
    # shellcheck source=/dev/null
    . /etc/courier/imapd
    set +a
    /usr/sbin/couriertcpd -address=127.0.0.1 -maxprocs=200 -maxperip=200 -nodnslookup -noidentlookup \
        "$PORT" /usr/bin/couriertls -server -tcpd /usr/lib/courier/courier/imaplogin /usr/bin/imapd Maildir &
    tcpd=$!
    # Either daemon ending ends Courier: a half-working server is worse than none.
    wait -n
    kill -TERM $tcpd $authdaemond 2>/dev/null || true
    wait
}

main
