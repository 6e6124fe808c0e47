#!/usr/bin/env python3
"""Instructions per batch row: `galley heights --template message --width 320,375,414 --scale 2
--jobs 1` under callgrind over 4,000 rows of the generated file less the same over their first
2,000, divided by 2,000 (start-up and the caches' warm-up cancel out), and where they go; then
the same for rows whose texts are all in the paragraph cache already: what a row costs besides
its text's analysis and shaping.

    python3 scripts/row-instructions.py     # about two minutes; needs valgrind and objcopy

Swift's hash seed is fixed (SWIFT_DETERMINISTIC_HASHING=1) so that two builds compare: with
per-process seeds a row's count moves by about a thousand instructions.
"""
import json, re, shutil, subprocess, sys
from pathlib import Path

here = Path(__file__).resolve().parent.parent
build = here / ".build"
for tool in ("valgrind", "callgrind_annotate", "objcopy"):
    if shutil.which(tool) is None:
        sys.exit(f"row-instructions.py needs {tool}")

rows = build / "rows-1000000.jsonl"
if not rows.exists():
    with rows.open("w") as file:
        subprocess.run([sys.executable, str(here / "scripts" / "make-rows.py"), "1000000"], stdout=file, check=True)
subprocess.run(["swift", "build", "-c", "release", "--product", "galley"], cwd=here.parent, check=True, capture_output=True)
galley = build / "galley-stripped"  # valgrind 3.19 cannot read DWARF 5
shutil.copy(here.parent / ".build" / "release" / "galley", galley)
subprocess.run(["objcopy", "--strip-debug", str(galley)], check=True)

# Rows 2,001 to 6,000 (the file's first rows are its most repetitive), and their first 2,000.
with rows.open() as source:
    lines = [line for _, line in zip(range(6000), source)][2000:]
inputs = {4000: build / "rows-4000.jsonl", 2000: build / "rows-2000.jsonl"}
for count, path in inputs.items():
    path.write_text("".join(lines[:count]))

# The same rows with the texts of their first 50 over and over (each keeps its id and whether
# it has an image): past the first 50, every label's paragraph is in the cache, so these rows
# cost what a row costs besides analysing and shaping text.
def cached_row(index, line):
    row, model = json.loads(line), json.loads(lines[index % 50])
    for field in ("title", "caption", "text", "timestamp"):
        row[field] = model[field]
    return json.dumps(row, ensure_ascii=False) + "\n"
cached = {4000: build / "rows-cached-4000.jsonl", 2000: build / "rows-cached-2000.jsonl"}
for count, path in cached.items():
    path.write_text("".join(cached_row(index, line) for index, line in enumerate(lines[:count])))

# Inclusive costs of these functions (mangled-name patterns) make the table.
groups = {
    # Every paragraph built, whole or a start (the caller, `shape(_:utf16:paragraph:showing:heightsOnly:)`,
    # may be inlined into the engine's).
    "shape": r"15ParagraphShaper[CV]14shapeValidated",
    # A label's text by its styles, or by the label's prepared styles (most).
    "engine": r"0B6EngineC5shape_5style9paragraph7showing|0B6EngineC5shape_8prepared7showing",
    "heights": r"15ShapedParagraphC13measureHeight5width|15ShapedParagraphC7measure5width|15ShapedParagraphC13fitsOnOneLine5width",
    "layout": r"GalleyLayout7heights_8template6widths11environment",
    # The parse of a line's bytes (an array or a slice of the reader's buffer; the CLI's with
    # its worker's name cache).
    "json": r"10GalleyJSON10JSONParserV5parse(yAA9JSONValueO(Says5UInt8VG|s10ArraySliceVys5UInt8VG)|_5namesAA9JSONValueOs10ArraySliceVys5UInt8VG_AA13JSONNameCacheVzt)AA14JSONParseErrorVYKFZ$",
    # The command's closure measures the item (`heights`) and writes its lines.
    "command": r"14GalleyCommands0A0V7HeightsV3runyyKFy",
}

def profile(count, files=inputs):
    out = files[count].with_suffix(".callgrind")
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(galley), "heights", str(files[count]),
         "--template", "message", "--width", "320,375,414", "--scale", "2", "--jobs", "1"],
        env={"SWIFT_DETERMINISTIC_HASHING": "1", "PATH": "/usr/bin:/bin"}, check=True, capture_output=True)
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
                          capture_output=True, text=True, check=True).stdout
    total = int(re.search(r"([\d,]+) \([^)]*\)\s+PROGRAM TOTALS", text).group(1).replace(",", ""))
    sums = dict.fromkeys(groups, 0)
    for line in text.splitlines():
        match = re.match(r"\s*([\d,]+) \([^)]*\)\s+\S*?(\$s\S+)", line)
        if not match or "'" in match.group(2):  # recursive entries are counted in their first frame
            continue
        for name, pattern in groups.items():
            if re.search(pattern, match.group(2)) and not match.group(2).endswith(("TA", "TATm")):
                sums[name] += int(match.group(1).replace(",", ""))
    return total, sums

(large, large_groups), (small, small_groups) = profile(4000), profile(2000)
per = {name: (large_groups[name] - small_groups[name]) / 2000 for name in groups}
row = (large - small) / 2000
print(f"instructions per row: {row:,.0f}\n")
print("| per row | instructions |\n| --- | ---: |")
print(f"| the new text's analysis and shaping | {per['shape'] / 1000:.1f}K |")
print(f"| the paragraph cache (lookups, inserting, evicting) | {(per['engine'] - per['shape']) / 1000:.1f}K |")
print(f"| breaking the labels into lines | {per['heights'] / 1000:.1f}K |")
print(f"| the row's layout at three widths | {(per['layout'] - per['engine'] - per['heights']) / 1000:.1f}K |")
print(f"| the rest: reading, JSON parsing ({per['json'] / 1000:.1f}K), the item, writing ({(per['command'] - per['layout']) / 1000:.1f}K), freeing the caches at exit | {(row - per['layout']) / 1000:.1f}K |")

(large, _), (small, _) = profile(4000, cached), profile(2000, cached)
print(f"\nper row when every text is already in the paragraph cache (no text analysed or shaped): {(large - small) / 2000:,.0f}")
