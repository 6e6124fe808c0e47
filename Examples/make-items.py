#!/usr/bin/env python3
"""Turns the shared sample data into Galley items (JSON Lines) for Examples/templates.json.

    python3 Examples/make-items.py Examples/data > Examples/items.jsonl

- three20-blog-feed.rss: one "post" per item (title, date, first sentence as summary, categories)
- drilldown-Data.plist: one "drilldown" row per node, flattened depth first (title, depth, hasChildren)
- books-*.xml: one "book" per book element (title, author, completed); none for books-none.xml
"""
import html, json, plistlib, re, sys
import xml.etree.ElementTree as ET
from pathlib import Path

root = Path(sys.argv[1])
out = []
feed = ET.parse(root / "three20-blog-feed.rss").getroot()
for item in feed.iter("item"):
    body = html.unescape(item.findtext("description") or "")
    body = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).strip()
    out.append({"id": item.findtext("link"), "kind": "post", "title": html.unescape(item.findtext("title")),
                "date": item.findtext("pubDate"), "summary": re.split(r"(?<=[.!?])\s+", body)[0],
                "categories": [c.text for c in item.findall("category")]})

def rows(nodes, path, depth):
    for index, node in enumerate(nodes):
        children = node.get("Children", [])
        out.append({"id": "/".join(path + [str(index)]), "kind": "drilldown", "title": node["Title"],
                    "depth": depth, "hasChildren": bool(children)})
        rows(children, path + [str(index)], depth + 1)

with open(root / "drilldown-Data.plist", "rb") as f:
    rows(plistlib.load(f)["Rows"], ["row"], 0)

for name in ["books-many.xml", "books-one.xml", "books-none.xml"]:
    for index, book in enumerate(ET.parse(root / name).getroot().iter("book")):
        out.append({"id": f"{name.removesuffix('.xml')}-{index}", "kind": "book", "title": book.findtext("title"),
                    "author": book.findtext("author"), "completed": book.findtext("completed")})

for row in out:
    print(json.dumps(row, ensure_ascii=False))
