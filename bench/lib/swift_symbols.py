"""Swift symbols as a profile's reader wants them: demangled and cut to a table cell."""
import shutil
import subprocess


def demangled(symbols):
    """Swift symbols in readable form when `swift demangle` is there; as they are otherwise."""
    if not shutil.which("swift"):
        return symbols
    result = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(symbols),
                            capture_output=True, text=True)
    lines = [line.strip() for line in result.stdout.splitlines()]
    if result.returncode != 0 or len(lines) != len(symbols):
        return symbols
    return [line if len(line) <= 100 else line[:97] + "..." for line in lines]
