"""Precision with and without a profile, on the ecosystem corpus's programs that run here:
`harp measure` runs each one (as bench/verify_corpus.py does: a stand-in torchvision with
MNIST/CIFAR-shaped random data), then `harp analyze` of its folder at the default and the
aggressive level, without and with `--profile`, and every hint is looked up in the corpus's
blind verdicts (bench/ecosystem/verdicts.toml).

    python bench/profiled_corpus.py [--repos DIR] [--steps N]

Prints, per program, the hints and their verdicts both ways, what the profile dropped,
confirmed or added, and the pooled precision both ways (TRUE over judged hints; a hint
with no verdict is listed, not counted).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ecosystem  # noqa: E402  (the corpus, its verdicts and how hints are named)
from verify_corpus import PROGRAMS, REPOS, STUB  # noqa: E402  (the runnable programs)


def source_name(checkout: str, sources: list) -> str:
    """The corpus's name for a checkout folder (`owner+name@commit12`)."""
    repo, _, commit = checkout.partition("@")
    for s in sources:
        if s.spec.get("repo", "").replace("/", "+") == repo and \
                s.spec.get("commit", "").startswith(commit):
            return s.name
    raise SystemExit(f"{checkout}: not a source of the corpus")


def hints(root: Path, folder: str, *options: str) -> list[dict]:
    run = subprocess.run(ecosystem.harp_command() + [
        "analyze", "--output-format", "json", "--no-config", "--no-cache", *options, folder],
        cwd=root, capture_output=True, text=True, timeout=900)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"harp analyze {folder}: exit {run.returncode}: "
                           f"{run.stderr.strip()[-300:]}")
    return json.loads(run.stdout)["hints"]


def verdict_of(hint: dict, source: str, verdicts: dict) -> str:
    found = verdicts.get(ecosystem.key(source, ecosystem.where(hint), hint["id"]))
    return found["verdict"] if found else "unjudged"


LEVELS = ("default", "aggressive")


def compare(level: str, before: list[dict], after: list[dict], source: str, verdicts: dict,
            pooled: dict) -> None:
    """Print one level's hints without and with the profile, and what the profile changed."""
    for label, found in (("without", before), ("with", after)):
        judged = [verdict_of(h, source, verdicts) for h in found]
        true, counted = judged.count("TRUE"), sum(v != "unjudged" for v in judged)
        pooled[level, label][0] += true
        pooled[level, label][1] += counted
        print(f"  {level}, {label} the profile: {len(found)} hints, {true} TRUE of {counted} "
              f"judged")
    kept = {ecosystem.where(h) + h["id"] for h in after}
    for h in before:
        if ecosystem.where(h) + h["id"] not in kept:
            print(f"    dropped {ecosystem.where(h)} {h['id']} "
                  f"({verdict_of(h, source, verdicts)})")
    had = {ecosystem.where(h) + h["id"] for h in before}
    for h in after:
        if ecosystem.where(h) + h["id"] not in had:
            print(f"    added {ecosystem.where(h)} {h['id']} "
                  f"({verdict_of(h, source, verdicts)}): {h['measured']}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repos", type=Path, default=REPOS)
    p.add_argument("--steps", type=int, default=50,
                   help="stop each run after N iterations of its step loop (default 50)")
    args = p.parse_args(argv)
    sources = ecosystem.load_corpus()
    verdicts = ecosystem.load_reviews()[0]
    pooled = {(level, label): [0, 0] for level in LEVELS for label in ("without", "with")}
    failed = False
    with tempfile.TemporaryDirectory(prefix="harp-profiled-") as tmp:
        stub = Path(tmp) / "stub"
        for name, text in STUB.items():
            (stub / name).parent.mkdir(parents=True, exist_ok=True)
            (stub / name).write_text(text)
        for checkout, folder, _, command in PROGRAMS:
            if not (args.repos / checkout / folder).is_dir():
                print(f"{checkout}/{folder}: skipped (no checkout; run bench/ecosystem.py)")
                continue
            source = source_name(checkout, sources)
            root = Path(tmp) / "run" / checkout
            shutil.copytree(args.repos / checkout / folder, root / folder)
            profile = root / "profile.json"
            program = command.split("|")[0].split()[1:]  # `python main.py ARGS | ...`
            run = subprocess.run(ecosystem.harp_command() + [
                "measure", "-o", str(profile), "--steps", str(args.steps), "--", "python",
                *program], cwd=root / folder, capture_output=True, text=True, timeout=1800,
                env={"PYTHONPATH": str(stub), "PATH": "/usr/bin:/bin",
                     "TF_CPP_MIN_LOG_LEVEL": "3"})
            if not profile.exists():
                failed = True
                print(f"{source} {folder}: harp measure failed: {run.stderr.strip()[-300:]}")
                continue
            status = json.loads(profile.read_text())["status"]
            print(f"{source} {folder} (run {status}):")
            for level in LEVELS:
                before = hints(root, folder, "--level", level)
                after = hints(root, folder, "--level", level, "--profile", str(profile))
                compare(level, before, after, source, verdicts, pooled)
    for (level, label), (true, judged) in pooled.items():
        share = f"{true / judged:.2f}" if judged else "-"
        print(f"pooled, {level} level, {label} profiles: precision {share} ({true} TRUE of "
              f"{judged} judged)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
