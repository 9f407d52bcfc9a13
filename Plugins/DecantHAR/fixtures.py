#!/usr/bin/env python3
"""Writes the HAR test files of the `har` serializer (DecantHAR) and what they must read as.

The HAR files are written as browsers' developer tools export them (HAR 1.2: `log` with `version`, `creator`,
`pages` and `entries`; Chrome's `_initiator`, `_resourceType`, `cache`, `timings`), with Python's `json` module. The
expected records are computed here, independently of Decant, in the canonical form of `ArchivedResponse` (see
Plugins/DecantHAR/README.md): each entry's byte offset (counted while the file is joined from `json.dumps` pieces),
`request.url`, `response.status`, the header fields after the plugin's rules (Content-Encoding removed,
Content-Length set to the body's size, a charset of a text body rewritten to utf-8), the body bytes (Python's
`base64` for base64 text, `str.encode("utf-8")` otherwise) and the truncation that `content.size` implies.

Outputs (deterministic; run from anywhere: `python3 Plugins/DecantHAR/fixtures.py`):
- Plugins/DecantHAR/cases/*.har and cases/expectations.json (`{file: [record, ...]}`), read by the tests in chunks;
- Fixtures/har/*.http and *.expect.json, conformance fixtures run by the tests and by `decant conformance Fixtures`.
"""
import base64
import json
import os
import re
import shutil
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")
FIXTURES = os.path.join(HERE, "..", "..", "Fixtures", "har")
sys.path.insert(0, os.path.join(HERE, "..", "..", "Fixtures"))
sys.dont_write_bytecode = True  # no __pycache__ in Fixtures/
import generate as fixture_files  # noqa: E402
from generate import http  # noqa: E402

HAR = "application/har+json"
TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"


def png_1x1():
    """A 1x1 red PNG, built with zlib and struct."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00"))
            + chunk(b"IEND", b""))


def utf8_charset(value):
    """A Content-Type with its charset parameter set to utf-8, serialized as WHATWG MIME types are."""
    parts = [part.strip() for part in value.split(";")]
    essence = parts[0].lower()
    params = []
    for part in parts[1:]:
        if "=" not in part:
            continue
        name, val = part.split("=", 1)
        name = name.strip().lower()
        if any(existing == name for existing, _ in params):
            continue
        params.append((name, "utf-8" if name == "charset" else val))
    return essence + "".join(f";{n}={v}" for n, v in params)


def has_charset(value):
    return any(p.strip().lower().startswith("charset=") for p in value.split(";")[1:])


def expected(entry, index, offset):
    """The canonical record of one entry: the rules of HARResponseSerializer, computed here."""
    record = {"index": index, "targetURI": None, "offset": offset}
    if not isinstance(entry, dict):
        record.update({"error": "malformedMessage", "truncation": None})
        return record
    request = entry.get("request")
    if isinstance(request, dict) and isinstance(request.get("url"), str):
        record["targetURI"] = request["url"]
    response = entry.get("response")
    if not isinstance(response, dict) or not isinstance(response.get("status"), int):
        record.update({"error": "malformedMessage", "truncation": None})
        return record
    content = response.get("content") or {}
    text = content.get("text")
    is_base64 = content.get("encoding") == "base64"
    body = b"" if text is None else (base64.b64decode(text, validate=True) if is_base64 else text.encode("utf-8"))
    headers = []
    saw_type = False
    for header in response.get("headers", []):
        name, value = header["name"], header["value"]
        lower = name.lower()
        if lower == "content-encoding":
            continue
        if lower == "content-length":
            value = str(len(body))
        elif lower == "content-type":
            saw_type = True
            if not is_base64 and has_charset(value):
                value = utf8_charset(value)
        headers.append([name, value])
    mime = content.get("mimeType")
    if not saw_type and isinstance(mime, str) and re.match(TOKEN + "/" + TOKEN, mime):
        headers.append(["Content-Type", utf8_charset(mime) if not is_base64 and has_charset(mime) else mime])
    size = content.get("size")
    truncation = None
    if isinstance(size, (int, float)) and size == int(size) and size > 0 and (text is None or len(body) < size):
        truncation = {"reason": "length", "keptBytes": len(body), "statedBytes": int(size)}
    record.update({"status": response["status"], "headers": headers,
                   "body_base64": base64.b64encode(body).decode("ascii"), "truncation": truncation})
    return record


def har_file(entries, pages=None, indent=2, log_first=None, extra_top=None):
    """The HAR text, joined from json.dumps pieces, and the byte offset of every entry."""
    pad = " " * indent if indent else ""
    nl = "\n" if indent else ""
    log_members = log_first or [
        ("version", "1.2"),
        ("creator", {"name": "WebInspector", "version": "537.36"}),
        ("pages", pages or []),
    ]
    out = bytearray()
    offsets = []
    out += ("{" + nl).encode()
    for key, value in (extra_top or []):
        out += f'{pad}{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},{nl}'.encode()
    out += f'{pad}"log": {{{nl}'.encode()
    for key, value in log_members:
        text = json.dumps(value, indent=indent, ensure_ascii=False).replace("\n", "\n" + pad * 2)
        out += f"{pad * 2}{json.dumps(key)}: {text},{nl}".encode()
    out += f'{pad * 2}"entries": [{nl}'.encode()
    for number, entry in enumerate(entries):
        out += (pad * 3).encode()
        offsets.append(len(out))
        out += json.dumps(entry, indent=indent, ensure_ascii=False).replace("\n", "\n" + pad * 3).encode("utf-8")
        out += ("," if number + 1 < len(entries) else "").encode() + nl.encode()
    out += f"{pad * 2}]{nl}{pad}}}{nl}}}{nl}".encode()
    json.loads(out.decode("utf-8"))  # the file is JSON
    return bytes(out), offsets


def timings():
    return {"blocked": 1.2, "dns": -1, "ssl": -1, "connect": -1, "send": 0.1, "wait": 30.5, "receive": 2.0,
            "_blocked_queueing": 0.8}


def entry(url, status, status_text, headers, content, method="GET", resource="document", extra=None):
    value = {
        "_initiator": {"type": "parser", "url": "https://example.com/", "lineNumber": 12},
        "_priority": "High",
        "_resourceType": resource,
        "cache": {},
        "connection": "443",
        "pageref": "page_1",
        "request": {"method": method, "url": url, "httpVersion": "http/2.0",
                    "headers": [{"name": ":authority", "value": "example.com"}], "queryString": [], "cookies": [],
                    "headersSize": -1, "bodySize": 0},
        "response": {"status": status, "statusText": status_text, "httpVersion": "http/2.0",
                     "headers": [{"name": n, "value": v} for n, v in headers], "cookies": [], "content": content,
                     "redirectURL": "", "headersSize": -1, "bodySize": -1, "_transferSize": 812, "_error": None},
        "serverIPAddress": "93.184.216.34",
        "startedDateTime": "2024-05-01T10:00:00.000Z",
        "time": 33.8,
        "timings": timings(),
    }
    value.update(extra or {})
    return value


def chrome_entries():
    html = "<!doctype html><title>Café 東京</title><p>Hello, world.</p>\n"
    png = png_1x1()
    data = {"id": 7, "name": "Zoë", "tags": ["a", "b"], "ratio": 0.25}
    json_text = json.dumps(data)
    latin = "café crème brûlée, 10 £\n"
    return [
        entry("https://example.com/", 200, "", [("content-type", "text/html; charset=utf-8"),
                                               ("content-encoding", "br"), ("content-length", "41"),
                                               ("cache-control", "max-age=60")],
              {"size": len(html.encode("utf-8")), "mimeType": "text/html", "compression": 20, "text": html}),
        entry("https://example.com/logo.png", 200, "", [("content-type", "image/png"),
                                                       ("content-length", str(len(png)))],
              {"size": len(png), "mimeType": "image/png", "text": base64.b64encode(png).decode("ascii"),
               "encoding": "base64"}, resource="image"),
        entry("https://api.example.com/items/7?full=1", 200, "OK", [("Content-Type", "application/json"),
                                                                   ("Content-Encoding", "gzip"),
                                                                   ("Vary", "Accept-Encoding")],
              {"size": len(json_text), "mimeType": "application/json", "text": json_text}, resource="fetch",
              extra={"_fromCache": "disk"}),
        entry("https://example.com/legacy.txt", 200, "OK", [("Content-Type", "text/plain; charset=ISO-8859-1"),
                                                           ("Content-Length", str(len(latin.encode("latin-1"))))],
              {"size": len(latin.encode("latin-1")), "mimeType": "text/plain", "text": latin},
              resource="other"),
        entry("https://fonts.example.com/font.woff2", 200, "", [("content-type", "font/woff2"),
                                                               ("content-length", "18232")],
              {"size": 18232, "mimeType": "font/woff2", "comment": "content omitted by the export"},
              resource="font"),
        entry("https://example.com/beacon", 204, "No Content", [("server", "example")],
              {"size": 0, "mimeType": "x-unknown"}, method="POST", resource="ping"),
        entry("https://example.com/style.css", 200, "OK", [("Cache-Control", "no-cache")],
              {"size": 22, "mimeType": "text/css; charset=windows-1252", "text": "body { color: red; }\n"},
              resource="stylesheet"),
        entry("https://example.com/cut.js", 200, "OK", [("Content-Type", "text/javascript"),
                                                       ("Content-Length", "100")],
              {"size": 100, "mimeType": "text/javascript", "text": "console.log('cut');"}, resource="script"),
    ]


def write_case(name, body, records, cases):
    with open(os.path.join(CASES, name), "wb") as f:
        f.write(body)
    cases[name] = records


def fixture(name, description, body, expectation):
    fixture_files.write("har", name, http(200, "OK", [("Content-Type", HAR)], body),
                        {"description": description, "expect": expectation})


def main():
    for folder in (CASES, FIXTURES):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    cases = {}
    pages = [{"startedDateTime": "2024-05-01T10:00:00.000Z", "id": "page_1", "title": "https://example.com/",
              "pageTimings": {"onContentLoad": 120.5, "onLoad": 300.2}}]

    entries = chrome_entries()
    body, offsets = har_file(entries, pages)
    chrome = [expected(e, i, o) for i, (e, o) in enumerate(zip(entries, offsets))]
    write_case("chrome.har", body, chrome, cases)
    fixture("chrome-export", "A Chrome-like export: pages, _initiator, timings, a base64 PNG, a JSON body, an "
            "ISO-8859-1 text body (charset rewritten to utf-8), an omitted body (truncated), a 204 and a cut body.",
            body, {"serializer": "har", "value": chrome})

    compact, offsets = har_file(entries[:3], pages, indent=0)
    write_case("compact.har", compact, [expected(e, i, o) for i, (e, o) in enumerate(zip(entries[:3], offsets))],
               cases)

    # Member order: `entries` before the other log members, `log` after other top-level members, a BOM.
    reordered, offsets = har_file(entries[2:4], log_first=[("creator", {"name": "Firefox", "version": "125.0"})],
                                  extra_top=[("comment", "top-level members first: \"log\" comes later"),
                                             ("_meta", {"log": [1, {"entries": 2}]})])
    reordered = b"\xef\xbb\xbf" + reordered
    write_case("reordered.har", reordered,
               [expected(e, i, o + 3) for i, (e, o) in enumerate(zip(entries[2:4], offsets))], cases)

    # Escaped member names (\u006cog is "log") and an empty entries array after a full one elsewhere.
    escaped = reordered.replace(b'"log":', b'"\\u006cog":').replace(b'"entries": [', b'"ent\\u0072ies": [')
    shift = len(escaped) - len(reordered)
    write_case("escaped-names.har", escaped,
               [expected(e, i, o + 3 + shift) for i, (e, o) in enumerate(zip(entries[2:4], offsets))], cases)

    broken = [{}, "not an entry", {"request": {"method": "GET", "url": "https://example.com/x"},
                                   "response": {"statusText": "OK", "headers": [], "content": {"size": 0}}},
              entries[2], [1, 2], None]
    body, offsets = har_file(broken, pages)
    malformed = [expected(e, i, o) for i, (e, o) in enumerate(zip(broken, offsets))]
    write_case("malformed-entries.har", body, malformed, cases)
    fixture("malformed-entries", "Entries that are not objects or lack response.status are records whose response "
            "is a malformedMessage failure; the good entry among them is read.", body,
            {"serializer": "har", "value": malformed})

    body, _ = har_file([], pages)
    fixture("no-entries", "An empty log.entries array: no records.", body, {"serializer": "har", "value": []})
    fixture("not-a-har", "A JSON object without a log member is not a HAR file.",
            json.dumps({"version": "1.2", "entries": []}).encode(), {"error": {"code": "invalidBody"}})
    fixture("log-without-entries", "A log object without an entries array is not a HAR file.",
            json.dumps({"log": {"version": "1.2", "pages": []}}).encode(), {"error": {"code": "invalidBody"}})
    chrome_body = open(os.path.join(CASES, "chrome.har"), "rb").read()
    fixture("cut-mid-entry", "A file cut in the middle of an entry ends with truncatedBody.",
            chrome_body[:len(chrome_body) * 2 // 3], {"error": {"code": "truncatedBody"}})

    with open(os.path.join(CASES, "expectations.json"), "w", encoding="utf-8") as f:
        json.dump(cases, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
