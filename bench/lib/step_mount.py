"""Mount start-up time and the mount process's memory."""
from compare import Setup
from mount import Mount
from rows import Row
import timing

# The mount gives memory back after 2 s without a request (IdleMemoryRelease); the
# memory after the runs is read again after this wait.
IDLE_SECONDS = 5
IDLE_WHEN = f"after the runs + {IDLE_SECONDS} s idle"


def new_mount(setup: Setup) -> Mount:
    return Mount(setup.binary, setup.mount_point, setup.store, setup.env,
                 setup.mount_point.with_name("mount.log"))


def measure_startup(setup: Setup, messages: int) -> tuple[list, Mount]:
    """Starts the mount cold once, then `runs` times warm; the last mount stays up and is returned.

    Start-up is exec of `mailfs mount` until `.status` reads through the mount point.
    """
    setup.drop_caches()
    with new_mount(setup) as first:
        cold = first.start()
    setup.notes.append(f"cold start-up: the mount point became a mount after {first.mounted_seconds:.3f} s, "
                       f".status read through it after {cold:.3f} s.")
    warm = []
    mount = None
    for attempt in range(setup.runs):
        mount = new_mount(setup)
        try:
            warm.append(mount.start())
        except BaseException:
            mount.stop()
            raise
        if attempt < setup.runs - 1:
            mount.stop()
    metric = f"mount start-up, {messages:,} msgs (exec to .status readable)"
    rows = [Row("startup/cold", metric, setup.cold_label, cold, None, "s"),
            Row("startup/warm", metric, setup.warm_label, timing.median(warm), None, "s")]
    return rows, mount


def memory_rows(mount: Mount, when: str) -> list:
    """VmRSS now and VmHWM (the peak so far) of the mount process, in MiB."""
    memory = mount.memory_kib()
    return [Row(f"rss/{when}", f"mount VmRSS {when}", "-", memory.get("VmRSS", 0) / 1024, None, "MiB"),
            Row(f"hwm/{when}", f"mount VmHWM (peak) {when}", "-", memory.get("VmHWM", 0) / 1024, None, "MiB")]


def note_memory(setup: Setup, mount: Mount, after: str):
    """Writes down VmRSS/VmHWM after one step, to show which step grows the process."""
    memory = mount.memory_kib()
    setup.notes.append(f"mount memory after {after}: VmRSS {memory.get('VmRSS', 0) / 1024:.1f} MiB, "
                       f"VmHWM {memory.get('VmHWM', 0) / 1024:.1f} MiB.")
