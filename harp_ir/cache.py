"""The result cache of `harp analyze` (as ruff's): a program's hints and error lines, kept
under `.harp_cache/` and reused while nothing they depend on changed.

An entry is keyed by harp itself (its version and the contents of its own code, so a
changed harp never reads an old answer), the program (its files, which of them are
reported, which others a hint may be reported in) and is valid while every file the
analysis read has the same contents (the files given, and the modules of the project it
looked up for their imports) and every module it looked for and did not find is still
absent. Configuration is applied after (levels, ignores, `# harp: ignore`), so it is not
part of the key, except `--exclude`, which changes the program's files. An entry that
cannot be read or does not hold what an entry holds is ignored and rebuilt.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

import harp_ir

#: the layout of an entry; a new layout never reads an old one
FORMAT = 1
DEFAULT_DIR = ".harp_cache"


@functools.cache
def harp_fingerprint() -> str:
    """harp's version and a digest of its own code and data (every file of the package,
    by name, size and contents): a development checkout that changed gets a new key."""
    digest = hashlib.sha256(f"{FORMAT}:{harp_ir.__version__}".encode())
    package = Path(harp_ir.__file__).resolve().parent
    roots = [package, package.parent / "passes", package.parent / "dialects"]
    for root in roots:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root.parent)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def file_digest(path: str | Path) -> str | None:
    """The SHA-256 of a file's bytes; None when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


class Cache:
    """Entries in `directory` (created on the first write, with a .gitignore of `*`)."""

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)

    def key(self, task) -> str:
        """The entry's name for a task: harp, the program's files and what is reported."""
        parts = {"harp": harp_fingerprint(), "root": os.path.abspath(task.root),
                 "program": sorted(map(os.path.abspath, task.program)),
                 "targets": sorted(map(os.path.abspath, task.targets)),
                 "also": sorted(map(str, task.also_reported))}
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / f"v{FORMAT}" / key[:2] / f"{key}.json"

    def get(self, task) -> dict | None:
        """The entry of `task` when it is still valid: {"hints": [...], "errors": [...]}
        (the hints as `Hint.to_json` wrote them); None on a miss."""
        try:
            entry = json.loads(self._path(self.key(task)).read_text(encoding="utf-8"))
            valid = isinstance(entry, dict) and entry.get("format") == FORMAT and \
                isinstance(entry["hints"], list) and isinstance(entry["errors"], list) and \
                all(file_digest(p) == d for p, d in entry["read"].items()) and \
                not any(map(os.path.exists, entry["absent"]))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            valid = False
        return entry if valid else None

    def put(self, task, hints: list[dict], errors: list[str], read: dict[str, str | None],
            absent: list[str]) -> None:
        """Keep a task's results, with the digests of the files its analysis read (taken
        before it read them) and the paths of modules it looked for and did not find. A
        cache that cannot be written is not an error: the next run analyses again."""
        if any(d is None for d in read.values()):
            return  # a file that could not be read: nothing to check the entry against
        entry = {"format": FORMAT, "hints": hints, "errors": errors, "read": read,
                 "absent": absent}
        path = self._path(self.key(task))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            ignore = self.directory / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# made by harp: its result cache\n*\n", encoding="utf-8")
            with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent,
                                             delete=False, suffix=".tmp") as f:
                json.dump(entry, f)
            os.replace(f.name, path)  # atomic: a reader sees the old entry or the new one
        except OSError:
            return
