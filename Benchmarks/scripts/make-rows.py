#!/usr/bin/env python3
"""Writes N message rows (JSON Lines) built from the benchmark fixtures, for the batch benchmark.

    python3 scripts/make-rows.py 1000000 > .build/rows.jsonl

Titles are fixture labels, captions short labels, texts two fixture sentences joined: 303 Latin,
Greek and Cyrillic sentences make 91,809 possible texts, so a text comes back only every ~90,000
rows on average, long after a paragraph cache (about 2,000 such paragraphs) would have let it go
(`galley`'s keeps only texts that come back within about as many others), while words repeat as
real text's do.
Deterministic: the same N gives the same bytes.
"""
import json, random, sys
from pathlib import Path

samples = json.load(open(Path(__file__).resolve().parent.parent / "Fixtures" / "samples.json"))
labels = [s["text"] for s in samples["labels"] if s["script"] in ("Latn", "Grek", "Cyrl")]
sentences = [s["text"] for s in samples["sentences"] if s["script"] in ("Latn", "Grek", "Cyrl")]
random.seed(20261122)
out = sys.stdout
for index in range(int(sys.argv[1])):
    row = {
        "id": index, "kind": "message", "title": random.choice(labels), "caption": random.choice(labels),
        "text": random.choice(sentences) + " " + random.choice(sentences),
        "timestamp": f"{random.randint(1, 12)}:{random.randint(0, 59):02d} PM",
    }
    if index % 3 == 0:
        row["imageURL"] = f"https://example.com/avatars/{index % 500}.png"
    out.write(json.dumps(row, ensure_ascii=False) + "\n")
