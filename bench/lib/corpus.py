"""The benchmark corpus: generated once per (message count, seed) and reused after."""
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path


def ensure(generator: Path, work_dir: Path, messages: int, seed: int) -> tuple[Path, str]:
    """Returns the Maildir++ tree for these parameters and the generator's summary line.

    A tree counts as complete only once its `.done` file exists (written after the
    generator succeeded, with the generator's digest), so an interrupted generation, or
    one by an older generator, is thrown away and redone.
    """
    tree = work_dir / f"maildir-{messages}-seed{seed}"
    done = tree.with_name(tree.name + ".done")
    digest = hashlib.sha256(generator.read_bytes()).hexdigest()
    if done.is_file() and tree.is_dir():
        recorded, _, summary = done.read_text().strip().partition("\n")
        if recorded == digest:
            print(f"reusing corpus {tree}: {summary}", file=sys.stderr)
            return tree, summary
    shutil.rmtree(tree, ignore_errors=True)
    print(f"generating {messages} messages (seed {seed}) in {tree} ...", file=sys.stderr)
    generated = subprocess.run([sys.executable, str(generator), str(messages), str(tree), "--seed", str(seed)],
                               capture_output=True, text=True)
    if generated.returncode != 0:
        raise RuntimeError(f"corpus generation failed: {generated.stderr.strip()[-2000:]}")
    summary = generated.stdout.strip().splitlines()[-1] if generated.stdout.strip() else "generated"
    done.write_text(f"{digest}\n{summary}\n")
    return tree, summary


def message_files(tree: Path) -> list[Path]:
    """Every message file of the tree (cur/ and new/ of the root and of each .Folder), sorted."""
    folders = [tree] + sorted(p for p in tree.iterdir() if p.name.startswith(".") and p.is_dir())
    files = []
    for folder in folders:
        for sub in ("cur", "new"):
            directory = folder / sub
            if directory.is_dir():
                files.extend(sorted(directory.iterdir()))
    return files


def mailfs_folder(tree: Path, maildir_folder: Path) -> str:
    """The mailfs folder path of a Maildir++ folder: root -> inbox, .Lists.dev -> Lists/dev."""
    if maildir_folder == tree:
        return "inbox"
    return maildir_folder.name[1:].replace(".", "/")
