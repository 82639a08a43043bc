#!/usr/bin/python3
"""Prints the first port of a block of COUNT consecutive free TCP ports on 127.0.0.1.

Blocks are tried at random below the kernel's ephemeral range, so several test runs on one
machine (each with its own state directory) do not collide. Usage: ports.py COUNT
"""
import random
import socket
import sys


def block_is_free(first, count):
    sockets = []
    try:
        for port in range(first, first + count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sockets.append(sock)
            sock.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        for sock in sockets:
            sock.close()


def main():
    count = int(sys.argv[1])
    for _ in range(200):
        first = random.randrange(20000, 32000 - count)
        if block_is_free(first, count):
            print(first)
            return 0
    print("no block of free ports found in 20000-32000", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
