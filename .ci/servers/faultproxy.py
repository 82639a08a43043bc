#!/usr/bin/python3
"""faultproxy.py -- a TCP proxy on 127.0.0.1 that breaks connections on purpose, for the
fault tests: it sits between a client and a server and passes bytes through untouched (TLS
goes through as ciphertext), except that the first FAULTY connections it accepts meet a fault
once the server has sent AFTER bytes to the client:

  cut    the client gets exactly AFTER bytes, then an orderly close (FIN), as when a server
         or a middlebox drops the connection mid-response
  reset  the client gets exactly AFTER bytes, then a TCP reset (SO_LINGER 0)
  stall  the client gets exactly AFTER bytes, then nothing more in either direction while
         both sockets stay open (a dead path that no FIN or RST reports)

Later connections pass through. Usage:

  faultproxy.py PORT_FILE TARGET_PORT MODE AFTER [FAULTY]

PORT_FILE receives the listening port once the proxy accepts connections; EVENTS_FILE
(PORT_FILE + ".events") gets one line per connection event, "INDEX EVENT SERVER_BYTES"
(EVENT: open, cut, reset, stall, end), so a test can check the fault really happened where
it meant it to. Stop it with SIGKILL: it keeps no state.
"""
import os
import socket
import struct
import sys
import threading

CHUNK = 65536


class Events:
    """The events file, written a line at a time (a test reads it while the proxy runs)."""

    def __init__(self, path):
        self.lock = threading.Lock()
        self.file = open(path, "a", buffering=1)

    def record(self, index, event, server_bytes):
        with self.lock:
            self.file.write(f"{index} {event} {server_bytes}\n")


def close_quietly(sock):
    try:
        sock.close()
    except OSError:
        pass


def reset(sock):
    """Closes with a TCP RST instead of a FIN."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    close_quietly(sock)


def pump_client_to_server(client, server, stalled):
    """Forwards what the client writes until it closes; once the path stalls, what it
    writes is swallowed (a dead path delivers nothing)."""
    try:
        while True:
            data = client.recv(CHUNK)
            if not data:
                break
            if not stalled.is_set():
                server.sendall(data)
    except OSError:
        pass
    if not stalled.is_set():
        try:
            server.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def forward_until_fault(client, server, mode, after):
    """Forwards the server's bytes; returns how many, and whether the fault was reached."""
    sent = 0
    try:
        while True:
            data = server.recv(CHUNK)
            if not data:
                return sent, False
            if mode != "pass" and sent + len(data) >= after:
                client.sendall(data[: after - sent])
                return after, True
            client.sendall(data)
            sent += len(data)
    except OSError:
        return sent, False


def serve(index, client, target_port, mode, after, events):
    server = socket.create_connection(("127.0.0.1", target_port))
    events.record(index, "open", 0)
    stalled = threading.Event()
    upstream = threading.Thread(target=pump_client_to_server, args=(client, server, stalled), daemon=True)
    upstream.start()
    sent, faulted = forward_until_fault(client, server, mode, after)
    events.record(index, mode if faulted else "end", sent)
    if faulted and mode == "stall":
        # Nothing more either way; the sockets stay open until the client gives up.
        stalled.set()
        upstream.join()
    elif faulted and mode == "reset":
        # The kernel sends the RST only when no thread is blocked reading the socket.
        try:
            client.shutdown(socket.SHUT_RD)
        except OSError:
            pass
        upstream.join()
        reset(client)
    else:
        try:
            client.shutdown(socket.SHUT_RDWR if faulted else socket.SHUT_WR)
        except OSError:
            pass
        if not faulted:
            upstream.join()
    close_quietly(client)
    close_quietly(server)


def main():
    if len(sys.argv) not in (5, 6) or sys.argv[3] not in ("pass", "cut", "reset", "stall"):
        sys.exit(__doc__)
    port_file, target_port, mode, after = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    faulty = int(sys.argv[5]) if len(sys.argv) == 6 else 1
    events = Events(port_file + ".events")
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(listener.getsockname()[1]))
    os.rename(port_file + ".tmp", port_file)
    index = 0
    while True:
        client, _ = listener.accept()
        connection_mode = mode if index < faulty else "pass"
        threading.Thread(target=serve, args=(index, client, target_port, connection_mode, after, events),
                         daemon=True).start()
        index += 1


if __name__ == "__main__":
    main()
