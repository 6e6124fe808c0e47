#!/usr/bin/env python3
"""The rerun benchmark: what resuming into a SQLite database costs against a fresh run, with the
same input (message rows from make-rows.py, `galley heights --template message` at two widths,
scale 2, two workers), one run each:

  fresh     an empty database
  complete  the same input over the database the fresh run left (everything current)
  killed    over a database whose run was killed with SIGKILL once half the rows were stored
  feed      the input a feed gives a day later over the fresh run's database: 0.5% new items on
            top, 0.5% edited in place, the oldest 0.5% gone (every kept item moves down)

Targets (issue 34): complete and feed at most 15% of fresh, killed at most 60%. The killed run's
table is checked against the fresh run's, row for row.

    python3 scripts/rerun.py [ROWS]          # default 300,000 rows
"""
import hashlib, os, random, shutil, signal, sqlite3, subprocess, sys, time
from pathlib import Path

here = Path(__file__).resolve().parent.parent
rows = int(sys.argv[1]) if len(sys.argv) > 1 else 300_000
work = here / ".build" / "rerun"
work.mkdir(parents=True, exist_ok=True)
data = here / ".build" / f"rows-{rows}.jsonl"
galley = here.parent / ".build" / "release" / "galley"
subprocess.run(["swift", "build", "-c", "release", "--product", "galley"], cwd=here.parent, check=True)
if not data.exists():
    with open(data, "w") as f:
        subprocess.run([sys.executable, str(here / "scripts" / "make-rows.py"), str(rows)], stdout=f, check=True)
arguments = ["heights", "--template", "message", "--width", "320,414", "--scale", "2", "--jobs", "2", "--quiet"]


def remove(database):
    for suffix in ("", "-wal", "-shm"):
        Path(str(database) + suffix).unlink(missing_ok=True)


def copy(source, database):
    """A copy of `source` at `database`, on disk: a database a run finds has not just been written,
    and flushing the copy is no part of the run's own work."""
    remove(database)
    shutil.copy(source, database)
    os.sync()


def run(database, items):
    os.sync()
    start = time.monotonic()
    status = subprocess.run([str(galley), *arguments, "-o", str(database), str(items)], stderr=subprocess.PIPE)
    elapsed = time.monotonic() - start
    if status.returncode != 0:
        sys.exit(f"galley failed ({status.returncode}): {status.stderr.decode()[-500:]}")
    return elapsed


def table(database):
    digest = hashlib.sha256()
    with sqlite3.connect(database) as db:
        for row in db.execute("SELECT * FROM heights ORDER BY position, width"):
            digest.update(repr(row).encode())
    return digest.hexdigest()


def count(database):
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=0.1) as db:
            return db.execute("SELECT count(*) FROM heights").fetchone()[0]
    except sqlite3.Error:
        return 0


fresh_db = work / "fresh.sqlite"
remove(fresh_db)
fresh = run(fresh_db, data)

complete_db = work / "complete.sqlite"
copy(fresh_db, complete_db)
complete = run(complete_db, data)

killed_db = work / "killed.sqlite"
remove(killed_db)
child = subprocess.Popen([str(galley), *arguments, "-o", str(killed_db), str(data)], stderr=subprocess.DEVNULL)
while count(killed_db) < rows and child.poll() is None:
    time.sleep(0.02)
child.send_signal(signal.SIGKILL)
child.wait()
stored = count(killed_db)
killed = run(killed_db, data)
same = table(killed_db) == table(fresh_db)

lines = data.read_text().splitlines()
random.seed(34)
share = rows // 200
feed = [line.replace('"id": ', '"id": "new', 1).replace(", ", '", ', 1) for line in lines[:share]]
kept = lines[: len(lines) - share]
for index in random.sample(range(len(kept)), share):
    kept[index] = kept[index].replace('"text": "', '"text": "Edited: ', 1)
feed_items = work / "feed.jsonl"
feed_items.write_text("\n".join(feed + kept) + "\n")
feed_db = work / "feed.sqlite"
copy(fresh_db, feed_db)
fed = run(feed_db, feed_items)

print(f"{rows:,} message rows at 2 widths, 2 workers, one run each")
print(f"fresh:    {fresh:6.2f} s")
for name, seconds, target, note in [
    ("complete", complete, 0.15, "everything current"),
    ("killed", killed, 0.60, f"killed with {stored:,} of {2 * rows:,} rows stored; table {'identical to' if same else 'DIFFERENT from'} the fresh run's"),
    ("feed", fed, 0.15, f"{share:,} new on top, {share:,} edited, {share:,} dropped"),
]:
    ratio = seconds / fresh
    print(f"{name + ':':9} {seconds:6.2f} s  {ratio:6.1%} of fresh (target ≤ {target:.0%}: {'met' if ratio <= target else 'NOT met'}); {note}")
if not same:
    sys.exit("the resumed table differs from the fresh run's")
