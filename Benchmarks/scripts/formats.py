#!/usr/bin/env python3
"""The batch path per input and output format, each against JSON Lines in the same run:
`galley heights --template message` at three widths over the same message rows written as JSON
Lines, a JSON array, CSV, XML and a property list, and from JSON Lines into CSV and SQLite.
Rounds alternate the formats (ABAB…), so that load on the shared machine falls on all alike;
each format's best and median wall-clock time over the rounds, and its ratio to JSON Lines, are
printed. Then the peak resident size of 1 million and 4 million rows in each streamed format,
to show that memory does not grow with the input.

    python3 scripts/formats.py [ROWS] [ROUNDS] [--memory] [--jobs N]   # default 200,000 rows, 5 rounds, 2 workers
    python3 scripts/formats.py --instructions   # instructions an item costs in each format (valgrind)

`--instructions` counts what wall-clock time on a shared machine cannot tell apart: under
callgrind (one worker), each format's instructions over 6,000 rows less those over their first
2,000, per item, against JSON Lines; every thread is counted, the reader's and writer's too.

With `--jobs 1` on a two-core machine, a format's reader (or SQLite's writer) has a core of its
own beside the one worker: what the format costs when it does not take a worker's core.
"""
import json, os, plistlib, shutil, statistics, subprocess, sys, time
from pathlib import Path
from xml.sax.saxutils import escape

here = Path(__file__).resolve().parent.parent
jobs = sys.argv[sys.argv.index("--jobs") + 1] if "--jobs" in sys.argv else "2"
arguments = [a for i, a in enumerate(sys.argv[1:], 1) if not a.startswith("--") and sys.argv[i - 1] != "--jobs"]
rows = int(arguments[0]) if arguments else 200_000
rounds = int(arguments[1]) if len(arguments) > 1 else 5
galley = here.parent / ".build" / "release" / "galley"
subprocess.run(["swift", "build", "-c", "release", "--product", "galley"], cwd=here.parent, check=True, stdout=subprocess.DEVNULL)
work = here / ".build" / "formats"
work.mkdir(parents=True, exist_ok=True)


def write_formats(count):
    """The same rows in every format; returns {format: path}."""
    source = work / f"rows-{count}.jsonl"
    if not source.exists():
        with open(source, "w") as out:
            subprocess.run([sys.executable, str(here / "scripts" / "make-rows.py"), str(count)], stdout=out, check=True)
    paths = {"jsonl": source}
    names = ["id", "kind", "title", "caption", "text", "timestamp", "imageURL"]
    # Python's plist writer holds every row in memory: no property list past a million rows.
    targets = {f: work / f"rows-{count}.{f}" for f in ("json", "csv", "xml") + (("plist",) if count <= 1_000_000 else ())}
    if all(p.exists() for p in targets.values()):
        return {**paths, **targets}
    with open(source, encoding="utf-8") as lines, open(targets["json"], "w", encoding="utf-8") as array, \
         open(targets["csv"], "w", encoding="utf-8", newline="") as table, open(targets["xml"], "w", encoding="utf-8") as xml:
        import csv
        writer = csv.writer(table)
        writer.writerow(names)
        array.write("[\n")
        xml.write("<rows>\n")
        items = []
        for index, line in enumerate(lines):
            row = json.loads(line)
            array.write(("" if index == 0 else ",\n") + json.dumps(row, ensure_ascii=False))
            writer.writerow([row.get(name, "") for name in names])
            xml.write("<row>" + "".join(f"<{n}>{escape(str(row[n]))}</{n}>" for n in names if n in row) + "</row>\n")
            if "plist" in targets:
                items.append({n: row[n] for n in names if n in row})
        array.write("\n]\n")
        xml.write("</rows>\n")
    if "plist" in targets:
        with open(targets["plist"], "wb") as plist:
            plistlib.dump({"rows": items}, plist, fmt=plistlib.FMT_BINARY)
    return {**paths, **targets}


def run(arguments):
    """Wall-clock seconds and peak resident MiB of one run. The peak is GNU time's: a child this
    script forked itself would count the script's own pages from before its exec."""
    start = time.monotonic()
    with open(os.devnull, "w") as sink:
        done = subprocess.run(["/usr/bin/time", "-f", "%M", str(galley), "heights", "--template", "message", "--width", "320,375,414",
                               "--scale", "2", "--jobs", jobs, "--quiet", *arguments], stdout=sink, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"galley heights {' '.join(arguments)} failed: {done.stderr[-500:]}")
    return time.monotonic() - start, int(done.stderr.strip().splitlines()[-1]) / 1024


def instructions(arguments):
    """Instructions callgrind counts for one run of one worker."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(stripped), "heights", "--template", "message",
                           "--width", "320,375,414", "--scale", "2", "--jobs", "1", "--quiet", *arguments],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    counted = [line for line in done.stderr.splitlines() if "Collected :" in line]
    if done.returncode != 0 or not counted:
        sys.exit(f"valgrind galley heights {' '.join(arguments)} failed: {done.stderr[-500:]}")
    return int(counted[-1].split(":")[-1])


if "--instructions" in sys.argv:
    stripped = work / "galley-stripped"  # valgrind 3.19 cannot read DWARF 5
    shutil.copy(galley, stripped)
    subprocess.run(["objcopy", "--strip-debug", str(stripped)], check=True)
    small, large = write_formats(2000), write_formats(6000)
    database = work / "instructions.sqlite"
    per_item = {}
    for name, key, extra in [("JSON Lines → JSON Lines", "jsonl", []), ("JSON array", "json", []), ("CSV", "csv", []),
                             ("XML (--record row)", "xml", ["--record", "row"]), ("property list (binary)", "plist", []),
                             ("→ CSV", "jsonl", ["-o", str(work / "instructions.csv")]), ("→ SQLite", "jsonl", ["-o", str(database)])]:
        counts = []
        for files in (large, small):
            for suffix in ("", "-wal", "-shm"):
                Path(str(database) + suffix).unlink(missing_ok=True)
            counts.append(instructions(extra + [str(files[key])]))
        per_item[name] = (counts[0] - counts[1]) / 4000
    base = per_item["JSON Lines → JSON Lines"]
    print("instructions an item costs (3 widths, one worker, callgrind; 6,000 rows less 2,000):")
    for name, count in per_item.items():
        print(f"  {name:26} {count:9,.0f}  {count / base:5.2f}×")
    sys.exit(0)

paths = write_formats(rows)
cases = {
    "JSON Lines → JSON Lines": [str(paths["jsonl"])],
    "JSON array": [str(paths["json"])],
    "CSV": [str(paths["csv"])],
    "XML (--record row)": ["--record", "row", str(paths["xml"])],
    "property list (binary)": [str(paths["plist"])],
    "→ CSV": ["-o", str(work / "out.csv"), str(paths["jsonl"])],
    "→ SQLite": ["-o", str(work / "out.sqlite"), str(paths["jsonl"])],
}
times = {name: [] for name in cases}
for _ in range(rounds):
    for name, arguments in cases.items():
        if name == "→ SQLite":
            for suffix in ("", "-wal", "-shm"):
                Path(str(work / "out.sqlite") + suffix).unlink(missing_ok=True)
        times[name].append(run(arguments)[0])
base = statistics.median(times["JSON Lines → JSON Lines"]) if rounds else 1
if rounds: print(f"{rows:,} message rows × 3 widths, {jobs} worker{'s' if jobs != '1' else ''}, {rounds} rounds alternated (best, median wall clock; median against JSON Lines):")
for name, values in (times.items() if rounds else []):
    median = statistics.median(values)
    print(f"  {name:26} {min(values):6.2f} s {median:6.2f} s  {median / base:5.2f}×")

if "--memory" in sys.argv:
    print(f"peak resident size by input length ({jobs} workers):")
    for count in (1_000_000, 4_000_000):
        formats = write_formats(count)
        cases = [("JSON Lines", [str(formats["jsonl"])]), ("JSON array", [str(formats["json"])]),
                 ("CSV", [str(formats["csv"])]), ("XML", ["--record", "row", str(formats["xml"])])]
        # A property list is read whole (not streamed): shown beside the others where one was written.
        if "plist" in formats:
            cases.append(("binary plist", [str(formats["plist"])]))
        for name, arguments in cases:
            elapsed, peak = run(arguments)
            print(f"  {count:>9,} rows, {name:10}: {peak:6.0f} MiB ({elapsed:.1f} s)")
