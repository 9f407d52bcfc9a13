#!/usr/bin/env python3
"""Writes the archives `decant archive` is tested on, and what independent readers find in them.

- mixed.warc and mixed.warc.gz: written by warcio (pip install warcio), WARC/1.1, the second with every record a gzip
  member; a warcinfo record, then request and response records (and a metadata record) for eight exchanges.
- page.har: a HAR 1.2 log as browsers' developer tools export it (Python's json module), for five exchanges.
- expected.json: for each archive, each response in order, as warcio's ArchiveIterator reads it back (WARC) or as the
  HAR 1.2 specification defines it: url, status, whether Decant's standard registry decodes it (a 2xx response whose
  body is well formed, per the registry's documented rules), whether it is truncated, and for JSON bodies the value
  Python's json module reads from the payload warcio de-chunks and decompresses.

Run from this folder: python3 archives.py
"""
import base64
import gzip
import io
import json

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

USERS = {"users": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Grace", "tags": ["cobol", "navy"]}]}
ORDERS = {"orders": [{"id": i, "total": i * 2.5} for i in range(40)]}


def chunked(body, size=7):
    out = b""
    for start in range(0, len(body), size):
        piece = body[start:start + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


# (url, status, reason, headers, payload as sent, WARC-Truncated value, expected ok, expected JSON value or None)
USERS_JSON = json.dumps(USERS).encode()
ORDERS_JSON = json.dumps(ORDERS).encode()
TRUNCATED = ORDERS_JSON[:100]
EXCHANGES = [
    ("https://example.com/api/users.json", 200, "OK", [("Content-Type", "application/json")], USERS_JSON, None,
     True, USERS),
    ("https://example.com/greeting", 200, "OK", [("Content-Type", "text/plain; charset=iso-8859-1")],
     "caf\u00e9 cr\u00e8me".encode("iso-8859-1"), None, True, None),
    ("https://example.com/feed.xml", 200, "OK", [("Content-Type", "application/xml")],
     b'<?xml version="1.0"?><feed><entry id="1">one</entry><entry id="2">two</entry></feed>', None, True, None),
    ("https://example.com/api/orders.json", 200, "OK",
     [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], gzip.compress(ORDERS_JSON, mtime=0),
     None, True, ORDERS),
    ("https://example.com/api/chunked.json", 200, "OK",
     [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")], chunked(USERS_JSON), None, True,
     USERS),
    ("https://example.com/missing", 404, "Not Found", [("Content-Type", "application/problem+json")],
     json.dumps({"title": "Not Found", "status": 404}).encode(), None, False, None),
    ("https://example.com/api/cut.json", 200, "OK", [("Content-Type", "application/json")], TRUNCATED, "length",
     False, None),
    ("https://example.com/ping", 204, "No Content", [], b"", None, True, None),
]


def write_warc(path, compress):
    with open(path, "wb") as output:
        writer = WARCWriter(output, gzip=compress, warc_version="1.1")
        writer.write_record(writer.create_warcinfo_record("mixed.warc", {"software": "warcio", "format": "WARC 1.1"}))
        for number, (url, status, reason, headers, payload, truncated, _, _) in enumerate(EXCHANGES):
            request = StatusAndHeaders("GET " + url.split("example.com", 1)[1] + " HTTP/1.1",
                                       [("Host", "example.com"), ("Accept", "*/*")], is_http_request=True)
            writer.write_record(writer.create_warc_record(url, "request", payload=io.BytesIO(b""),
                                                          http_headers=request))
            fields = list(headers)
            if not any(name.lower() == "transfer-encoding" for name, _ in fields):
                stated = len(ORDERS_JSON) if truncated else len(payload)
                fields.append(("Content-Length", str(stated)))
            response = StatusAndHeaders("%d %s" % (status, reason), fields, protocol="HTTP/1.1")
            warc_headers = {"WARC-Truncated": truncated} if truncated else None
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(payload),
                                                          http_headers=response, warc_headers_dict=warc_headers))
            if number == 2:
                writer.write_record(writer.create_warc_record(url, "metadata", payload=io.BytesIO(b"via: test\n"),
                                                              warc_content_type="application/warc-fields"))


def read_warc(path):
    """The responses as warcio reads them back."""
    responses = []
    with open(path, "rb") as stream:
        for record in ArchiveIterator(stream):
            if record.rec_type != "response":
                continue
            url = record.rec_headers.get_header("WARC-Target-URI")
            status = int(record.http_headers.get_statuscode())
            payload = record.content_stream().read()
            expected = next(exchange for exchange in EXCHANGES if exchange[0] == url)
            value = json.loads(payload) if expected[7] is not None else None
            responses.append({
                "index": len(responses), "url": url, "status": status, "ok": expected[6],
                "truncated": record.rec_headers.get_header("WARC-Truncated"), "value": value,
            })
    return responses


def write_har(path):
    png = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
    entries = []
    expected = []

    def entry(url, status, text, mime, encoding=None, size=None, headers=(), ok=True, value=None, truncated=None):
        content = {"size": size if size is not None else len(text or ""), "mimeType": mime}
        if text is not None:
            content["text"] = text
        if encoding:
            content["encoding"] = encoding
        entries.append({
            "pageref": "page_1", "startedDateTime": "2026-12-07T10:00:00.000Z", "time": 12.5,
            "request": {"method": "GET", "url": url, "httpVersion": "HTTP/1.1", "cookies": [],
                        "headers": [{"name": "Accept", "value": "*/*"}], "queryString": [], "headersSize": -1,
                        "bodySize": 0},
            "response": {"status": status, "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [],
                         "headers": [{"name": name, "value": value} for name, value in headers],
                         "content": content, "redirectURL": "", "headersSize": -1, "bodySize": -1,
                         "_transferSize": 321},
            "cache": {}, "timings": {"blocked": 1, "dns": -1, "connect": -1, "send": 0, "wait": 10, "receive": 1.5,
                                     "ssl": -1},
            "_initiator": {"type": "script"}, "_resourceType": "fetch", "serverIPAddress": "93.184.216.34",
        })
        expected.append({"index": len(expected), "url": url, "status": status, "ok": ok, "truncated": truncated,
                         "value": value})

    users_text = json.dumps(USERS)
    entry("https://example.com/api/users.json", 200, users_text, "application/json",
          headers=[("Content-Type", "application/json"), ("Content-Encoding", "gzip")], value=USERS)
    entry("https://example.com/pixel.png", 200, base64.b64encode(png).decode(), "image/png", encoding="base64",
          size=len(png), headers=[("Content-Type", "image/png")])
    entry("https://example.com/greeting", 200, "caf\u00e9 cr\u00e8me", "text/plain; charset=iso-8859-1",
          size=10, headers=[("Content-Type", "text/plain; charset=iso-8859-1")])
    entry("https://example.com/big.js", 200, None, "application/javascript", size=48213,
          headers=[("Content-Type", "application/javascript")], ok=False, truncated="length")
    entry("https://example.com/missing", 404, json.dumps({"title": "Not Found", "status": 404}),
          "application/problem+json", headers=[("Content-Type", "application/problem+json")], ok=False)
    har = {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"},
                   "pages": [{"startedDateTime": "2026-12-07T10:00:00.000Z", "id": "page_1", "title": "Example",
                              "pageTimings": {"onContentLoad": 120.1, "onLoad": 240.2}}],
                   "entries": entries}}
    with open(path, "w") as output:
        json.dump(har, output, indent=2)
    return expected


def main():
    write_warc("mixed.warc", compress=False)
    write_warc("mixed.warc.gz", compress=True)
    expected = {"mixed.warc": read_warc("mixed.warc"), "mixed.warc.gz": read_warc("mixed.warc.gz"),
                "page.har": write_har("page.har")}
    with open("expected.json", "w") as output:
        json.dump(expected, output, indent=1, sort_keys=True)
        output.write("\n")


if __name__ == "__main__":
    main()
