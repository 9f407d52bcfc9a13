#!/usr/bin/env python3
"""Generates Decant's writing cases (`<area>/write-*.encode.json`): a value in its canonical form, the media type
(or Accept header) to write it as, and the exact body an independent writer produces for it.

The bytes come from Python, never from Decant: `json.dumps` (compact separators, no ASCII escaping), `plistlib.dumps`,
`cbor2.dumps` (canonical=True only where it equals RFC 8949 preferred serialization: floats in an array, no maps),
`msgpack.packb`, `urllib.parse.urlencode`, `csv.writer` and the `codecs` of the WHATWG single- and multi-byte encodings. Run from
anywhere: `python3 Fixtures/generate-encoding.py` (needs the `cbor2` and `msgpack` packages); it rewrites only the
`write-*.encode.json` files. The output is deterministic.
"""
import base64
import codecs
import datetime
import glob
import json
import os
import plistlib
import urllib.parse

import csv
import io

import cbor2
import msgpack

ROOT = os.path.dirname(os.path.abspath(__file__))


def case(area, name, description, value, expect, **keys):
    document = {"description": description, "value": value, **keys, "expect": expect}
    folder = os.path.join(ROOT, area)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "write-" + name + ".encode.json"), "w", encoding="utf-8") as f:
        json.dump(document, f, ensure_ascii=False, indent=2)
        f.write("\n")


def body(serializer, content_type, data):
    return {"serializer": serializer, "contentType": content_type, "body": {"hex": data.hex()}}


def error(code, fragment=None):
    result = {"code": code}
    if fragment:
        result["messageContains"] = fragment
    return {"error": result}


def compact_json(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


for path in glob.glob(os.path.join(ROOT, "*", "write-*.encode.json")):
    os.remove(path)

# JSON: members in the order given, exact numbers, only the escapes JSON requires.
document = {"name": "café ☕", "count": 3, "ratio": 2.5, "big": 12345678901234567890, "tags": ["a", "b"],
            "ok": True, "none": None, "nested": {"empty": [], "object": {}}}
case("json", "object-in-order", "members in order, non-ASCII unescaped, an integer beyond 64 bits kept exact",
     document, body("json", "application/json", compact_json(document)), **{"as": "application/json"})
text = "line\nbreak \"quoted\" \\ tab\t bell\u0007 slash/ nul\u0000 del\u007f"
case("json", "escapes", "quotes, backslashes and control characters escaped as json.dumps does; / and DEL are not",
     [text], body("json", "application/json", compact_json([text])), **{"as": "application/json"})
case("json", "structured-suffix", "a +json type is written by the JSON format with its own media type",
     {"data": {"id": "1"}}, body("json", "application/vnd.api+json", compact_json({"data": {"id": "1"}})),
     **{"as": "application/vnd.api+json"})
case("json", "accept-prefers-what-it-can-write",
     "a JSON object is no text/html body, so Accept: text/html, application/json;q=0.1 gives JSON",
     {"id": 1}, body("json", "application/json", compact_json({"id": 1})),
     accept="text/html, application/json;q=0.1")
case("json", "accept-nothing-acceptable", "406: nothing acceptable, and the error lists what the value can be",
     {"id": 1}, error("notAcceptable", "application/json"), accept="text/html, image/*")
case("json", "accept-q0-excludes", "q=0 excludes JSON even under */*: the value is written as another type",
     [1, 2], error("notAcceptable"), accept="application/json;q=0, text/*;q=0, application/*;q=0")

# Text through the WHATWG encoders, with the charset written into Content-Type (its name in lower case, as Decant
# writes it: charset values are case-insensitive, RFC 9110 §8.3.2).
for name, label, text, codec in [
    ("windows-1252", "windows-1252", "café – 5 €, naïve “quotes”", "cp1252"),
    ("shift-jis", "Shift_JIS", "日本語のテキスト、カタカナ", "shift_jis"),
    ("euc-kr", "EUC-KR", "한국어 텍스트", "euc_kr"),
    ("iso-8859-2", "ISO-8859-2", "Zażółć gęślą jaźń", "iso8859_2"),
    ("koi8-r", "KOI8-R", "Русский текст", "koi8_r"),
]:
    case("string", name, f"text in {label} through the WHATWG encoder, bytes from Python's {codec} codec",
         {"text": text, "encoding": label},
         body("string", f"text/plain;charset={label.lower()}", codecs.encode(text, codec)), **{"as": "text/plain"})
case("string", "utf-8", "UTF-8 text, the default encoding", {"text": "héllo wörld ✓", "encoding": "UTF-8"},
     body("string", "text/plain;charset=utf-8", "héllo wörld ✓".encode("utf-8")), **{"as": "text/plain"})
case("string", "unencodable", "text the asked-for encoding cannot hold is an error naming the character",
     {"text": "日本", "encoding": "windows-1252"}, error("encodingFailed"), **{"as": "text/plain"})

# Property lists: XML and binary, byte for byte as plistlib writes them (keys in the order given).
plist = {"name": "Decant", "count": 3, "ratio": 0.5, "ok": True, "list": ["a", b"\x00\x01\x02"],
         "nested": {"é": "ü"}}
plist_form = {"dict": {"name": {"string": "Decant"}, "count": {"integer": "3"}, "ratio": {"real": "0.5"},
                       "ok": {"bool": True},
                       "list": {"array": [{"string": "a"}, {"data_base64": base64.b64encode(b"\x00\x01\x02").decode()}]},
                       "nested": {"dict": {"é": {"string": "ü"}}}}}
case("propertyList", "xml", "an XML property list as plistlib writes it (sort_keys=False)", plist_form,
     body("propertyList", "application/x-plist", plistlib.dumps(plist, fmt=plistlib.FMT_XML, sort_keys=False)),
     **{"as": "application/x-plist"})
case("propertyList", "binary", "a binary property list as plistlib writes it (sort_keys=False)", plist_form,
     body("propertyList", "application/x-bplist", plistlib.dumps(plist, fmt=plistlib.FMT_BINARY, sort_keys=False)),
     **{"as": "application/x-bplist"})

when = {"when": datetime.datetime(2004, 10, 26, 10, 33, 33), "pi": 3.25, "negative": -42, "big": 2**63 - 1,
        "empty": {}, "none": []}
when_form = {"dict": {"when": {"date": "2004-10-26T10:33:33Z"}, "pi": {"real": "3.25"},
                      "negative": {"integer": "-42"}, "big": {"integer": str(2**63 - 1)}, "empty": {"dict": {}},
                      "none": {"array": []}}}
case("propertyList", "dates-and-numbers", "a date, a real, negative and 64-bit integers, empty containers",
     when_form,
     body("propertyList", "application/x-plist", plistlib.dumps(when, fmt=plistlib.FMT_XML, sort_keys=False)),
     **{"as": "application/x-plist"})

# CBOR: preferred serialization (RFC 8949 §4.1): the shortest float that keeps the value, the shortest integer head.
floats = [1.5, 0.1, -4.25, 3.4028234663852886e38, 1.0e300, 5.960464477539063e-08, 65504.5]
case("cbor", "preferred-floats", "each float in the shortest of half, single and double precision that keeps it",
     floats, body("cbor", "application/cbor", cbor2.dumps(floats, canonical=True)), **{"as": "application/cbor"})
ints = [0, 23, 24, 255, 256, 65535, 65536, 4294967295, 4294967296, -1, -24, -25, -256, -257, 18446744073709551615,
        -18446744073709551616]
case("cbor", "preferred-integers", "each integer with the shortest head", ints,
     body("cbor", "application/cbor", cbor2.dumps(ints)), **{"as": "application/cbor"})
cbor_map = {"a": 1, "b": [2, 3], "c": "é", "d": None, "e": True, "f": b"\x01\x02"}
cbor_form = {"a": 1, "b": [2, 3], "c": "é", "d": None, "e": True, "f": {"$bytes": "AQI="}}
case("cbor", "map-in-order", "a map written in the order given (preferred, not deterministic, serialization)",
     cbor_form, body("cbor", "application/cbor", cbor2.dumps(cbor_map)), **{"as": "application/cbor"})

# MessagePack: the smallest integer and string forms.
pack = {"a": 1, "ints": [0, 127, 128, 255, 256, 65535, 65536, -1, -32, -33, -128, -129, -32768, -32769,
                         4294967296, -2147483649],
        "s": "é" * 40, "n": None, "t": True, "f": 0.5, "bin": b"\x00\xff"}
pack_form = dict(pack, bin={"$bytes": base64.b64encode(b"\x00\xff").decode()})
case("msgpack", "smallest-forms", "integers, strings and maps in their smallest forms, as msgpack.packb writes them",
     pack_form, body("msgpack", "application/msgpack", msgpack.packb(pack, use_bin_type=True)),
     **{"as": "application/msgpack"})

# Forms: the WHATWG application/x-www-form-urlencoded serializer (urlencode agrees on these characters).
pairs = [["name", "Jo Smith"], ["q", "a&b=c+d"], ["é", "✓ done"], ["empty", ""], ["path", "/a/b?c#d"]]
case("form", "pairs", "pairs in order, spaces as +, everything but alphanumerics and *-._ percent-encoded as UTF-8",
     {"pairs": pairs},
     body("form", "application/x-www-form-urlencoded", urllib.parse.urlencode([tuple(p) for p in pairs]).encode("ascii")),
     **{"as": "application/x-www-form-urlencoded"})

# NDJSON and JSON text sequences: one compact JSON text a record.
records = [{"id": 1, "name": "é"}, [1, 2], "text", None]
case("ndjson", "ndjson", "one compact JSON text a line, each ended by LF", {"records": records},
     body("ndjson", "application/x-ndjson", b"".join(compact_json(r) + b"\n" for r in records)),
     **{"as": "application/x-ndjson"})
case("ndjson", "json-seq", "RFC 7464: each JSON text after RS and before LF", {"records": records},
     body("ndjson", "application/json-seq", b"".join(b"\x1e" + compact_json(r) + b"\n" for r in records)),
     **{"as": "application/json-seq"})

# CSV and TSV: RFC 4180 as Python's csv.writer writes it (QUOTE_MINIMAL, CRLF).
def csv_bytes(rows, **dialect):
    out = io.StringIO(newline="")
    csv.writer(out, **dialect).writerows(rows)
    return out.getvalue().encode("utf-8")


header = ["name", "note", "city"]
rows = [["Ada", "said \"hi\"", "London"], ["Grace", "a, b", "New\r\nYork"], ["Zoë", "", "Zürich"]]
case("csv", "quoting", "fields with quotes, commas and line ends quoted, quotes doubled, CRLF after each record",
     {"header": header, "rows": rows},
     body("csv", "text/csv;charset=utf-8;header=present", csv_bytes([header] + rows)), **{"as": "text/csv"})
tsv_rows = [["id", "word"], ["1", "été"], ["2", "a b"]]
case("csv", "tab-separated", "TSV: fields joined by tabs, nothing quoted",
     {"header": tsv_rows[0], "rows": tsv_rows[1:]},
     body("csv", "text/tab-separated-values;charset=utf-8;header=present",
          csv_bytes(tsv_rows, delimiter="\t", quoting=csv.QUOTE_NONE)),
     **{"as": "text/tab-separated-values"})
case("csv", "tab-in-tsv-field", "a tab inside a TSV field cannot be written", {"header": None, "rows": [["a\tb"]]},
     error("encodingFailed", "row 1, column 1"), **{"as": "text/tab-separated-values"})
