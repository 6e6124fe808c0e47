#!/usr/bin/env python3
"""Builds corpus.json, the differential-test corpus: sentences.txt (written for these tests)
plus English sentences from the RSS feed in Examples/data/three20-blog-feed.rss.

Run from this folder: python3 make-corpus.py ../../../Examples/data/three20-blog-feed.rss
"""
import html, json, re, sys
import xml.etree.ElementTree as ET

entries = []
script = lang = None
for line in open("sentences.txt", encoding="utf-8"):
    line = line.rstrip("\n")
    if line.startswith("# ") and len(line.split()) == 3:
        _, script, lang = line.split()
        continue
    if line.startswith("#") or not line.strip():
        continue
    entries.append({"script": script, "lang": None if lang == "und" else lang, "text": line})

feed = ET.parse(sys.argv[1]).getroot()
english = []
for item in feed.iter("item"):
    english.append(html.unescape(item.findtext("title")))
    body = html.unescape(item.findtext("description") or "")
    body = re.sub(r"<pre>.*?</pre>|<code>.*?</code>", " ", body, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    for sentence in re.split(r"(?<=[.!?])\s+", re.sub(r"\s+", " ", body)):
        sentence = sentence.strip()
        if 20 <= len(sentence) <= 400 and not re.search(r"[{};=@]|http", sentence):
            english.append(sentence)
seen = set()
for text in english:
    if text not in seen:
        seen.add(text)
        entries.append({"script": "Latn", "lang": "en", "text": text})

json.dump(entries, open("corpus.json", "w", encoding="utf-8"), ensure_ascii=False, indent=0)
print(len(entries), "entries;", ", ".join(f"{s}: {sum(e['script'] == s for e in entries)}" for s in sorted({e['script'] for e in entries})))
