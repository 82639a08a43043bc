"""The CPU model line every benchmark report names its machine with."""
import platform


def cpu_model():
    """/proc/cpuinfo's first "model name", else what platform knows, else "unknown CPU"."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"
