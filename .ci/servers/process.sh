# Finding, waiting for and ending the test servers, sourced by start.sh, stop.sh and ctl.sh.
# A pid is only ever signalled after checking that it is one of ours (pid files can be stale
# and pids reused): a Dovecot master started with this state dir's config, or a Postfix master
# working in this state dir's queue.

STOP_TIMEOUT_SECONDS=10
# Where install.sh unpacks the servers that conflict with Dovecot in apt (Cyrus's imapd,
# Courier): MAILFS_SERVERS_ROOT is the tree cyrus.conf and courier-ns.sh run them from.
MAILFS_SERVERS_ROOT="${MAILFS_SERVERS_ROOT:-/var/cache/mailfs-servers/root}"

# $1 pid file, $2 text the process's command line holds: the pid in the file if that
# process runs with that command line, else nothing (a stale file may name a reused pid).
master_pid() {
    local pid
    pid="$(cat "$1" 2>/dev/null || true)"
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] &&
        tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$2" &&
        echo "$pid"
    return 0
}

# $1 pid file, $2 command-line text (as master_pid), $3 stop_master or kill_master: ends
# that master and removes its pid file: a new master refuses to start while the pid in it
# exists, and an unreaped zombie still exists.
end_master() {
    local pid
    pid="$(master_pid "$1" "$2")"
    [ -z "$pid" ] || "$3" "$pid"
    rm -f "$1"
}

# $1 instance: the pid of that Dovecot master if it runs, else nothing.
dovecot_pid() {
    master_pid "$STATE/dovecot/$1/master.pid" "-c $STATE/dovecot/$1.conf"
}

# The pid of the Postfix master if it runs, else nothing (Postfix pads its pid file).
postfix_pid() {
    local pid
    pid="$(tr -d ' \n' <"$STATE/postfix/queue/pid/master.pid" 2>/dev/null || true)"
    [ -n "$pid" ] && [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$STATE/postfix/queue" ] &&
        echo "$pid"
    return 0
}

# $1 instance, $2 stop_master or kill_master: ends that Dovecot (and its pid file).
dovecot_end() {
    end_master "$STATE/dovecot/$1/master.pid" "-c $STATE/dovecot/$1.conf" "$2"
}

# $1 pid: true while that process exists (a zombie counts as gone).
process_alive() {
    [ -e "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

# $1 pid of a master: SIGTERM (the master ends its own children), then SIGKILL to whatever of
# the master and its children is still there after STOP_TIMEOUT_SECONDS.
stop_master() {
    local pid="$1" children
    mapfile -t children < <(pgrep -P "$pid" || true)
    kill -TERM "$pid" 2>/dev/null || return 0
    local deadline=$((SECONDS + STOP_TIMEOUT_SECONDS))
    while process_alive "$pid" && [ $SECONDS -lt $deadline ]; do sleep 0.05; done
    kill_processes "$pid" "${children[@]}"
}

# $1 pid of a master: SIGKILL to it and its children at once, like a crash.
kill_master() {
    local children
    mapfile -t children < <(pgrep -P "$1" || true)
    kill_processes "$1" "${children[@]}"
}

kill_processes() {
    local pid
    for pid in "$@"; do kill -KILL "$pid" 2>/dev/null || true; done
    for pid in "$@"; do
        while process_alive "$pid"; do sleep 0.05; done
    done
}

# $1 port: true once something accepts connections on 127.0.0.1:$1.
port_accepts() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# $1 timeout in seconds, then ports: waits until each accepts connections; false on timeout.
wait_for_ports() {
    local deadline=$((SECONDS + $1)) port
    shift
    for port in "$@"; do
        until port_accepts "$port"; do
            [ $SECONDS -lt $deadline ] || { echo "nothing listens on 127.0.0.1:$port" >&2; return 1; }
            sleep 0.05
        done
    done
}
