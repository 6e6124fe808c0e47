#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (Fuzz/Corpus/<target>/) from the repository's own
examples and fonts, including fonts whose metric tables are edited to values at and past their
ranges' ends, and small PNGs of every colour type. Run from the repository's root:
python3 Fuzz/make-seeds.py"""
import datetime, plistlib
import hashlib, json, os, shutil, struct, zlib

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "Fuzz", "Corpus")


def write(target, data):
    folder = os.path.join(corpus, target)
    os.makedirs(folder, exist_ok=True)
    data = data if isinstance(data, bytes) else data.encode()
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()[:16]), "wb") as out:
        out.write(data)


def lines(path):
    with open(os.path.join(root, path), encoding="utf-8") as source:
        return [line.rstrip("\n") for line in source if line.strip()]


shutil.rmtree(corpus, ignore_errors=True)

# JSON: the examples' lines, and values of every kind at their edges.
for line in lines("Examples/items.jsonl")[:8] + lines("Examples/measure.jsonl")[:8]:
    write("FuzzJSON", line)
for text in ['{"a":[1,-0,0.5e-3,1E+2,12345678901234567890,"\\u00e9\\ud83d\\ude00\\n"],"b":{"c":null,"d":true}}',
             '[[[[[[]]]]],{},"",0,-9223372036854775808,9223372036854775808,1.7976931348623157e308]',
             '"\\ud800 lone"', ' \t\r\n{"x" : 1 , "x" : 2}\n']:
    write("FuzzJSON", text)
# Strings of many escapes, between plain runs and alone (decoded into one buffer, not piece by piece).
for text in ['"' + '\\n' * 300 + '"', '"' + 'line of text\\n' * 80 + '"', '"' + 'a\\u05d0' * 120 + '"',
             '{"id": 1, "text": "' + '\\ud83d\\ude00\\t\\"\\\\\\/\\u00e9 \\udc00x\\ud800\\u0041' * 30 + '"}']:
    write("FuzzJSON", text)

# Measure requests: the examples', and the fields each at an edge.
for line in lines("Examples/measure.jsonl"):
    write("FuzzMeasureRequest", line)
for extra in ['"maxLines": 2, "lineBreakMode": "truncateMiddle"', '"lang": "ja-JP-u-lb-strict"', '"lineHeightMultiple": 100',
              '"letterSpacing": -3, "weight": 900, "italic": true', '"fallback": ["Noto Sans Thai", "Fonts/NotoSansHebrew-Regular.ttf"]',
              '"font": "/dev/zero"', '"size": 1e-300', '"lang": "x-private-use"']:
    write("FuzzMeasureRequest", '{"id": 1, "text": "Hello, wörld — שלום 東京 a\\u0301\\u0302", "font": "Noto Sans", "size": 17, "width": 120, %s}' % extra)

# Templates: the examples' file on one line, then an item.
with open(os.path.join(root, "Examples/templates.json"), encoding="utf-8") as source:
    templates = json.dumps(json.load(source), separators=(",", ":"), ensure_ascii=False)
for line in lines("Examples/items.jsonl")[:6]:
    write("FuzzTemplates", templates + "\n" + line)
write("FuzzTemplates", templates)
write("FuzzTemplates", '{"k":{"root":{"type":"hstack","spacing":4,"alignment":"firstBaseline","children":['
      '{"type":"image","name":"i","widthField":"w","heightField":"h","max":{"width":50,"height":50}},'
      '{"type":"label","name":"t","styledField":"runs","style":"tableFont","maxLines":2,"lineBreakMode":"truncateTail","grow":1},'
      '{"type":"accessory","accessory":"disclosure"}]},"minimumHeight":44}}')


# Fonts: small bundled faces, and copies with their metric tables edited.
def tables(data):
    count = struct.unpack(">H", data[4:6])[0]
    found = {}
    for index in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * index:28 + 16 * index])
        found[tag.decode("latin-1")] = (offset, length)
    return found


def edited(data, table, field_offset, fmt, value):
    offset, _ = tables(data)[table]
    data = bytearray(data)
    struct.pack_into(fmt, data, offset + field_offset, value)
    return bytes(data)


for name in ["NotoSansHebrew-Regular.ttf", "NotoSansThai-Regular.ttf"]:
    with open(os.path.join(root, "Fonts", name), "rb") as source:
        font = source.read()
    write("FuzzFonts", font)
    if name.startswith("NotoSansHebrew"):
        for table, field, fmt, value in [
            ("head", 18, ">H", 0), ("head", 18, ">H", 1), ("head", 18, ">H", 65535),  # unitsPerEm
            ("hhea", 4, ">h", 32767), ("hhea", 6, ">h", -32768), ("hhea", 8, ">h", 32767),  # ascender, descender, lineGap
            ("hhea", 34, ">H", 0), ("OS/2", 4, ">H", 0), ("OS/2", 4, ">H", 65535),  # numberOfHMetrics, usWeightClass
            ("OS/2", 62, ">H", 0xFFFF), ("OS/2", 68, ">h", -32768), ("maxp", 4, ">H", 0),  # fsSelection, sTypoAscender, numGlyphs
        ]:
            write("FuzzFonts", edited(font, table, field, fmt, value))


# WOFF files (decoded by FreeType for HarfBuzz, what they declare checked first): the Hebrew face
# with its tables compressed, the same with a header declaring a size its tables do not sum to,
# and with a table declaring 2,000,000,000 bytes from a few stored ones.
def woff(font, extra=(), declared=None):
    flavor, count = struct.unpack(">IH", font[:6])
    entries = [(tag, font[offset:offset + length], length) for tag, (offset, length) in tables(font).items()]
    entries = sorted([(tag.encode("latin-1"), data, length) for tag, data, length in entries] + list(extra))
    out = bytearray(44 + 20 * len(entries))
    total = 12 + 16 * len(entries)
    for index, (tag, data, length) in enumerate(entries):
        stored = zlib.compress(data, 9) if len(data) == length else data
        stored = stored if len(stored) < length else data
        struct.pack_into(">4sIIII", out, 44 + 20 * index, tag, len(out), len(stored), length, 0)
        out += stored + bytes(-len(stored) % 4)
        total += (length + 3) & ~3
    struct.pack_into(">4sIIHHIHH", out, 0, b"wOFF", flavor, len(out), len(entries), 0, declared or total, 1, 0)
    return bytes(out)


with open(os.path.join(root, "Fonts", "NotoSansHebrew-Regular.ttf"), "rb") as source:
    hebrew = source.read()
write("FuzzFonts", woff(hebrew))
write("FuzzFonts", woff(hebrew, declared=40000))
write("FuzzFonts", woff(hebrew, extra=[(b"zzzz", b"\x55" * 16, 2_000_000_000)]))

# Input files: a first byte choosing the format (index into nil, jsonl, json, csv, tsv, xml,
# plist), 0x40 for the record name "item", 0x80 to reduce HTML; then the file.
def data(path):
    with open(os.path.join(root, path), "rb") as source:
        return source.read()


write("FuzzInputs", bytes([0x80]) + data("Examples/data/three20-blog-feed.rss"))
write("FuzzInputs", bytes([5 | 0x40]) + b"<r><item a='1'><t>x &amp; y</t><t>z</t><n><m>1.5</m></n></item><item/></r>")
write("FuzzInputs", bytes([6]) + data("Examples/data/drilldown-Data.plist"))
# Binary lists, read by Galley's own reader: the drill-down, and every kind of value.
write("FuzzInputs", bytes([6]) + plistlib.dumps(plistlib.loads(data("Examples/data/drilldown-Data.plist")), fmt=plistlib.FMT_BINARY))
write("FuzzInputs", bytes([6]) + plistlib.dumps([{"id": 1, "t": "Grüße 😀 ok", "d": datetime.datetime(2020, 1, 2), "b": b"\x00\xff", "r": 0.5,
                                                  "n": -2**63, "u": 2**64 - 1, "on": True, "c": [{"x": 1}, {"y": [2, {"z": "3"}]}]}],
                                                fmt=plistlib.FMT_BINARY))
# Binary lists naming one string, data and UTF-16 text from many records and many places in one.
shared, blob, wide = "x" * 300, b"\x00\xff" * 100, "\u00e9" * 100
write("FuzzInputs", bytes([6]) + plistlib.dumps([{"t": shared, "i": i} for i in range(30)] + [{"m": [shared, blob, wide] * 40}],
                                                fmt=plistlib.FMT_BINARY))
write("FuzzInputs", bytes([6]) + plistlib.dumps({"Rows": [{"t": wide, "Children": [{"m": [blob] * 20}, {"m": [shared] * 3}]}] * 4},
                                                fmt=plistlib.FMT_BINARY))
write("FuzzInputs", bytes([0]) + data("Examples/data/books-many.xml"))
# XML records with many attributes: on one element (past the limit of 1,000, with '>' and '=' in
# values), on repeated elements sharing some names, and one name each on many elements.
write("FuzzInputs", bytes([5 | 0x40]) + ("<r><item><c " + " ".join("a%d='>=%d'" % (i, i) for i in range(1001)) + "/></item><item/></r>").encode())
write("FuzzInputs", bytes([5 | 0x40]) + ("<r><item>" + "".join("<c a='%d' b%d='x' />" % (i, i % 7) for i in range(60)) + "</item></r>").encode())
write("FuzzInputs", bytes([5 | 0x40]) + ("<r><item>" + "".join("<c a%d='%d'/>" % (i, i) for i in range(400)) + "</item></r>").encode())
write("FuzzInputs", bytes([3]) + '\ufeffid,text,author.name,n\r\n1,"a, ""b""\nc",Ann,1.50\r\n\r\n2,x,,\n3,y\n'.encode())
write("FuzzInputs", bytes([4]) + b"id\ttext\n1\tx\n")
write("FuzzInputs", bytes([2]) + b'[{"id": 1, "text": "a ] , [ } \\" "},\n 5, {"id": 2}]')
write("FuzzInputs", bytes([1]) + b'\xef\xbb\xbf{"id": 1}\r\n\n{"id": 2')
write("FuzzInputs", bytes([0x80 | 1]) + b'{"id": 1, "d": "<p>One&nbsp;&amp; two</p><script>x</script><ul><li>a&#233;</li></ul>&hellip;"}')
# HTML fields with more attributes on one tag than the limit of 100 (distinct names; quoted values
# with '>' and no blanks between; one name again and again); one under it with what libxml2's
# reading of markup stumbles on, as a field and as the whole file (which the target also reads as
# one field, rewritten without attributes); a script with another element's end tag.
def html_field(html):
    return bytes([0x80 | 1]) + json.dumps({"id": 1, "d": html}).encode()


write("FuzzInputs", html_field("<p>x <a " + " ".join("a%d" % i for i in range(300)) + ">y</a> z</p>"))
write("FuzzInputs", html_field("<div><a x=\"1>2\"" + "".join("a%d='>%d'" % (i, i) for i in range(200)) + ">y</a></div><!-- <b c d> --><p>e</p>"))
write("FuzzInputs", html_field("<b" + " b=1" * 500 + "/>x<script>if (a<b) {}</zz></script>"))
write("FuzzInputs", html_field("<!DOCTYPE x SYSTEM \"a>b\"><p a=1 b=\"<c>\" 'd' e=f/>x</p>z<!-- a -- b --!><?php ?>&amp;<br/>"
                               "<a href='>'>a</a><b<i>c</b></ p><style><body>s</style>"))
write("FuzzInputs", bytes([0x80]) + b"<!DOCTYPE x SYSTEM 'a>b'><p a=1 b=\"<c>\" 'd' e=f/>x</p>z<!-- a -- b --!><?php ?>&amp;<br/>"
      b"<a href='>'>a</a><b<i>c</b></ p><aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab>t"
      b"<style><body>s</style>")
write("FuzzInputs", html_field("<div><script></zz x=\"</script>\">y</script>z</div>"))
# CSV that goes wrong: quotes that never close (at the end, and within a line), conflicting columns.
write("FuzzInputs", bytes([3]) + b'id,text\n1,"open\n2,b\n3,"x""y\n4,d\n')
write("FuzzInputs", bytes([4]) + b'id\ttext\n1\t"never closed\n2\ty\n')
write("FuzzInputs", bytes([3]) + b'id,a.b,a,a.b.c\n1,2,3,4\n')


# PNGs: small images of every colour type and depth, interlaced or not, with transparency, and
# with the ancillary chunks libpng is told to skip.
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png(width, height, color, depth, interlaced=False, palette=None, transparency=None, extra=()):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] if interlaced else [(0, 0, 1, 1)]
    raw = bytearray()
    for x0, y0, dx, dy in passes:
        columns = range(x0, width, dx)
        if not columns:
            continue
        for y in range(y0, height, dy):
            samples = [(x * 37 + y * 91 + c * 53) % (1 << depth) for x in columns for c in range(channels)]
            raw.append(0)
            if depth == 16:
                raw += b"".join(struct.pack(">H", v) for v in samples)
            elif depth == 8:
                raw += bytes(samples)
            else:
                bits = "".join(format(v, "0%db" % depth) for v in samples)
                bits += "0" * (-len(bits) % 8)
                raw += bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 1 if interlaced else 0))
    for kind, body in extra:
        data += chunk(kind, body)
    if palette is not None:
        data += chunk(b"PLTE", palette)
    if transparency is not None:
        data += chunk(b"tRNS", transparency)
    return data + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")


for color, depths in [(0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16])]:
    for depth in depths:
        entries = 1 << min(depth, 8)
        palette = bytes((i * 29 + 7) % 256 for i in range(entries * 3)) if color == 3 else None
        write("FuzzImages", png(7, 5, color, depth, interlaced=depth in (2, 16), palette=palette))
write("FuzzImages", png(9, 9, 3, 4, palette=bytes(range(48)), transparency=bytes([0, 128, 255])))
write("FuzzImages", png(9, 9, 0, 8, transparency=b"\x00\x05"))
write("FuzzImages", png(9, 9, 2, 16, interlaced=True, transparency=b"\x00\x05\x00\x06\x00\x07"))
write("FuzzImages", png(1, 1, 6, 8))
write("FuzzImages", png(6, 6, 6, 8, extra=[(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"a" * 100000, 9)),
                                          (b"iTXt", b"Note\x00\x01\x00\x00\x00" + zlib.compress(b"b" * 100000, 9)),
                                          (b"tEXt", b"Title\x00plain"), (b"iCCP", b"icc\x00\x00" + zlib.compress(b"\x00" * 5000)),
                                          (b"gAMA", struct.pack(">I", 45455)), (b"pHYs", struct.pack(">IIB", 2835, 2835, 1)),
                                          (b"seRk", b"\x01\x02")]))
