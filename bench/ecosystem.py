"""The ecosystem check: harp on real programs nobody here wrote, scored against reviewed verdicts.

    python bench/ecosystem.py [--json] [--only NAME ...] [--repos DIR] [--mirrors DIR]
                              [--cache DIR] [--jobs N] [--timeout S]

Sources come from bench/ecosystem/corpus.toml: packages from the index (downloaded with
`pip download --no-deps`, unpacked into the cache, never imported) and public repositories
at fixed commits (a checkout under --repos, made from a local git mirror under --mirrors when
one is there; skipped with a message when neither is). Each source is analysed with
`harp analyze --format json --no-config` at the default level, in a subprocess.

Then, per hint id: hints, reviewed TRUE / FALSE / DEBATABLE (bench/ecosystem/verdicts.toml),
precision (TRUE over all judged); recall against the reviewed problem list; hints with no
verdict (new) and verdicts whose hint is gone (lost); crashes; lines per second.
Exit 1 on a crash or a hint with no verdict, so every change's effect on real code is seen.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "ecosystem" / "corpus.toml"
VERDICTS = HERE / "ecosystem" / "verdicts.toml"
RESULTS = HERE / "ecosystem" / "results.json"  # the recorded run the README quotes
CACHE = Path(os.environ.get("HARP_ECOSYSTEM_CACHE", Path.home() / ".cache" / "harp-ecosystem"))
# A mirror as the project's fetch tool leaves it: <mirrors>/<owner>+<name>/repo (a git dir,
# or a work tree holding one in .git).
MIRRORS = Path(os.environ.get("HARP_ECOSYSTEM_MIRRORS", HERE.parent.parent / ".mirror"))
VERDICT_VALUES = ("TRUE", "FALSE", "DEBATABLE")


@dataclass
class Source:
    name: str
    kind: str  # "package" or "repo"
    framework: str
    paths: list[str]
    exclude: list[str]
    spec: dict
    root: Path | None = None  # where its files are, once prepared
    skipped: str = ""  # why it was not analysed

    @property
    def origin(self) -> str:
        if self.kind == "package":
            return f"{self.spec['dist']}=={self.spec['version']}"
        return f"{self.spec['repo']}@{self.spec['commit'][:12]}"


@dataclass
class Outcome:
    source: Source
    hints: list[dict] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # harp's `file:line:col: error:` lines
    crash: str = ""
    files: int = 0
    lines: int = 0
    seconds: float = 0.0


def load_corpus(path: Path = CORPUS) -> list[Source]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [Source(s["name"], kind, s["framework"], s["paths"], s.get("exclude", []), s)
            for kind in ("package", "repo") for s in data.get(kind, [])]


def prepare_package(source: Source, cache: Path) -> None:
    """Download the pinned source distribution (once) and unpack it into the cache."""
    spec = source.spec
    target = cache / "packages" / f"{spec['dist']}-{spec['version']}"
    if not target.is_dir():
        downloads = cache / "downloads"
        downloads.mkdir(parents=True, exist_ok=True)
        got = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
             "--quiet", "--dest", str(downloads), f"{spec['dist']}=={spec['version']}"],
            capture_output=True, text=True)
        archive = _archive_of(downloads, spec["dist"], spec["version"])
        if got.returncode != 0 or archive is None:
            source.skipped = "download failed: " + (got.stderr.strip().splitlines() or ["?"])[-1]
            return
        tmp = target.with_name(target.name + ".part")
        shutil.rmtree(tmp, ignore_errors=True)
        _unpack(archive, tmp)
        tops = list(tmp.iterdir())  # an sdist holds one folder, name-version/
        (tops[0] if len(tops) == 1 and tops[0].is_dir() else tmp).rename(target)
        shutil.rmtree(tmp, ignore_errors=True)
    source.root = target


def _archive_of(folder: Path, dist: str, version: str) -> Path | None:
    stems = {f"{n}-{version}" for n in (dist, dist.replace("-", "_"), dist.replace("_", "-"))}
    for f in folder.iterdir():
        name = f.name.lower()
        for ext in (".tar.gz", ".zip"):
            if name.endswith(ext) and name[: -len(ext)] in stems:
                return f
    return None


def _unpack(archive: Path, target: Path) -> None:
    target.mkdir(parents=True)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            z.extractall(target)
    else:
        with tarfile.open(archive) as t:
            t.extractall(target, filter="data")


def prepare_repo(source: Source, repos: Path, mirrors: Path) -> None:
    """A checkout of the repository at its commit: under `repos`, or made there from a
    local git mirror; the source is skipped when neither exists."""
    spec = source.spec
    owner_name = spec["repo"].replace("/", "+")
    target = repos / f"{owner_name}@{spec['commit'][:12]}"
    if not target.is_dir():
        mirror = mirrors / owner_name / "repo"
        if (mirror / ".git").is_dir():  # the fetch tool leaves some mirrors with a work tree
            mirror = mirror / ".git"
        if not mirror.is_dir():
            source.skipped = (f"absent: no checkout at {target} and no mirror at {mirror} "
                              f"(fetch {spec['repo']} at {spec['commit'][:12]} to include it)")
            return
        tmp = target.with_name(target.name + ".part")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        # only the code, and only the files the snapshot holds: it may lack large ones
        archive = subprocess.run(["git", "--git-dir", str(mirror), "archive", spec["commit"],
                                  "--", *code_files(mirror, spec["commit"])],
                                 capture_output=True)
        if archive.returncode != 0:
            source.skipped = (f"the mirror at {mirror} lacks commit {spec['commit'][:12]}: "
                              + archive.stderr.decode(errors="replace").strip())
            shutil.rmtree(tmp, ignore_errors=True)
            return
        subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive.stdout, check=True)
        tmp.rename(target)
    source.root = target


#: the largest file without a suffix taken into a checkout: a script, not data
_SCRIPT_BYTES = 1_000_000


def code_files(mirror: Path, commit: str) -> list[str]:
    """The .py and .ipynb files of `commit`, and the small files without a suffix (a
    `train` script harp finds by its `#!python` line), whose contents the mirror holds (a
    fetched snapshot may list files whose objects it left out)."""
    listing = subprocess.run(["git", "--git-dir", str(mirror), "ls-tree", "-r", "-l", "-z",
                              commit], capture_output=True, text=True)
    entries = [line.split("\t", 1) for line in listing.stdout.split("\0") if "\t" in line]
    code = []
    for meta, path in entries:
        _, kind, oid, size = meta.split()  # mode, type, object, size ("-" for a submodule)
        if path.endswith((".py", ".ipynb")) or (
                kind == "blob" and "." not in Path(path).name and size.isdigit() and
                int(size) < _SCRIPT_BYTES):
            code.append((oid, path))
    present = subprocess.run(["git", "--git-dir", str(mirror), "cat-file", "--batch-check"],
                             input="".join(f"{oid}\n" for oid, _ in code),
                             capture_output=True, text=True).stdout.splitlines()
    return [path for (_, path), line in zip(code, present, strict=True)
            if not line.endswith(" missing")]


def harp_command() -> list[str]:
    exe = Path(sys.executable).with_name("harp")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "harp_ir.cli.harp"]


def analyze(source: Source, jobs: int, timeout: int) -> Outcome:
    """`harp analyze --output-format json` over the source's paths, run from its root so the
    spans are relative to it."""
    out = Outcome(source)
    paths = [p for p in source.paths if (source.root / p).exists()]
    cmd = harp_command() + ["analyze", "--output-format", "json", "--no-config", "--no-cache",
                            "-j", str(jobs)]
    for pattern in source.exclude:
        cmd += ["--exclude", pattern]
    start = time.perf_counter()
    try:
        run = subprocess.run(cmd + paths, cwd=source.root, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        out.crash = f"timed out after {timeout}s"
        return out
    out.seconds = time.perf_counter() - start
    try:
        report = json.loads(run.stdout)
    except json.JSONDecodeError:
        tail = (run.stderr.strip().splitlines() or ["no output"])[-1]
        out.crash = f"exit {run.returncode}: {tail}"
        return out
    if run.returncode not in (0, 1, 2) or "Traceback" in run.stderr:
        out.crash = f"exit {run.returncode}: " + run.stderr.strip()[-500:]
    out.hints, out.errors = report["hints"], report["errors"]
    out.files, out.lines = _count_lines(source)
    return out


def _count_lines(source: Source) -> tuple[int, int]:
    from harp_ir.frontend.source import read_source
    from harp_ir.report import python_files

    files = python_files([str(source.root / p) for p in source.paths],
                         tuple(source.exclude))[0]
    lines = 0
    for f in files:
        try:
            lines += read_source(f).count("\n")
        except Exception:  # noqa: BLE001  (an unreadable file counts no lines)
            pass
    return len(files), lines


def where(hint: dict, col: bool = True) -> str:
    """A hint's place as the verdicts name it: `path:line:col`, or `nb.ipynb:cell N:line:col`
    (a line can hold two hints of one id); problems name lines only (`col=False`)."""
    span = hint["span"]
    cell = f"cell {span['cell']}:" if span.get("cell") is not None else ""
    return f"{span['file']}:{cell}{span['line']}" + (f":{span['col']}" if col else "")


def covers(hint: dict, problem: dict) -> bool:
    """Whether a hint flags a problem: the problem's line (`path:line` or `nb.ipynb:cell
    N:line`) lies in the hint's span or in a place its message names (`related`: the call
    in the loop that runs a helper's step), and the hint is of the problem's id (a problem
    of a kind no hint has is flagged by any hint there)."""
    place, _, line = problem["where"].rpartition(":")
    kind = problem.get("id") or problem.get("kind", "")
    if not line.isdigit() or not (kind == hint["id"] or not kind.startswith("HARP")):
        return False
    for span in [hint["span"], *hint.get("related", ())]:
        cell = f":cell {span['cell']}" if span.get("cell") is not None else ""
        if place == span["file"] + cell and \
                span["line"] <= int(line) <= span.get("end_line", span["line"]):
            return True
    return False


def key(source: str, hint_where: str, hint_id: str) -> tuple[str, str, str]:
    return source, hint_where, hint_id


def load_reviews(path: Path = VERDICTS) -> tuple[dict, list[dict], dict[str, list[str]]]:
    """(verdicts by key, problems, files read in full by source)."""
    if not path.exists():
        return {}, [], {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    verdicts = {}
    for v in data.get("verdict", []):
        if v["verdict"] not in VERDICT_VALUES:
            raise SystemExit(f"{path}: verdict for {v['where']} must be one of "
                             f"{', '.join(VERDICT_VALUES)}, not {v['verdict']!r}")
        verdicts[key(v["source"], v["where"], v["id"])] = v
    read = {s["source"]: s["files"] for s in data.get("read", [])}
    return verdicts, data.get("problem", []), read


def score(outcomes: list[Outcome], verdicts: dict, problems: list[dict]) -> dict:
    """Precision per hint id, recall, new and lost hints, over the sources analysed."""
    analysed = {o.source.name for o in outcomes if o.source.root is not None and not o.crash}
    per_id: dict[str, Counter] = defaultdict(Counter)
    new, seen = [], set()
    for o in outcomes:
        for h in o.hints:
            k = key(o.source.name, where(h), h["id"])
            seen.add(k)
            v = verdicts.get(k)
            per_id[h["id"]]["hints"] += 1
            if v is None:
                per_id[h["id"]]["new"] += 1
                new.append({"source": o.source.name, "where": k[1], "id": h["id"],
                            "message": h["message"]})
            else:
                per_id[h["id"]][v["verdict"]] += 1
    lost = [dict(v) for k, v in verdicts.items() if k[0] in analysed and k not in seen]
    hints_of = {o.source.name: o.hints for o in outcomes}
    counted = [p for p in problems if p["source"] in analysed]
    flagged = [p for p in counted if any(covers(h, p) for h in hints_of.get(p["source"], ()))]
    per_source: dict[str, Counter] = defaultdict(Counter)
    for o in outcomes:
        for h in o.hints:
            v = verdicts.get(key(o.source.name, where(h), h["id"]))
            per_source[o.source.name]["hints"] += 1
            per_source[o.source.name][v["verdict"] if v else "new"] += 1
    for p in counted:
        per_source[p["source"]]["problems"] += 1
    for p in flagged:
        per_source[p["source"]]["flagged"] += 1
    rows = {}
    for hint_id, c in sorted(per_id.items()):
        judged = c["TRUE"] + c["FALSE"] + c["DEBATABLE"]
        rows[hint_id] = {"hints": c["hints"], "TRUE": c["TRUE"], "FALSE": c["FALSE"],
                         "DEBATABLE": c["DEBATABLE"], "new": c["new"],
                         "precision": round(c["TRUE"] / judged, 3) if judged else None}
    totals = Counter()
    for c in per_id.values():
        totals.update(c)
    judged = totals["TRUE"] + totals["FALSE"] + totals["DEBATABLE"]
    by_kind: dict[str, Counter] = defaultdict(Counter)
    for p in counted:
        by_kind[p.get("id") or p["kind"]]["problems"] += 1
    for p in flagged:
        by_kind[p.get("id") or p["kind"]]["flagged"] += 1
    return {
        "per_id": rows,
        "overall": {"hints": totals["hints"], "TRUE": totals["TRUE"], "FALSE": totals["FALSE"],
                    "DEBATABLE": totals["DEBATABLE"], "new": totals["new"],
                    "precision": round(totals["TRUE"] / judged, 3) if judged else None},
        "recall": {"problems": len(counted), "flagged": len(flagged),
                   "recall": round(len(flagged) / len(counted), 3) if counted else None,
                   "by_kind": {k: dict(v) for k, v in sorted(by_kind.items())},
                   "missed": [p for p in counted if p not in flagged]},
        "new": new, "lost": lost,
        "per_source": {name: dict(c) for name, c in sorted(per_source.items())},
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--only", nargs="*", default=[], metavar="NAME", help="only these sources")
    p.add_argument("--corpus", type=Path, default=CORPUS)
    p.add_argument("--verdicts", type=Path, default=VERDICTS)
    p.add_argument("--cache", type=Path, default=CACHE, help="downloads and unpacked packages")
    p.add_argument("--repos", type=Path, default=CACHE / "repos", help="repository checkouts")
    p.add_argument("--mirrors", type=Path, default=MIRRORS, help="local git mirrors")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=int, default=1800, help="seconds per source")
    p.add_argument("--show", action="store_true", help="list every hint with its verdict")
    p.add_argument("--first-contact", metavar="NAME",
                   help="measure a newly added source before any change for it: keep its "
                        "hints and write the blind reader's packet (bench/first_contact.py)")
    p.add_argument("--reviews", type=Path, metavar="FILE",
                   help="with --first-contact: the blind reader's review; records the entry")
    p.add_argument("--record", action="store_true",
                   help="keep this run as the one the README quotes (bench/ecosystem/"
                        "results.json) and regenerate the README's tables; needs every source")
    p.add_argument("--blind-packets", type=Path, metavar="DIR",
                   help="also write each analysed source's blind packet (hint places and "
                        "categories, numbered) and its numbered hints to DIR, for a re-grade")
    p.add_argument("--profiled", action="store_true",
                   help="instead, run the corpus programs that run on a CPU under `harp "
                        "measure` and give precision with and without their profiles "
                        "(bench/profiled_corpus.py)")
    args = p.parse_args(argv)
    if args.profiled:
        import profiled_corpus  # a sibling script, which imports this one

        return profiled_corpus.main(["--repos", str(args.repos)])
    if args.first_contact:
        return first_contact_main(args)
    sources = [s for s in load_corpus(args.corpus) if not args.only or s.name in args.only]
    verdicts, problems, read = load_reviews(args.verdicts)
    outcomes = []
    log = sys.stderr
    for source in sources:
        if source.kind == "package":
            prepare_package(source, args.cache)
        else:
            prepare_repo(source, args.repos, args.mirrors)
        if source.skipped:
            print(f"ecosystem: {source.name} ({source.origin}) skipped: {source.skipped}",
                  file=log)
            continue
        outcome = analyze(source, args.jobs, args.timeout)
        outcomes.append(outcome)
        print(f"ecosystem: {source.name} ({source.origin}): {outcome.files} files, "
              f"{outcome.lines} lines, {len(outcome.hints)} hints, {outcome.seconds:.0f}s"
              + (f", CRASH {outcome.crash}" if outcome.crash else ""), file=log)
    if args.blind_packets:
        import first_contact

        args.blind_packets.mkdir(parents=True, exist_ok=True)
        for o in outcomes:
            listed = first_contact.numbered(o.hints, where)
            first_contact.write_packet(o.source.name, o.source.origin, listed,
                                       args.blind_packets)
            (args.blind_packets / f"{o.source.name}.hints.json").write_text(
                json.dumps(listed, indent=1) + "\n", encoding="utf-8")
    result = score(outcomes, verdicts, problems)
    seconds = sum(o.seconds for o in outcomes)
    lines = sum(o.lines for o in outcomes)
    result["sources"] = [{"name": o.source.name, "origin": o.source.origin,
                          "framework": o.source.framework, "files": o.files, "lines": o.lines,
                          "hints": len(o.hints), "errors": len(o.errors), "crash": o.crash,
                          "seconds": round(o.seconds, 1)} for o in outcomes]
    result["skipped"] = [{"name": s.name, "origin": s.origin, "why": s.skipped}
                         for s in sources if s.skipped]
    result["crashes"] = [{"source": o.source.name, "crash": o.crash} for o in outcomes
                         if o.crash]
    result["files_read"] = sum(len(v) for k, v in read.items()
                               if k in {o.source.name for o in outcomes})
    result["lines_per_second"] = round(lines / seconds) if seconds else None
    drift = [] if args.record else recorded_drift(result)
    if args.record:
        record_run(result, sources)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print_report(result, outcomes, verdicts, args.show)
    for line in drift:
        print(f"DRIFT {line}")
    if drift:
        print("the README quotes a run this one no longer matches: after reviewing the new "
              "and lost hints, run `python bench/ecosystem.py --record` with every source")
    return 1 if result["crashes"] or result["new"] or drift else 0


#: what the README's tables quote of a source; a run that differs has drifted
RECORDED = ("files", "lines", "hints", "errors")


def recorded_drift(result: dict, path: Path = RESULTS) -> list[str]:
    """How the sources analysed now differ from the recorded run the README quotes."""
    if not path.exists():
        return []
    recorded = json.loads(path.read_text(encoding="utf-8"))
    then = {s["name"]: s for s in recorded["sources"]}
    then_counts = recorded.get("per_source", {})
    out = []
    for s in result["sources"]:
        old = then.get(s["name"])
        if old is None:
            out.append(f"{s['name']}: not in the recorded run")
            continue
        changed = [f"{k} {old[k]} -> {s[k]}" for k in RECORDED if old[k] != s[k]]
        now_c, old_c = result["per_source"].get(s["name"], {}), then_counts.get(s["name"], {})
        changed += [f"{k} {old_c.get(k, 0)} -> {now_c.get(k, 0)}"
                    for k in ("TRUE", "FALSE", "DEBATABLE", "problems", "flagged")
                    if old_c.get(k, 0) != now_c.get(k, 0)]
        if changed:
            out.append(f"{s['name']}: " + ", ".join(changed))
    return out


def record_run(result: dict, sources: list[Source], path: Path = RESULTS) -> None:
    """Keep a complete, fully judged run as the README's figures and regenerate them."""
    import ecosystem_tables

    problems = [s.name for s in sources if s.skipped] + [c["source"] for c in result["crashes"]]
    if problems or result["new"]:
        raise SystemExit("--record needs every source analysed, no crash and no hint without "
                         f"a verdict (skipped or crashed: {problems}; new: {len(result['new'])})")
    kept = {k: v for k, v in result.items() if k != "lines_per_second"}  # the machine's
    kept["sources"] = [{k: v for k, v in s.items() if k != "seconds"} for s in kept["sources"]]
    path.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    ecosystem_tables.update_readme(HERE.parent / "README.md")


def first_contact_main(args) -> int:
    import first_contact

    if args.reviews:
        entry = first_contact.record(args.first_contact, args.reviews,
                                     verdicts_path=args.verdicts)
        f = entry["figures"]
        print(f"first contact {entry['name']}: {f['hints']} hints, {f['TRUE']} TRUE, "
              f"precision {_pct(f['precision'])}; {f['found']} of {f['problems']} problems "
              f"found, recall {_pct(f['recall'])}")
        return 0
    corpus = load_corpus(args.corpus)
    [source] = [s for s in corpus if s.name == args.first_contact] or [None]
    if source is None:
        raise SystemExit(f"first contact: no source named {args.first_contact} in {args.corpus}")
    seen = [s.name for s in corpus if s.name != source.name and
            s.spec.get("repo", s.spec.get("dist")) == source.spec.get("repo",
                                                                   source.spec.get("dist"))]
    if seen:  # code harp was measured and tuned on is not first contact
        raise SystemExit(f"first contact: {source.name} is the code of {seen[0]}, already in "
                         f"{args.corpus}")
    if source.kind == "package":
        prepare_package(source, args.cache)
    else:
        prepare_repo(source, args.repos, args.mirrors)
    if source.skipped:
        raise SystemExit(f"first contact: {source.name} cannot be prepared: {source.skipped}")
    outcome = analyze(source, args.jobs, args.timeout)
    if outcome.crash:
        print(f"first contact {source.name}: CRASH {outcome.crash}", file=sys.stderr)
    kept, packet = first_contact.stage(source, outcome.hints, where, files=outcome.files)
    print(f"first contact {source.name} ({source.origin}): {outcome.files} files, "
          f"{outcome.lines} lines, {len(outcome.hints)} hints, {len(outcome.errors)} errors; "
          f"kept in {kept}, blind packet {packet}")
    return 0


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def print_report(result: dict, outcomes: list[Outcome], verdicts: dict, show: bool) -> None:
    files = sum(s["files"] for s in result["sources"])
    lines = sum(s["lines"] for s in result["sources"])
    print(f"{len(result['sources'])} sources analysed, {len(result['skipped'])} skipped; "
          f"{files} files, {lines} lines, {result['lines_per_second']} lines/s")
    print(f"\n{'id':<9}{'hints':>6}{'TRUE':>6}{'FALSE':>6}{'DEBAT':>6}{'new':>5}  precision")
    for hint_id, r in result["per_id"].items():
        print(f"{hint_id:<9}{r['hints']:>6}{r['TRUE']:>6}{r['FALSE']:>6}{r['DEBATABLE']:>6}"
              f"{r['new']:>5}  {_pct(r['precision'])}")
    o = result["overall"]
    print(f"{'all':<9}{o['hints']:>6}{o['TRUE']:>6}{o['FALSE']:>6}{o['DEBATABLE']:>6}"
          f"{o['new']:>5}  {_pct(o['precision'])}")
    r = result["recall"]
    print(f"\nrecall: {r['flagged']} of {r['problems']} reviewed problems flagged "
          f"({_pct(r['recall'])}), from {result['files_read']} files read in full")
    for kind, c in r["by_kind"].items():
        print(f"  {kind:<32} {c.get('flagged', 0)}/{c['problems']}")
    for n in [] if show else result["new"]:
        print(f"NEW  {n['source']}: {n['where']}: {n['id']} {n['message'][:150]}")
    lost = Counter(v["verdict"] for v in result["lost"])
    if lost:
        print(f"\nlost: {len(result['lost'])} reviewed hints are no longer reported ("
              + ", ".join(f"{n} {k}" for k, n in sorted(lost.items())) + "); the TRUE ones:")
    for v in result["lost"]:
        if show or v["verdict"] == "TRUE":
            print(f"LOST {v['source']}: {v['where']}: {v['id']} (was {v['verdict']})")
    for c in result["crashes"]:
        print(f"CRASH {c['source']}: {c['crash']}")
    errors = sum(s["errors"] for s in result["sources"])
    if errors:
        print(f"\n{errors} file(s) or cells harp reported as errors (not valid Python 3, "
              "or unreadable); run with --show to list them")
    if show:
        for o in outcomes:
            for e in o.errors:
                print(f"ERROR {o.source.name}: {e}")
            for h in o.hints:
                v = verdicts.get(key(o.source.name, where(h), h["id"]))
                print(f"{v['verdict'] if v else 'NEW':<10} {o.source.name}: {where(h)}: "
                      f"{h['id']} {h['message'][:160]}")


if __name__ == "__main__":
    sys.exit(main())
