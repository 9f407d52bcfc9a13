#!/usr/bin/env python3
"""Generates Decant's conformance fixtures: raw HTTP responses (`.http`) and their expectations (`.expect.json`).

Expected values come from Python, never from Decant: `json.loads` for JSON bodies, Python's codecs for text, and the
WHATWG label table (../shared/corpora/encoding/whatwg-encoding/encodings.json when present, else the few names
listed below) for encoding names. Run from anywhere: `python3 Fixtures/generate.py`; it rewrites the json/ and
string/ folders next to this script. The output is deterministic.
"""
import json
import os
import shutil

ROOT = os.path.dirname(os.path.abspath(__file__))


def http(status, reason, headers, body, content_length=True):
    """A raw HTTP/1.1 message; Content-Length is added unless given or disabled."""
    lines = [f"HTTP/1.1 {status} {reason}".rstrip()]
    names = [name.lower() for name, _ in headers]
    for name, value in headers:
        lines.append(f"{name}: {value}")
    if content_length and "content-length" not in names and "transfer-encoding" not in names:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def write(area, name, raw, expectation):
    folder = os.path.join(ROOT, area)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name + ".http"), "wb") as f:
        f.write(raw)
    with open(os.path.join(folder, name + ".expect.json"), "w", encoding="utf-8") as f:
        json.dump(expectation, f, ensure_ascii=False, indent=2)
        f.write("\n")


def value(serializer, v):
    return {"serializer": serializer, "value": v}


def error(code, **extra):
    e = {"code": code}
    e.update(extra)
    return {"error": e}


# ---------------------------------------------------------------- JSON

def json_cases():
    doc = {"id": 7, "name": "Ada", "tags": ["math", "engines"], "active": True, "score": 9.5, "manager": None}
    body = json.dumps(doc).encode()
    cases = []

    def ok(name, description, content_type, body_bytes, expected, status=200, reason="OK", **extra):
        headers = [("Content-Type", content_type)] if content_type is not None else []
        exp = {"description": description, **extra, "expect": value("json", expected)}
        cases.append((name, http(status, reason, headers, body_bytes), exp))

    ok("object", "A plain application/json object resolves to the JSON serializer.", "application/json", body, doc)
    ok("charset-utf8", "A charset parameter on application/json is accepted.", "application/json; charset=utf-8",
       body, doc)
    ok("uppercase-type", "Media types are case-insensitive.", "Application/JSON; Charset=UTF-8", body, doc)
    ok("text-json", "text/json is a JSON MIME type.", "text/json", body, doc)
    ok("text-javascript", "text/javascript bodies are parsed as JSON (AFNetworking's list).", "text/javascript",
       b"[1, 2, 3]", [1, 2, 3])
    problem = {"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.",
               "status": 403}
    ok("problem-json-suffix", "application/problem+json matches the */*+json suffix range (the json serializer named: a "
       "problem details plugin would win otherwise).", "application/problem+json", json.dumps(problem).encode(), problem,
       serializer="json")
    ok("vendor-suffix", "A vendor type with +json is JSON.", "application/vnd.api+json",
       b'{"data": {"type": "articles", "id": "1"}}', {"data": {"type": "articles", "id": "1"}})
    ok("ld-json-quoted-parameter", "Quoted parameters with slashes parse.",
       'application/ld+json; profile="https://www.w3.org/ns/activitystreams"', b'{"@context": "x"}',
       {"@context": "x"})
    ok("utf8-bom", "A UTF-8 byte order mark is skipped.", "application/json", b"\xef\xbb\xbf" + body, doc)
    text = json.dumps({"greeting": "héllo wörld ✓"}, ensure_ascii=False)
    ok("utf16le-bom", "UTF-16LE with a BOM is detected (RFC 8259 §8.1).", "application/json",
       "\ufeff".encode("utf-16-le") + text.encode("utf-16-le"), json.loads(text))
    ok("utf16be-no-bom", "UTF-16BE without a BOM is detected from the zero bytes.", "application/json",
       text.encode("utf-16-be"), json.loads(text))
    ok("utf32le-no-bom", "UTF-32LE without a BOM is detected from the zero bytes.", "application/json",
       text.encode("utf-32-le"), json.loads(text))
    nested = "[" * 100 + "]" * 100
    ok("nested-100", "100 nested arrays are within the default depth.", "application/json", nested.encode(),
       json.loads(nested))
    big = b'{"big": 123456789012345678901234567890, "neg": -98765432109876543210, "small": 1.5e-300}'
    ok("big-numbers", "Integers past Int64 and tiny doubles keep their values.", "application/json", big,
       json.loads(big))
    escapes = rb'{"emoji": "\ud83d\ude00", "tab": "a\tb", "quote": "\"", "nul": "\u0000", "solidus": "\/"}'
    ok("escapes-and-surrogates", "Escapes and surrogate pairs decode.", "application/json", escapes,
       json.loads(escapes))
    ok("fragment-string", "A top-level string is allowed by default (fragments on).", "application/json",
       b'"hello"', "hello")
    ok("fragment-number", "A top-level number is allowed by default.", "application/json", b"42", 42)
    ok("empty-200", "An empty 200 body gives the empty value, JSON null (not an error, unlike Alamofire).",
       "application/json", b"", None)
    ok("whitespace-body", "A single space (Rails head :ok) counts as empty.", "application/json", b" ", None)
    cases.append(("no-content-204", http(204, "No Content", [], b""),
                  {"description": "204 No Content gives the empty value.", "serializer": "json",
                   "expect": value("json", None)}))
    cases.append(("reset-content-205", http(205, "Reset Content", [], b""),
                  {"description": "205 Reset Content gives the empty value.", "serializer": "json",
                   "expect": value("json", None)}))
    cases.append(("not-modified-304", http(304, "Not Modified", [("ETag", '"abc"')], b"", content_length=False),
                  {"description": "304 is empty once it is made acceptable.", "serializer": "json",
                   "acceptableStatusCodes": ["200-299", 304], "expect": value("json", None)}))
    cases.append(("not-modified-304-default", http(304, "Not Modified", [("ETag", '"abc"')], b"",
                                                   content_length=False),
                  {"description": "304 is outside the default 200-299.", "serializer": "json",
                   "expect": error("unacceptableStatusCode", status=304)}))
    cases.append(("head-request", http(200, "OK", [("Content-Type", "application/json"),
                                                   ("Content-Length", "1234")], b""),
                  {"description": "A HEAD response has no body whatever Content-Length says.",
                   "request": {"method": "HEAD"}, "expect": value("json", None)}))
    cases.append(("empty-policy-error", http(200, "OK", [("Content-Type", "application/json")], b""),
                  {"description": "The strict empty-body policy rejects an empty 200.", "serializer": "json",
                   "emptyBody": "emptyValueOnlyForNoContent", "expect": error("emptyBody")}))
    not_found = {"type": "about:blank", "title": "Not Found", "status": 404, "detail": "No user 42."}
    cases.append(("404-problem-document", http(404, "Not Found", [("Content-Type", "application/problem+json")],
                                               json.dumps(not_found).encode()),
                  {"description": "A 404 is a status error that still carries its decoded problem document.",
                   "expect": error("unacceptableStatusCode", status=404, errorValue=not_found)}))
    cases.append(("500-html-page", http(500, "Internal Server Error", [("Content-Type", "application/json")],
                                        b"<html><body>Oops</body></html>"),
                  {"description": "A 500 whose body is not JSON: the status error wins; the parse error is an "
                                  "attempt.", "serializer": "json",
                   "expect": error("unacceptableStatusCode", status=500,
                                   attempts=[{"serializer": "json", "code": "invalidBody"}])}))
    for name, bad, description in [
        ("trailing-comma", b'{"a": 1,}', "Trailing commas are rejected (RFC 8259)."),
        ("lone-surrogate", rb'["\ud800"]', "A lone surrogate escape is rejected."),
        ("leading-zero", b"[01]", "Leading zeros are rejected."),
        ("nan-literal", b"[NaN]", "NaN is not JSON."),
        ("single-quotes", b"{'a': 1}", "Single-quoted strings are not JSON."),
    ]:
        cases.append((name, http(200, "OK", [("Content-Type", "application/json")], bad),
                      {"description": description, "serializer": "json",
                       "expect": error("invalidBody")}))
    cases.append(("invalid-utf8", http(200, "OK", [("Content-Type", "application/json")], b'["\xff"]'),
                  {"description": "Invalid UTF-8 is rejected as an encoding error (RFC 8259 §8.1).",
                   "serializer": "json", "expect": error("invalidEncoding")}))
    cases.append(("truncated-body", http(200, "OK", [("Content-Type", "application/json"), ("Content-Length", "100")],
                                         b'{"items": [1, 2, 3', content_length=False),
                  {"description": "A body shorter than Content-Length is reported as truncated, not as bad JSON.",
                   "perturb": False, "expect": error("truncatedBody")}))
    chunks = b"7\r\n{\"a\": [\r\nb\r\n1, 2, 3]}  \r\n0\r\n\r\n"
    cases.append(("chunked", http(200, "OK", [("Content-Type", "application/json"),
                                              ("Transfer-Encoding", "chunked")], chunks),
                  {"description": "A chunked body is decoded before parsing.", "expect": value("json", {"a": [1, 2, 3]})}))
    cases.append(("sniff-missing-type", http(200, "OK", [], b'{"sniffed": true}'),
                  {"description": "Without Content-Type, sniffing finds JSON.", "sniffing": "sniffWhenMissing",
                   "expect": value("json", {"sniffed": True})}))
    cases.append(("sniff-octet-stream", http(200, "OK", [("Content-Type", "application/octet-stream")],
                                             b'[{"x": 1}]'),
                  {"description": "A generic application/octet-stream body is sniffed as JSON.",
                   "sniffing": "sniffWhenGeneric", "expect": value("json", [{"x": 1}])}))
    cases.append(("octet-stream-trusted", http(200, "OK", [("Content-Type", "application/octet-stream")],
                                               b'[{"x": 1}]'),
                  {"description": "Without sniffing, application/octet-stream has no serializer.",
                   "expect": error("noSerializer")}))
    cases.append(("max-depth-option", http(200, "OK", [("Content-Type", "application/json")], b"[[[[[1]]]]]"),
                  {"description": "The maxDepth option bounds nesting.", "serializer": "json",
                   "options": {"maxDepth": 4}, "expect": error("limitExceeded")}))
    nulls = {"a": None, "b": {"c": None, "d": 1}, "e": [None, {"f": None}]}
    cases.append(("removes-null-keys", http(200, "OK", [("Content-Type", "application/json")],
                                            json.dumps(nulls).encode()),
                  {"description": "removesKeysWithNullValues drops null members recursively, not array elements.",
                   "serializer": "json", "options": {"removesKeysWithNullValues": True},
                   "expect": value("json", {"b": {"d": 1}, "e": [None, {}]})}))
    cases.append(("duplicate-keys-last-wins", http(200, "OK", [("Content-Type", "application/json")],
                                                   b'{"a": 1, "a": 2}'),
                  {"description": "Duplicate keys: the last wins by default (as Python's json does).",
                   "serializer": "json", "expect": value("json", json.loads('{"a": 1, "a": 2}'))}))
    cases.append(("fragments-disallowed", http(200, "OK", [("Content-Type", "application/json")], b"1"),
                  {"description": "With allowsFragments off, a top-level number is rejected.", "serializer": "json",
                   "options": {"allowsFragments": False}, "expect": error("invalidBody")}))
    cases.append(("compound-falls-back", http(200, "OK", [("Content-Type", "text/plain")], b"not json"),
                  {"description": "A compound tries the serializers whose ranges match: here only string.",
                   "serializers": ["json", "string"], "expect": value("string", {"text": "not json",
                                                                                 "encoding": "UTF-8"})}))
    cases.append(("compound-merged-errors", http(200, "OK", [("Content-Type", "application/json")],
                                                 b'{"broken": \xff'),
                  {"description": "Every serializer fails: one error lists each attempt in order.",
                   "serializers": ["json", "string"], "triesNonMatching": True,
                   "options": {"string": {"mode": "strict"}},
                   "expect": error("allSerializersFailed", attempts=[
                       {"serializer": "json", "code": "invalidBody"},
                       {"serializer": "string", "code": "invalidEncoding"}])}))
    return cases


# ---------------------------------------------------------------- String

def load_labels():
    """WHATWG label -> canonical encoding name, from the corpus when present."""
    path = os.path.join(ROOT, "..", "..", "shared", "corpora", "encoding", "whatwg-encoding", "encodings.json")
    labels = {}
    if os.path.exists(path):
        for group in json.load(open(path, encoding="utf-8")):
            for encoding in group["encodings"]:
                for label in encoding["labels"]:
                    labels[label] = encoding["name"]
    return labels


LABELS = load_labels()


def whatwg_name(label, fallback):
    return LABELS.get(label.strip().lower(), fallback)


def string_cases():
    cases = []

    def ok(name, description, content_type, body, text, encoding, status=200, reason="OK", **extra):
        headers = [("Content-Type", content_type)] if content_type is not None else []
        exp = {"description": description, **extra,
               "expect": value("string", {"text": text, "encoding": encoding})}
        cases.append((name, http(status, reason, headers, body), exp))

    sample = "Grüße, naïve café — 5 €"
    ok("utf8-charset", "text/plain with charset=utf-8.", "text/plain; charset=utf-8", sample.encode("utf-8"),
       sample, "UTF-8")
    ok("utf8-default", "Without a charset, text/* defaults to UTF-8.", "text/plain", sample.encode("utf-8"), sample,
       "UTF-8")
    ok("quoted-charset", "A quoted charset value.", 'text/plain; charset="utf-8"', b"quoted", "quoted", "UTF-8")
    ok("uppercase-parameter", "Parameter names are case-insensitive.", "TEXT/PLAIN; CHARSET=UTF-8", b"upper",
       "upper", "UTF-8")
    latin = "café ÷ ½".encode("cp1252")
    ok("latin1-label-is-windows-1252", "The label iso-8859-1 means windows-1252 (WHATWG).",
       "text/plain; charset=iso-8859-1", latin + b" \x80", latin.decode("cp1252") + " €",
       whatwg_name("iso-8859-1", "windows-1252"))
    ok("windows-1252", "windows-1252 maps 0x80-0x9F to punctuation.", "text/plain; charset=windows-1252",
       b"\x93quoted\x94 \x85", b"\x93quoted\x94 \x85".decode("cp1252"), "windows-1252")
    japanese = "こんにちは、世界。テスト"
    for name, label, codec in [("shift-jis", "Shift_JIS", "shift_jis"), ("euc-jp", "EUC-JP", "euc_jp"),
                               ("iso-2022-jp", "ISO-2022-JP", "iso2022_jp")]:
        ok(name, f"{label} decodes.", f"text/plain; charset={label}", japanese.encode(codec), japanese,
           whatwg_name(label, label))
    chinese = "你好，世界。中文测试"
    ok("gbk", "GBK decodes.", "text/plain; charset=GBK", chinese.encode("gbk"), chinese, whatwg_name("gbk", "GBK"))
    ok("gb2312-label", "The label gb2312 means GBK.", "text/plain; charset=gb2312", chinese.encode("gbk"), chinese,
       whatwg_name("gb2312", "GBK"))
    ok("gb18030", "gb18030 decodes four-byte sequences.", "text/plain; charset=gb18030",
       ("€ 𠀀 " + chinese).encode("gb18030"), "€ 𠀀 " + chinese, whatwg_name("gb18030", "gb18030"))
    traditional = "你好，世界。繁體中文"
    ok("big5", "Big5 decodes.", "text/plain; charset=big5", traditional.encode("big5"), traditional,
       whatwg_name("big5", "Big5"))
    korean = "안녕하세요 세계"
    ok("euc-kr", "EUC-KR decodes.", "text/plain; charset=euc-kr", korean.encode("euc_kr"), korean,
       whatwg_name("euc-kr", "EUC-KR"))
    russian = "Привет, мир"
    ok("koi8-r", "KOI8-R decodes.", "text/plain; charset=koi8-r", russian.encode("koi8_r"), russian,
       whatwg_name("koi8-r", "KOI8-R"))
    ok("utf16le-bom", "A UTF-16LE BOM decides the encoding.", "text/plain",
       "\ufeff".encode("utf-16-le") + sample.encode("utf-16-le"), sample, "UTF-16LE")
    ok("utf16be-bom-beats-label", "A BOM wins over the charset label (WHATWG decode).",
       "text/plain; charset=iso-8859-1", "\ufeff".encode("utf-16-be") + sample.encode("utf-16-be"), sample,
       "UTF-16BE")
    ok("utf8-bom-beats-label", "A UTF-8 BOM wins over windows-1252 and is removed.",
       "text/plain; charset=windows-1252", b"\xef\xbb\xbf" + sample.encode("utf-8"), sample, "UTF-8")
    ok("utf16-label", "The label utf-16 means UTF-16LE.", "text/plain; charset=utf-16", "hi".encode("utf-16-le"),
       "hi", whatwg_name("utf-16", "UTF-16LE"))
    ok("unknown-label-falls-back", "An unknown label falls back to the default in replacement mode.",
       "text/plain; charset=no-such-charset", b"fallback", "fallback", "UTF-8")
    cases.append(("unknown-label-strict", http(200, "OK", [("Content-Type", "text/plain; charset=no-such-charset")],
                                               b"x"),
                  {"description": "An unknown label is an error in strict mode.", "serializer": "string",
                   "options": {"mode": "strict"}, "expect": error("invalidEncoding")}))
    bad = b"ok \xff\xfe \xe2\x82 end"
    ok("invalid-utf8-replacement", "Invalid UTF-8 becomes U+FFFD per maximal subpart.", "text/plain; charset=utf-8",
       bad, bad.decode("utf-8", "replace"), "UTF-8")
    cases.append(("invalid-utf8-strict", http(200, "OK", [("Content-Type", "text/plain; charset=utf-8")], bad),
                  {"description": "Invalid UTF-8 is an error in strict mode.", "serializer": "string",
                   "options": {"mode": "strict"}, "expect": error("invalidEncoding")}))
    ok("text-html", "text/html is text.", "text/html; charset=utf-8", b"<p>Hello</p>", "<p>Hello</p>", "UTF-8")
    ok("text-csv", "text/csv is text to the string serializer (chosen by name: a CSV plugin would win otherwise).",
       "text/csv", b"a,b\n1,2\n", "a,b\n1,2\n", "UTF-8", serializer="string")
    ok("default-windows-1252", "The defaultEncoding option applies without a charset.", "text/plain", b"\x93hi\x94",
       b"\x93hi\x94".decode("cp1252"), "windows-1252", serializer="string",
       options={"defaultEncoding": "windows-1252"})
    ok("default-iso-8859-1", "True ISO-8859-1 as the default maps 0x93 to U+0093.", "text/plain", b"\x93hi",
       b"\x93hi".decode("latin-1"), "ISO-8859-1", serializer="string", options={"defaultEncoding": "ISO-8859-1"})
    ok("x-user-defined", "x-user-defined maps 0x80-0xFF to U+F780-U+F7FF.", "text/plain; charset=x-user-defined",
       b"a\x80\xff", "a\uf780\uf7ff", "x-user-defined")
    ok("replacement-encoding", "The replacement encoding (label iso-2022-kr) decodes to one U+FFFD.",
       "text/plain; charset=iso-2022-kr", b"\x1b$)Cabc", "\ufffd", whatwg_name("iso-2022-kr", "replacement"))
    ok("empty-200", "An empty text body is the empty string.", "text/plain; charset=utf-8", b"", "", "UTF-8")
    cases.append(("no-content-204", http(204, "No Content", [], b""),
                  {"description": "204 gives the empty string.", "serializer": "string",
                   "expect": value("string", {"text": "", "encoding": "UTF-8"})}))
    cases.append(("head-request", http(200, "OK", [("Content-Type", "text/plain"), ("Content-Length", "99")], b""),
                  {"description": "A HEAD response is empty.", "request": {"method": "HEAD"},
                   "expect": value("string", {"text": "", "encoding": "UTF-8"})}))
    cases.append(("404-text", http(404, "Not Found", [("Content-Type", "text/plain; charset=utf-8")], b"Not Found"),
                  {"description": "A 404 keeps its decoded text as the error value.",
                   "expect": error("unacceptableStatusCode", status=404,
                                   errorValue={"text": "Not Found", "encoding": "UTF-8"})}))
    cases.append(("json-is-not-text", http(200, "OK", [("Content-Type", "application/json")], b"{}"),
                  {"description": "The string serializer accepts text/* only.", "serializer": "string",
                   "expect": error("noSerializer")}))
    cases.append(("sniff-plain-text", http(200, "OK", [], b"hello, plain text"),
                  {"description": "Without Content-Type, sniffing finds plain text.", "sniffing": "sniffWhenMissing",
                   "expect": value("string", {"text": "hello, plain text", "encoding": "UTF-8"})}))
    return cases


# ---------------------------------------------------------------- Property lists

def plist_canonical(value):
    """The typed JSON form of ../shared/corpora/plist/cpython/valid/*.expected.json, from plistlib's value."""
    import base64
    import datetime
    import plistlib
    if isinstance(value, dict):
        return {"dict": {k: plist_canonical(v) for k, v in value.items()}}
    if isinstance(value, list):
        return {"array": [plist_canonical(v) for v in value]}
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int):
        return {"integer": str(value)}
    if isinstance(value, float):
        return {"real": repr(value)}
    if isinstance(value, str):
        return {"string": value}
    if isinstance(value, bytes):
        return {"data_base64": base64.b64encode(value).decode()}
    if isinstance(value, datetime.datetime):
        return {"date": value.strftime("%Y-%m-%dT%H:%M:%SZ")}
    if isinstance(value, plistlib.UID):
        return {"uid": value.data}
    raise TypeError(value)


def plist_cases():
    import datetime
    import plistlib
    cases = []
    sample = {
        "name": "Ada", "id": 7, "negative": -42, "big": 2 ** 63 + 5, "ratio": 0.5, "pi": 3.141592653589793,
        "active": True, "archived": False, "tags": ["math", "engines"],
        "born": datetime.datetime(1815, 12, 10, 12, 0, 0), "blob": b"\x00\x01binary\xff",
        "nested": {"level": {"deeper": [1, [2, [3]]]}}, "unicode": "Grüße ✓ 日本",
    }

    def ok(name, description, content_type, body, value, **extra):
        headers = [("Content-Type", content_type)] if content_type is not None else []
        exp = {"description": description, **extra, "expect": {"serializer": "propertyList",
                                                                "value": plist_canonical(value)}}
        cases.append((name, http(200, "OK", headers, body), exp))

    xml = plistlib.dumps(sample, fmt=plistlib.FMT_XML)
    binary = plistlib.dumps(sample, fmt=plistlib.FMT_BINARY)
    ok("xml", "An XML property list (application/x-plist, AFNetworking's type).", "application/x-plist", xml, sample)
    ok("binary", "A binary property list.", "application/x-plist", binary, sample)
    ok("x-bplist", "application/x-bplist is accepted.", "application/x-bplist", binary, sample)
    ok("application-plist", "application/plist is accepted.", "application/plist", xml, sample)
    ok("uppercase-type", "Media types are case-insensitive.", "Application/X-Plist; Charset=UTF-8", xml, sample)
    ok("utf16-xml", "An XML plist in UTF-16 with a BOM.", "application/x-plist",
       xml.decode().replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16"), sample)
    for kind, value in [("array-root", [1, "two", 3.0, False]), ("string-root", "just a string"),
                        ("integer-root", 12345678901234), ("empty-dict", {}), ("empty-array", []),
                        ("real-values", [0.1, -2.5e-10, 1e300, 2.0]),
                        ("dates", [datetime.datetime(2001, 1, 1, 0, 0, 0), datetime.datetime(2038, 1, 19, 3, 14, 8)]),
                        ("data-values", [b"", b"\x00" * 40, bytes(range(256))]),
                        ("negative-integers", [-1, -(2 ** 63), 2 ** 64 - 1])]:
        ok(kind + "-xml", f"{kind} as XML.", "application/x-plist", plistlib.dumps(value, fmt=plistlib.FMT_XML), value)
        ok(kind + "-binary", f"{kind} as binary.", "application/x-plist",
           plistlib.dumps(value, fmt=plistlib.FMT_BINARY), value)
    uid_value = {"$objects": ["$null", {"$class": plistlib.UID(2)}], "$top": {"root": plistlib.UID(1)}}
    ok("keyed-archive-uid", "UIDs of an NSKeyedArchiver plist.", "application/x-plist",
       plistlib.dumps(uid_value, fmt=plistlib.FMT_BINARY), uid_value)
    ok("sniff-octet-stream", "A bplist00 body labelled application/octet-stream is sniffed.",
       "application/octet-stream", binary, sample, sniffing="sniffWhenGeneric")
    ok("sniff-missing", "An XML plist without Content-Type is sniffed.", None, xml, sample,
       sniffing="sniffWhenMissing")
    cases.append(("no-content-204", http(204, "No Content", [], b""),
                  {"description": "204: property lists have no empty value.", "serializer": "propertyList",
                   "expect": error("emptyBody")}))
    problem = {"error": "not_found", "code": 404}
    cases.append(("404-plist-error", http(404, "Not Found", [("Content-Type", "application/x-plist")],
                                          plistlib.dumps(problem, fmt=plistlib.FMT_XML)),
                  {"description": "A 404 keeps its decoded plist error document.",
                   "expect": error("unacceptableStatusCode", status=404, errorValue=plist_canonical(problem))}))
    for name, body, description in [
        ("truncated-binary", binary[: len(binary) // 2], "A truncated binary plist is invalid."),
        ("bad-xml", b"<?xml version=\"1.0\"?><plist><dict><key>a</key></plist>", "Mismatched XML is invalid."),
        ("not-a-plist", b"{ \"a\" = (1, 2", "Text that is no plist (an unclosed OpenStep dictionary) is invalid."),
    ]:
        cases.append((name, http(200, "OK", [("Content-Type", "application/x-plist")], body),
                      {"description": description, "serializer": "propertyList", "perturb": False,
                       "expect": error("invalidBody")}))
    deep = [[[[[["deep"]]]]]]
    cases.append(("max-depth-option", http(200, "OK", [("Content-Type", "application/x-plist")],
                                           plistlib.dumps(deep, fmt=plistlib.FMT_BINARY)),
                  {"description": "The maxDepth option bounds nesting.", "serializer": "propertyList",
                   "options": {"maxDepth": 3}, "expect": error("limitExceeded")}))
    entity = (b'<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
              b"<plist><string>&b;</string></plist>")
    cases.append(("entity-declarations", http(200, "OK", [("Content-Type", "application/x-plist")], entity),
                  {"description": "Entity declarations (billion laughs) are refused, never expanded.",
                   "serializer": "propertyList", "expect": error("unsupportedFeature")}))
    return cases


# ---------------------------------------------------------------- Images

def image_round_trip(name, raw, expectation):
    """Opts an image fixture out of the round trip where it cannot hold: the image format writes only image/png, so
    a value decoded from another format is written back as PNG, and its canonical form, which names the format, cannot
    come back the same; and an image read without its pixels (inflate off) cannot be written at all. A PNG served
    under another type is written as image/png and read back like any PNG."""
    value = expectation.get("expect", {}).get("value")
    if value is None:
        return name, raw, expectation
    if expectation.get("options", {}).get("inflate") is False:
        reason = (" Read without its pixels, the image cannot be written (encodingFailed), so there is no round "
                  "trip.")
    elif value.get("format") != "png":
        reason = (f" The image format writes only image/png, so the round trip would read back a PNG, and the "
                  f"canonical form names the format ({value.get('format')}): it does not apply; PNGWriterTests write "
                  f"decoded images of every format as PNG and read them back.")
    else:
        return name, raw, expectation
    rest = {k: v for k, v in expectation.items() if k != "description"}
    return name, raw, {"description": expectation["description"] + reason, "roundTrip": False, **rest}


def image_cases():
    """Images drawn and encoded by Pillow; the expected RGBA comes from Pillow decoding the same bytes."""
    import hashlib
    import io
    import struct
    import zlib
    from PIL import Image as PILImage

    cases = []

    def canvas(mode, size=(23, 17)):
        image = PILImage.new(mode, size)
        for y in range(size[1]):
            for x in range(size[0]):
                if mode == "RGBA":
                    image.putpixel((x, y), (x * 11 % 256, y * 15 % 256, (x * y) % 256, (x + y) * 7 % 256))
                elif mode == "RGB":
                    image.putpixel((x, y), (x * 11 % 256, y * 15 % 256, (x * y) % 256))
                elif mode == "L":
                    image.putpixel((x, y), (x * 11 + y * 3) % 256)
                elif mode == "P":
                    image.putpixel((x, y), (x + y) % 16)
        if mode == "P":
            image.putpalette([v for i in range(16) for v in (i * 16, 255 - i * 16, (i * 37) % 256)])
        return image

    def encode(image, fmt, **params):
        buffer = io.BytesIO()
        image.save(buffer, fmt, **params)
        return buffer.getvalue()

    def canonical_rgba(image):
        """RGBA bytes with R, G and B zeroed where A is 0 (their colour carries no meaning)."""
        rgba = bytearray(image.convert("RGBA").tobytes())
        for i in range(0, len(rgba), 4):
            if rgba[i + 3] == 0:
                rgba[i:i + 3] = b"\x00\x00\x00"
        return bytes(rgba)

    def expected(body, fmt, frames=1):
        decoded = PILImage.open(io.BytesIO(body))
        decoded.seek(0)
        rgba = canonical_rgba(decoded)
        return {"format": fmt, "width": decoded.width, "height": decoded.height, "frames": frames,
                "rgbaSHA256": hashlib.sha256(rgba).hexdigest()}

    def ok(name, description, content_type, body, fmt, frames=1, **extra):
        headers = [("Content-Type", content_type)] if content_type else []
        cases.append((name, http(200, "OK", headers, body),
                      {"description": description, **extra,
                       "expect": {"serializer": "image", "value": expected(body, fmt, frames)}}))

    ok("png-rgb", "An 8-bit RGB PNG.", "image/png", encode(canvas("RGB"), "PNG"), "png")
    ok("png-rgba", "An 8-bit RGBA PNG.", "image/png", encode(canvas("RGBA"), "PNG"), "png")
    ok("png-gray", "A grayscale PNG.", "image/png", encode(canvas("L"), "PNG"), "png")
    ok("png-palette", "A palette PNG.", "image/png", encode(canvas("P"), "PNG"), "png")
    ok("png-palette-trns", "A palette PNG with transparency (tRNS).", "image/png",
       encode(canvas("P"), "PNG", transparency=3), "png")
    ok("png-interlaced", "An Adam7-interlaced PNG.", "image/png", encode(canvas("RGBA"), "PNG", interlace=1), "png")
    ok("png-with-parameters", "Parameters on the image type do not matter.", "image/png; name=logo",
       encode(canvas("RGB"), "PNG"), "png")
    ok("png-sniffed", "A PNG labelled application/octet-stream is sniffed.", "application/octet-stream",
       encode(canvas("RGB"), "PNG"), "png", sniffing="sniffWhenGeneric")
    ok("png-mislabelled-gif", "The bytes decide the format: a PNG labelled image/gif decodes as PNG.", "image/gif",
       encode(canvas("RGB"), "PNG"), "png")
    ok("gif", "A GIF.", "image/gif", encode(canvas("P"), "GIF"), "gif")
    ok("png-bilevel", "A 1-bit grayscale PNG.", "image/png", encode(canvas("L").convert("1"), "PNG"), "png")
    ok("png-palette-4bit", "A 4-bit palette PNG.", "image/png", encode(canvas("P"), "PNG", bits=4), "png")
    ok("png-gray-alpha", "A grayscale+alpha PNG.", "image/png", encode(canvas("RGBA").convert("LA"), "PNG"), "png")
    ok("png-large", "A 300x200 RGBA PNG (several IDAT rows and filters).", "image/png",
       encode(canvas("RGBA", (300, 200)), "PNG", optimize=True), "png")
    ok("png-image-jpg-type", "A PNG served as image/jpg (a common mislabel) decodes by its bytes.", "image/jpg",
       encode(canvas("RGB"), "PNG"), "png")
    ok("gif-interlaced", "An interlaced GIF.", "image/gif", encode(canvas("P", (40, 30)), "GIF", interlace=True),
       "gif")
    ok("gif-transparent", "A GIF with a transparent colour index.", "image/gif",
       encode(canvas("P"), "GIF", transparency=2), "gif")
    ok("bmp-1bit", "A 1-bit BMP.", "image/bmp", encode(canvas("L").convert("1"), "BMP"), "bmp")
    ok("bmp-8bit-gray", "An 8-bit grayscale BMP.", "image/x-bmp", encode(canvas("L"), "BMP"), "bmp")
    ok("png-at-2x-url", "An @2x URL does not change pixels or size.", "image/png", encode(canvas("RGB"), "PNG"), "png",
       request={"url": "https://cdn.example.com/icons/logo@2x.png"})
    ok("tiff", "An uncompressed RGB TIFF.", "image/tiff", encode(canvas("RGB"), "TIFF"), "tiff")
    ok("tiff-lzw", "An LZW RGBA TIFF.", "image/tiff", encode(canvas("RGBA"), "TIFF", compression="tiff_lzw"), "tiff")
    ok("tiff-deflate-gray", "A Deflate grayscale TIFF.", "image/tiff",
       encode(canvas("L"), "TIFF", compression="tiff_adobe_deflate"), "tiff")
    ok("tiff-packbits-palette", "A PackBits palette TIFF.", "image/tiff",
       encode(canvas("P"), "TIFF", compression="packbits"), "tiff")
    pages = [canvas("RGB"), canvas("RGB", (12, 9)), canvas("L")]
    ok("tiff-multipage", "A three-page TIFF: every page counts as a frame, the first is the image.", "image/tiff",
       encode(pages[0], "TIFF", save_all=True, append_images=pages[1:]), "tiff", frames=3)
    cases.append(("tiff-ccitt", http(200, "OK", [("Content-Type", "image/tiff")],
                                     encode(canvas("L").convert("1"), "TIFF", compression="group4")),
                  {"description": "CCITT Group 4 fax compression is not decoded: a clear error naming it.",
                   "expect": error("unsupportedFeature")}))
    cases.append(("no-content-204", http(204, "No Content", [], b""),
                  {"description": "204: images have no empty value.", "serializer": "image",
                   "expect": error("emptyBody")}))
    cases.append(("404-html", http(404, "Not Found", [("Content-Type", "text/html")], b"<h1>Not Found</h1>"),
                  {"description": "A 404 HTML page for an image request is a status error, not an image error.",
                   "serializer": "image", "expect": error("unacceptableStatusCode", status=404)}))
    frames = [canvas("P"), canvas("P").transpose(PILImage.FLIP_LEFT_RIGHT), canvas("P").rotate(180)]
    animated = encode(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    ok("gif-animated", "An animated GIF: three frames, the first is the chosen one.", "image/gif", animated, "gif",
       frames=3)
    ok("bmp-24", "A 24-bit BMP.", "image/bmp", encode(canvas("RGB"), "BMP"), "bmp")
    ok("bmp-x-ms-bmp", "image/x-ms-bmp is a BMP type.", "image/x-ms-bmp", encode(canvas("P"), "BMP"), "bmp")
    ico = encode(canvas("RGBA", (32, 32)), "ICO", sizes=[(16, 16), (32, 32)])
    decoded = PILImage.open(io.BytesIO(ico))
    decoded.size = (32, 32)
    cases.append(("ico", http(200, "OK", [("Content-Type", "image/x-icon")], ico),
                  {"description": "An ICO with 16 and 32 pixel entries: the largest is chosen (entries are not animation frames).",
                   "expect": {"serializer": "image", "value": {
                       "format": "ico", "width": 32, "height": 32, "frames": 1,
                       "rgbaSHA256": hashlib.sha256(canonical_rgba(decoded)).hexdigest()}}}))
    ok("jpeg", "A baseline 4:2:0 JPEG: decoded as libjpeg-turbo (Pillow) decodes it.", "image/jpeg",
       encode(canvas("RGB"), "JPEG", quality=90), "jpeg")
    ok("jpeg-progressive", "A progressive 4:4:4 JPEG.", "image/jpeg",
       encode(canvas("RGB"), "JPEG", quality=90, subsampling=0, progressive=True), "jpeg")
    # A lossless (SOF3) frame header: recognised, and refused with a clear error, never a wrong image.
    lossless = bytes([0xFF, 0xD8, 0xFF, 0xC3, 0, 11, 8, 0, 8, 0, 8, 1, 1, 0x11, 0, 0xFF, 0xD9])
    cases.append(("jpeg-lossless", http(200, "OK", [("Content-Type", "image/jpeg")], lossless),
                  {"description": "Lossless JPEG (SOF3) is not supported: a clear error, never a wrong image.",
                   "expect": error("unsupportedFeature")}))
    png = encode(canvas("RGB"), "PNG")
    cases.append(("png-truncated", http(200, "OK", [("Content-Type", "image/png")], png[: len(png) // 2]),
                  {"description": "A PNG cut in half is an error.", "serializer": "image", "perturb": False,
                   "expect": error("truncatedBody")}))
    header = b"\x89PNG\r\n\x1a\n"
    ihdr = struct.pack(">IIBBBBB", 100000, 100000, 8, 6, 0, 0, 0)
    huge = header + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    cases.append(("png-too-many-pixels", http(200, "OK", [("Content-Type", "image/png")], huge),
                  {"description": "A header claiming 100000x100000 fails before any allocation.",
                   "serializer": "image", "expect": error("limitExceeded")}))
    cases.append(("png-max-pixels-option", http(200, "OK", [("Content-Type", "image/png")], png),
                  {"description": "The maxPixels option is checked against the header.", "serializer": "image",
                   "options": {"maxPixels": 100}, "expect": error("limitExceeded")}))
    lazy = expected(png, "png")
    lazy["rgbaSHA256"] = None
    cases.append(("png-no-inflate", http(200, "OK", [("Content-Type", "image/png")], png),
                  {"description": "With inflate off, size and format come without pixels.", "serializer": "image",
                   "options": {"inflate": False}, "expect": {"serializer": "image", "value": lazy}}))
    return [image_round_trip(*case) for case in cases]


# ---------------------------------------------------------------- Configured chains

API_CONFIG = {
    "version": 1,
    "aliases": [{"mediaType": "text/html", "treatAs": "application/json", "host": "legacy.example.com"}],
    "chains": [
        {
            "name": "api",
            "serializers": [{"id": "json", "options": {"maxDepth": 64}}, "string"],
            "acceptableStatusCodes": ["200-299"],
            "emptyBody": {"outcome": "emptyValue", "treatsWhitespaceAsEmpty": True},
            "defaultCharset": "windows-1252",
            "sniffing": "sniffWhenGeneric",
            "limits": {"maxBodyBytes": 1048576},
            "preprocessors": ["xssiPrefix"],
            "errorBody": "sameSerializers",
        },
        {
            "name": "strict",
            "serializers": ["json"],
            "emptyBody": "error",
            "errorBody": "none",
            "limits": {"maxBodyBytes": 64},
        },
    ],
}


def configured_cases():
    cases = []

    def case(name, raw, description, chain, expect, **extra):
        cases.append((name, raw, {"description": description, "config": "../chains/api.json", "chain": chain,
                                  **extra, "expect": expect}))

    payload = {"user": {"id": 1, "roles": ["admin"]}}
    case("xssi-prefix", http(200, "OK", [("Content-Type", "application/json")],
                             b")]}',\n" + json.dumps(payload).encode()),
         "The api chain strips an XSSI prefix before parsing.", "api", value("json", payload))
    case("alias-for-legacy-host", http(200, "OK", [("Content-Type", "text/html; charset=utf-8")], b'{"legacy": true}'),
         "text/html from legacy.example.com is treated as JSON.", "api", value("json", {"legacy": True}),
         request={"url": "https://legacy.example.com/v1/items"})
    case("no-alias-for-other-hosts", http(200, "OK", [("Content-Type", "text/html; charset=utf-8")],
                                          b'{"legacy": true}'),
         "The alias is scoped to its host: elsewhere text/html is text.", "api",
         value("string", {"text": '{"legacy": true}', "encoding": "UTF-8"}),
         request={"url": "https://www.example.com/v1/items"})
    case("default-charset", http(200, "OK", [("Content-Type", "text/plain")], b"\x93smart quotes\x94"),
         "The chain's defaultCharset applies to text without a charset.", "api",
         value("string", {"text": b"\x93smart quotes\x94".decode("cp1252"), "encoding": "windows-1252"}))
    case("sniffed-octet-stream", http(200, "OK", [("Content-Type", "application/octet-stream")], b'[1, 2]'),
         "The api chain sniffs generic types.", "api", value("json", [1, 2]))
    problem = {"title": "Invalid input", "status": 422, "errors": [{"field": "email"}]}
    case("422-problem", http(422, "Unprocessable Entity", [("Content-Type", "application/problem+json")],
                             json.dumps(problem).encode()),
         "An error document is decoded into the status error.", "api",
         error("unacceptableStatusCode", status=422, errorValue=problem))
    case("depth-option", http(200, "OK", [("Content-Type", "application/json")], b"[" * 65 + b"]" * 65),
         "The api chain's json maxDepth of 64 applies.", "api", error("limitExceeded"))
    case("strict-empty", http(200, "OK", [("Content-Type", "application/json")], b""),
         "The strict chain makes an empty 200 an error.", "strict", error("emptyBody"))
    case("strict-size-limit", http(200, "OK", [("Content-Type", "application/json")],
                                   json.dumps({"padding": "x" * 100}).encode()),
         "The strict chain's 64-byte limit comes before parsing.", "strict", error("bodyTooLarge"))
    case("strict-error-body-raw", http(500, "Internal Server Error", [("Content-Type", "application/json")],
                                       b'{"message": "boom"}'),
         "With errorBody none, the error body is not decoded.", "strict",
         error("unacceptableStatusCode", status=500, attempts=[]))
    return cases


# ---------------------------------------------------------------- XML

def xml_c14n(body, drop_entity_references=False):
    """Canonical XML 1.0 without comments (the form `XMLTree` promises), computed by lxml (libxml2).

    The parser adds the internal subset's default attributes (C14N's data model has them) and never loads anything
    external. With `drop_entity_references`, references to entities that are not expanded (external ones) are removed
    from the tree first, which is what a non-validating processor that does not read them reports (XML 1.0 §4.4.3).
    """
    import re
    from lxml import etree
    # libxml2 loads an external DTD subset to apply defaults; a DOCTYPE with an external id gets none (never fetched).
    external_subset = re.search(rb"<!DOCTYPE\s+\S+\s+(SYSTEM|PUBLIC)", body) is not None
    parser = etree.XMLParser(resolve_entities=not drop_entity_references, no_network=True, load_dtd=False,
                             attribute_defaults=not external_subset, remove_comments=False, huge_tree=False)
    root = etree.fromstring(body, parser)
    if drop_entity_references:
        for node in list(root.iter(etree.Entity)):
            parent = node.getparent()
            tail = node.tail or ""
            previous = node.getprevious()
            if previous is not None:
                previous.tail = (previous.tail or "") + tail
            else:
                parent.text = (parent.text or "") + tail
            parent.remove(node)
    return etree.tostring(root.getroottree(), method="c14n", with_comments=False).decode("utf-8")


def xml_cases():
    """XML bodies; expected values are lxml's Canonical XML 1.0 (see `xml_c14n`)."""
    cases = []

    def ok(name, description, content_type, body, parse_as=None, serializer="xmlDocument", **extra):
        headers = [("Content-Type", content_type)] if content_type is not None else []
        expected = {"c14n": xml_c14n(parse_as if parse_as is not None else body)}
        exp = {"description": description, **extra, "expect": {"serializer": serializer, "value": expected}}
        if serializer != "xmlDocument":
            exp["serializer"] = serializer  # not the one the registry resolves: name it
        cases.append((name, http(200, "OK", headers, body), exp))

    def fails(name, description, content_type, body, code, perturb=False, **extra):
        headers = [("Content-Type", content_type)] if content_type is not None else []
        exp = {"description": description, "serializer": "xmlDocument", **extra, "expect": error(code)}
        if not perturb:
            exp["perturb"] = False
        cases.append((name, http(200, "OK", headers, body), exp))

    note = (b'<?xml version="1.0" encoding="UTF-8"?>\n<note id="7" lang="en">\n  <to>Ada</to>\n'
            b'  <from>Charles</from>\n  <body>Engines &amp; numbers &lt;3</body>\n</note>\n')
    ok("application-xml", "application/xml.", "application/xml", note)
    ok("text-xml", "text/xml (AFNetworking's type).", "text/xml", note)
    ok("uppercase-type", "Media types are case-insensitive.", "Application/XML; Charset=UTF-8", note)
    atom = (b'<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
            b'  <title>Example Feed</title>\n  <link href="http://example.org/"/>\n'
            b'  <entry><title>Atom-Powered Robots Run Amok</title><id>urn:uuid:1225c695</id>'
            b'<updated>2003-12-13T18:30:02Z</updated></entry>\n</feed>\n')
    ok("atom-suffix", "application/atom+xml is XML by its +xml suffix.", "application/atom+xml", atom)
    rss = (b'<?xml version="1.0"?>\n<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\n<channel>'
           b'<title>News</title><item><title>One</title><dc:creator>Ada</dc:creator>'
           b'<description><![CDATA[<p>Hello & welcome</p>]]></description></item></channel>\n</rss>\n')
    ok("rss-cdata", "An RSS feed (application/rss+xml) with a CDATA section and a prefixed element.",
       "application/rss+xml", rss)
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" '
           b'height="10"><use xlink:href="#a" y="2" x="1"/></svg>')
    ok("svg-suffix", "image/svg+xml goes to XML, not the image decoder.", "image/svg+xml", svg)
    soap = (b'<?xml version="1.0"?>\n<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" '
            b'xmlns:m="urn:example:m"><soap:Body><m:GetPriceResponse><m:Price>1.90</m:Price>'
            b'</m:GetPriceResponse></soap:Body></soap:Envelope>')
    ok("soap-namespaces", "A SOAP 1.2 envelope (application/soap+xml) with prefixed namespaces.",
       "application/soap+xml; charset=utf-8", soap)
    namespaces = (b'<a xmlns="urn:a" xmlns:p="urn:p"><p:b xmlns:p="urn:p" xmlns:q="urn:q" q:z="1" b="2" '
                  b'p:a="3"><c xmlns=""><d xmlns="urn:a"/></c></p:b></a>')
    ok("namespace-declarations", "Superfluous namespace declarations vanish; attributes sort by namespace URI.",
       "application/xml", namespaces)
    attributes = b'<r b="2" a="1" c=" spaced\tand\nbroken " d="&lt;&amp;&quot;&#x9;"/>'
    ok("attribute-normalization", "Attribute values are normalized (tabs and newlines become spaces) and escaped.",
       "application/xml", attributes)
    entities = (b'<!DOCTYPE doc [\n<!ENTITY company "Analytical &amp; Co">\n<!ENTITY sig "<b>&company;</b>">\n]>\n'
                b'<doc>Made by &company;. &sig; &#169; &#x1F600;</doc>')
    ok("internal-entities", "Internal entities (also nested, also holding markup) and character references expand.",
       "application/xml", entities)
    defaults = (b'<!DOCTYPE list [\n<!ATTLIST item kind CDATA "plain" code NMTOKEN #IMPLIED>\n]>\n'
                b'<list><item code="  a1  ">x</item><item kind="special">y</item></list>')
    ok("attribute-defaults", "The internal subset's default attributes appear; NMTOKEN values are trimmed.",
       "application/xml", defaults)
    misc = (b'<?xml version="1.0"?>\n<!-- before -->\n<?style href="a.css"?>\n<root>text<!-- inside -->more'
            b'<?pi inside?></root>\n<!-- after -->\n<?trailer?>\n')
    ok("comments-and-pis", "Comments are dropped by the canonical form; processing instructions stay.",
       "application/xml", misc)
    whitespace = b'<root>\r\n  <a>  spaced  </a>\r\n\t<b>\r</b>\n</root>'
    ok("line-ends-and-whitespace", "CR LF and CR become LF; whitespace text is kept.", "application/xml", whitespace)
    unicode_text = '<?xml version="1.0" encoding="UTF-8"?><p lang="ja">日本語 Grüße ✓ 😀</p>'.encode("utf-8")
    ok("utf8-text", "UTF-8 text beyond ASCII, astral characters included.", "application/xml", unicode_text)
    ok("utf8-bom", "A UTF-8 byte order mark is skipped.", "application/xml", b"\xef\xbb\xbf" + note)
    utf16 = '<?xml version="1.0" encoding="UTF-16"?><p>Grüße ✓</p>'
    ok("utf16-bom", "UTF-16 with a byte order mark.", "application/xml", utf16.encode("utf-16"),
       parse_as=utf16.replace("UTF-16", "UTF-8").encode("utf-8"))
    latin = '<?xml version="1.0" encoding="ISO-8859-1"?><p>café déjà</p>'
    ok("latin1-declaration", "The XML declaration names the encoding.", "application/xml", latin.encode("latin-1"))
    sjis = '<?xml version="1.0" encoding="Shift_JIS"?><p>日本語のテキスト</p>'
    ok("shift-jis-declaration", "Shift_JIS named by the XML declaration.", "application/xml", sjis.encode("shift_jis"),
       parse_as=sjis.replace("Shift_JIS", "UTF-8").encode("utf-8"))
    cp1252 = "<p>“quoted” – €5</p>"
    ok("charset-parameter", "Without a declared encoding, the charset parameter decides (RFC 7303).",
       "text/xml; charset=windows-1252", cp1252.encode("cp1252"), parse_as=cp1252.encode("utf-8"))
    external = (b'<?xml version="1.0"?>\n<!DOCTYPE doc [\n<!ENTITY secret SYSTEM "file:///etc/passwd">\n]>\n'
                b'<doc>before &secret; after</doc>')
    ok("external-entity-not-read", "An external entity in content is never read (no file, no network): it is "
       "skipped.", "application/xml", external, parse_as=None)
    cases[-1][2]["expect"]["value"] = {"c14n": xml_c14n(external, drop_entity_references=True)}
    public_dtd = (b'<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
                  b'"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
                  b'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Hi</p></body></html>')
    ok("external-dtd-not-fetched", "A DOCTYPE naming an external DTD parses without fetching it.",
       "application/xhtml+xml", public_dtd)
    ok("sniff-octet-stream", "An XML body labelled application/octet-stream is sniffed.",
       "application/octet-stream", note, sniffing="sniffWhenGeneric")
    ok("sniff-missing", "An XML body without Content-Type is sniffed.", None, note, sniffing="sniffWhenMissing")
    ok("xml-parser-serializer", "The xmlParser serializer (SAX) reads the same document.", "application/xml", soap,
       serializer="xmlParser")

    problem = b'<?xml version="1.0"?><error><code>404</code><message>No such user</message></error>'
    cases.append(("404-xml-error", http(404, "Not Found", [("Content-Type", "application/xml")], problem),
                  {"description": "A 404 keeps its decoded XML error document.",
                   "expect": error("unacceptableStatusCode", status=404, errorValue={"c14n": xml_c14n(problem)})}))
    cases.append(("no-content-204", http(204, "No Content", [], b""),
                  {"description": "204: an XML document has no empty value.", "serializer": "xmlDocument",
                   "expect": error("emptyBody")}))
    fails("mismatched-tags", "Mismatched tags are not well-formed.", "application/xml", b"<a><b></a></b>",
          "invalidBody")
    fails("two-roots", "Two root elements are not well-formed.", "application/xml", b"<a/><b/>", "invalidBody")
    fails("truncated", "A truncated document is not well-formed.", "application/xml", note[: len(note) // 2],
          "invalidBody")
    fails("undeclared-prefix", "A prefix bound to no namespace is an error.", "application/xml",
          b"<p:a>text</p:a>", "invalidBody")
    fails("external-entity-in-attribute", "A reference to an external entity in an attribute value is not "
          "well-formed (never read).", "application/xml",
          b'<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a v="&x;"/>', "invalidBody")
    fails("invalid-utf8", "Bytes that are not UTF-8 in a UTF-8 document are an encoding error.", "application/xml",
          b"<a>\xff\xfe</a>", "invalidEncoding")
    laughs = b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n'
    previous = "lol"
    for level in range(1, 10):
        laughs += f'<!ENTITY lol{level} "{("&" + previous + ";") * 10}">\n'.encode()
        previous = f"lol{level}"
    laughs += b"]>\n<lolz>&lol9;</lolz>"
    fails("billion-laughs", "Billion laughs: entity expansion is bounded.", "application/xml", laughs,
          "limitExceeded")
    blowup = (b'<!DOCTYPE a [<!ENTITY x "' + b"x" * 20000 + b'">]><a>' + b"&x;" * 20000 + b"</a>")
    fails("quadratic-blowup", "Quadratic blowup: a large entity referenced many times is bounded.",
          "application/xml", blowup, "limitExceeded")
    deep = b"<a>" * 40 + b"</a>" * 40
    fails("max-depth-option", "The maxDepth option bounds nesting.", "application/xml", deep, "limitExceeded",
          options={"maxDepth": 16})
    return cases


def main():
    folder = os.path.join(ROOT, "chains")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "api.json"), "w", encoding="utf-8") as f:
        json.dump(API_CONFIG, f, indent=2)
        f.write("\n")
    for area, cases in [("json", json_cases()), ("string", string_cases()), ("propertyList", plist_cases()),
                        ("image", image_cases()), ("xmlDocument", xml_cases()),
                        ("configured", configured_cases())]:
        folder = os.path.join(ROOT, area)
        if os.path.isdir(folder):
            shutil.rmtree(folder)
        for name, raw, expectation in cases:
            write(area, name, raw, expectation)
        print(f"{area}: {len(cases)} fixtures")


if __name__ == "__main__":
    main()
