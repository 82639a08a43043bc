"""What the kernel sends the daemon during one command: every FUSE request, its operation and
how long it waited for its answer, from the kernel's fuse:fuse_request_send and
fuse:fuse_request_end tracepoints (tracefs, Linux 6.x, root).

This is the floor under mailfs's numbers that no daemon work removes: how many round trips a
tool costs, and what one round trip costs on this machine. A request answered by a daemon
thread on the caller's CPU and one answered on the other CPU are counted apart: on a VM that
halts idle CPUs, a daemon thread asleep on the other CPU pays a wake-up through the host (mailfs's
receiver stays awake between a command's requests, so it answers on the other CPU, awake).
"""
import os
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

TRACEFS = Path("/sys/kernel/tracing")
EVENTS = TRACEFS / "events" / "fuse"
# "  find-27602  [000] ...1. 37525.935374: fuse_request_send: connection 40 req 168602 opcode 44 (FUSE_READDIRPLUS) len 80"
EVENT = re.compile(r"\[(\d+)\][^:]*?\s(\d+\.\d+): fuse_request_(send|end): connection \d+ req (\d+)"
                   r"(?: opcode \d+ \((\w+)\))?")


@dataclass
class Operation:
    name: str
    same_cpu: list = field(default_factory=list)   # latencies in seconds
    other_cpu: list = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.same_cpu) + len(self.other_cpu)

    @property
    def total(self) -> float:
        return sum(self.same_cpu) + sum(self.other_cpu)


@dataclass
class Trace:
    """The requests one traced command sent, by operation, and its wall time."""
    command: str
    wall: float = 0.0
    operations: dict = field(default_factory=dict)

    def add(self, name: str, latency: float, same_cpu: bool):
        operation = self.operations.setdefault(name, Operation(name))
        (operation.same_cpu if same_cpu else operation.other_cpu).append(latency)


def available() -> bool:
    """True when the fuse tracepoints exist and can be switched on (root, tracefs mounted)."""
    return os.access(EVENTS / "enable", os.W_OK) and os.access(TRACEFS / "trace", os.W_OK)


def start() -> str:
    """Switches the fuse tracepoints on, into an empty 64 MiB buffer per CPU (100,000 requests
    need about 10); returns the buffer size to give back to `stop`."""
    previous = (TRACEFS / "buffer_size_kb").read_text().split()[0]
    (TRACEFS / "tracing_on").write_text("0")
    (TRACEFS / "trace").write_text("")
    (TRACEFS / "buffer_size_kb").write_text("65536")
    (EVENTS / "enable").write_text("1")
    (TRACEFS / "tracing_on").write_text("1")
    return previous


def stop(command: str, wall: float, buffer_kb: str) -> Trace:
    """Switches tracing off, pairs each request's send with its end, and gives the kernel its
    buffer size back."""
    (TRACEFS / "tracing_on").write_text("0")
    (EVENTS / "enable").write_text("0")
    trace = Trace(command, wall)
    sent = {}
    with open(TRACEFS / "trace") as events:
        for line in events:
            match = EVENT.search(line)
            if not match:
                continue
            cpu, when, kind, request, operation = match.groups()
            if kind == "send":
                sent[request] = (float(when), operation, cpu)
            elif request in sent:
                began, operation, caller_cpu = sent.pop(request)
                trace.add(operation.removeprefix("FUSE_"), float(when) - began, same_cpu=cpu == caller_cpu)
    (TRACEFS / "trace").write_text("")
    (TRACEFS / "buffer_size_kb").write_text(buffer_kb)
    return trace


def _median_us(values: list) -> str:
    return f"{statistics.median(values) * 1e6:.0f} µs" if values else "-"


def markdown(traces: list) -> list:
    """The section of bench/results.md: one table row per command and operation."""
    lines = ["## FUSE requests (kernel tracepoints)", "",
             "Every request the kernel sent mailfs during one more run of the command (after the timed "
             "ones), from the `fuse:fuse_request_send`/`fuse_request_end` tracepoints: its latency is from "
             "the caller queueing it to the daemon's answer. \"Caller's CPU\" counts the requests a daemon "
             "thread answered on the CPU of the process that asked; the others were answered on another CPU, "
             "by a thread that was awake or had to be woken.",
             "",
             "| command | operation | requests | on the caller's CPU | p50 there | p50 elsewhere | summed latency |",
             "|---|---|---|---|---|---|---|"]
    for trace in traces:
        total = 0.0
        for operation in sorted(trace.operations.values(), key=lambda op: -op.total):
            total += operation.total
            share = len(operation.same_cpu) / operation.count
            lines.append(f"| {trace.command} | {operation.name} | {operation.count:,} | {share:.0%} | "
                         f"{_median_us(operation.same_cpu)} | {_median_us(operation.other_cpu)} | "
                         f"{operation.total * 1e3:.0f} ms |")
        lines.append(f"| {trace.command} | all, against the command's wall time | "
                     f"{sum(op.count for op in trace.operations.values()):,} | | | | "
                     f"{total * 1e3:.0f} ms of {trace.wall * 1e3:.0f} ms |")
    return lines
