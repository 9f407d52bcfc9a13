#!/usr/bin/env python3
"""Generates the conformance fixtures of the `warc` serializer (DecantWARC) into Fixtures/warc/.

Every archive is written by warcio (https://github.com/webrecorder/warcio, `pip install warcio`), an independent WARC
writer and reader, except the few damaged ones no writer makes, which are built here byte by byte from ISO 28500 §4
(version line, `Name: value` fields ending in CRLF, a blank line, Content-Length bytes of block, CRLF CRLF). Each
expected value is what warcio's `ArchiveIterator` reads back from the archive, never what Decant reads:

- one entry per `response` record, in archive order, `index` counting responses from 0;
- `targetURI`: the record's WARC-Target-URI; `offset`: `ArchiveIterator.get_record_offset()` (for a .warc.gz file the
  offset of the record's gzip member);
- `status` and `headers`: `record.http_headers` (warcio's HTTP parser); `body_base64`: the HTTP payload as archived,
  with the chunked transfer coding removed (warcio's `ChunkedDataReader` without decompression) but a content coding
  kept: the registry's content decoding stage decodes it when the response is decoded;
- `truncation`: from WARC-Truncated, `keptBytes` the payload bytes warcio reads, `statedBytes` the HTTP
  Content-Length;
- a response record warcio reads no HTTP headers from (a `dns:` record, `text/dns`) or whose HTTP message its parser
  rejects, or whose status code is not three digits (RFC 9110 §15; warcio's parser takes any status text), has
  `"error": "malformedMessage"` in place of the response (the plugin's documented rule).

Each archive is wrapped in a raw HTTP response (`Content-Type: application/warc`). The canonical form of a whole
body is the array of these entries (see Plugins/DecantWARC/README.md).

Run from anywhere: `python3 Plugins/DecantWARC/fixtures.py`. It rewrites Fixtures/warc/ and is deterministic
(record ids and dates are fixed; warcio's gzip members carry no time stamp).
"""
import base64
import gzip
import io
import json
import os
import shutil
import sys

from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import ChunkedDataReader
from warcio.statusandheaders import StatusAndHeaders, StatusAndHeadersParserException
from warcio.warcwriter import WARCWriter

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "..", "..", "Fixtures", "warc")
# Raw messages and expectation files are written as Fixtures/generate.py writes the built-in formats' fixtures.
sys.path.insert(0, os.path.join(HERE, "..", "..", "Fixtures"))
sys.dont_write_bytecode = True  # no __pycache__ in Fixtures/
import generate as fixture_files  # noqa: E402
from generate import http  # noqa: E402

WARC = "application/warc"


class Archive:
    """A WARC file written by warcio, record by record."""

    def __init__(self, compressed=False, version="1.0"):
        self.buffer = io.BytesIO()
        self.writer = WARCWriter(self.buffer, gzip=compressed, warc_version=version)
        self.count = 0

    def _fixed(self, extra=None):
        self.count += 1
        headers = {
            "WARC-Record-ID": "<urn:uuid:00000000-0000-4000-8000-%012d>" % self.count,
            "WARC-Date": "2024-05-01T12:00:%02dZ" % (self.count % 60),
        }
        headers.update(extra or {})
        return headers

    def warcinfo(self, text=b"software: fixtures.py\r\nformat: WARC File Format 1.0\r\n"):
        record = self.writer.create_warc_record(
            "", "warcinfo", payload=io.BytesIO(text), length=len(text),
            warc_content_type="application/warc-fields", warc_headers_dict=self._fixed({"WARC-Filename": "a.warc"}))
        self.writer.write_record(record)

    def request(self, uri, path="/"):
        headers = StatusAndHeaders(f"GET {path} HTTP/1.1", [("Host", "example.com"), ("Accept", "*/*")],
                                   is_http_request=True)
        record = self.writer.create_warc_record(uri, "request", payload=io.BytesIO(b""), length=0,
                                                http_headers=headers, warc_headers_dict=self._fixed())
        self.writer.write_record(record)

    def response(self, uri, status, headers, payload, extra=None):
        http_headers = StatusAndHeaders(status, headers, protocol="HTTP/1.1")
        record = self.writer.create_warc_record(uri, "response", payload=io.BytesIO(payload), length=len(payload),
                                                http_headers=http_headers, warc_headers_dict=self._fixed(extra))
        self.writer.write_record(record)

    def other(self, uri, record_type, payload, content_type, extra=None):
        record = self.writer.create_warc_record(uri, record_type, payload=io.BytesIO(payload), length=len(payload),
                                                warc_content_type=content_type, warc_headers_dict=self._fixed(extra))
        self.writer.write_record(record)

    def bytes(self):
        return self.buffer.getvalue()


def raw_record(fields, block, version=b"WARC/1.0"):
    """One record built from ISO 28500 §4 directly: for the damaged archives no writer makes."""
    head = version + b"\r\n" + b"".join(name + b": " + value + b"\r\n" for name, value in fields)
    return head + b"Content-Length: " + str(len(block)).encode() + b"\r\n\r\n" + block + b"\r\n\r\n"


def expected(archive):
    """warcio's reading of every response record, in the canonical form of the plugin's records."""
    entries = []
    stream = io.BytesIO(archive)
    iterator = ArchiveIterator(stream)
    for record in iterator:
        if record.rec_type != "response":
            continue
        entry = {
            "index": len(entries),
            "targetURI": record.rec_headers.get_header("WARC-Target-URI"),
        }
        headers = record.http_headers
        code = headers.get_statuscode() if headers is not None else ""
        if headers is None or headers.protocol == "" or not (len(code) == 3 and code.isdigit()):
            # warcio reads no HTTP message, or one whose status is not three digits (RFC 9110 §15).
            entry["error"] = "malformedMessage"
        else:
            entry["status"] = int(headers.get_statuscode())
            entry["headers"] = [[name, value] for name, value in headers.headers]
            if (headers.get_header("Transfer-Encoding") or "").lower() == "chunked":
                payload = ChunkedDataReader(record.raw_stream, decomp_type=None).read()
            else:
                payload = record.raw_stream.read()
            entry["body_base64"] = base64.b64encode(payload).decode("ascii")
        # After the payload: asking for the offset first makes warcio skip to the record's end.
        entry["offset"] = iterator.get_record_offset()
        reason = record.rec_headers.get_header("WARC-Truncated")
        entry = {key: entry[key] for key in ("index", "targetURI", "offset", "error", "status", "headers",
                                             "body_base64") if key in entry}
        if reason is not None and "error" not in entry:
            stated = headers.get_header("Content-Length")
            entry["truncation"] = {"reason": reason, "keptBytes": len(payload),
                                   "statedBytes": int(stated) if stated is not None else None}
        else:
            entry["truncation"] = None
        entries.append(entry)
    return entries


def write(name, raw, expectation):
    fixture_files.write(os.path.basename(FOLDER), name, raw, expectation)


def ok(name, description, archive, entries=None):
    value = expected(archive) if entries is None else entries
    expectation = {"description": description, "expect": {"serializer": "warc", "value": value}}
    write(name, http(200, "OK", [("Content-Type", WARC)], archive), expectation)


def failure(name, description, archive, code):
    expectation = {"description": description, "expect": {"error": {"code": code}}}
    write(name, http(200, "OK", [("Content-Type", WARC)], archive), expectation)


JSON_BODY = json.dumps({"id": 7, "name": "Décant", "tags": ["warc", "archive"]}, ensure_ascii=False).encode("utf-8")
HTML_BODY = "<!doctype html><title>Bonjour</title><p>Déjà vu</p>".encode("windows-1252")


def crawl(compressed, version):
    """A small crawl: warcinfo, then request/response pairs with a metadata record between them."""
    archive = Archive(compressed, version)
    archive.warcinfo()
    archive.request("https://example.com/api/item/7", "/api/item/7")
    archive.response("https://example.com/api/item/7", "200 OK",
                     [("Content-Type", "application/json"), ("Content-Length", str(len(JSON_BODY)))], JSON_BODY)
    archive.other("https://example.com/api/item/7", "metadata", b"via: https://example.com/\r\n",
                  "application/warc-fields")
    archive.request("https://example.com/fr", "/fr")
    archive.response("https://example.com/fr", "200 OK",
                     [("Content-Type", "text/html; charset=windows-1252"), ("Content-Length", str(len(HTML_BODY))),
                      ("Server", "fixture")], HTML_BODY)
    archive.request("https://example.com/missing", "/missing")
    problem = b'{"title": "Not Found", "status": 404}'
    archive.response("https://example.com/missing", "404 Not Found",
                     [("Content-Type", "application/problem+json"), ("Content-Length", str(len(problem)))], problem)
    return archive.bytes()


def chunk(data, size):
    out = b""
    for start in range(0, len(data), size):
        piece = data[start:start + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    # No chunk extensions or trailer fields: warcio's ChunkedDataReader, the reference here, does not remove them.
    return out + b"0\r\n\r\n"


def main():
    shutil.rmtree(FOLDER, ignore_errors=True)
    os.makedirs(FOLDER)

    ok("plain-warc-1.0", "An uncompressed WARC/1.0 crawl: warcinfo, request, metadata and response records; only the "
       "three responses are read, numbered from 0, with their byte offsets.", crawl(False, "1.0"))
    ok("plain-warc-1.1", "The same crawl as WARC/1.1.", crawl(False, "1.1"))
    ok("gzip-warc-1.0", "The crawl with every record a gzip member of its own (.warc.gz): detected by its first bytes; "
       "each offset is that of the record's gzip member.", crawl(True, "1.0"))
    ok("gzip-warc-1.1", "The WARC/1.1 crawl, gzip-compressed per record.", crawl(True, "1.1"))

    archive = Archive(False, "1.1")
    lines = b"".join(b'{"n": %d}\n' % n for n in range(40))
    archive.response("https://example.com/stream", "200 OK",
                     [("Content-Type", "application/x-ndjson"), ("Transfer-Encoding", "chunked")], chunk(lines, 64))
    assert base64.b64decode(expected(archive.bytes())[0]["body_base64"]) == lines
    ok("chunked-payload", "An HTTP message archived with its chunked transfer coding: the body is the payload without "
       "the chunk framing.", archive.bytes())

    archive = Archive(True, "1.0")
    text = ("Une réponse compressée. " * 20).encode("utf-8")
    coded = gzip.compress(text, mtime=0)
    archive.response("https://example.com/coded", "200 OK",
                     [("Content-Type", "text/plain; charset=utf-8"), ("Content-Encoding", "gzip"),
                      ("Content-Length", str(len(coded)))], coded)
    ok("gzip-content-coding", "A response with Content-Encoding: gzip inside a gzip-compressed WARC: the body is kept "
       "as archived (still gzip); the registry decodes it when the response is decoded.", archive.bytes())

    archive = Archive(False, "1.0")
    big = bytes(range(256)) * 16
    kept = big[:1000]
    archive.response("https://example.com/big.bin", "200 OK",
                     [("Content-Type", "application/octet-stream"), ("Content-Length", str(len(big)))], kept,
                     extra={"WARC-Truncated": "length"})
    archive.response("https://example.com/after", "204 No Content", [("Server", "fixture")], b"")
    ok("truncated-record", "WARC-Truncated: length: the crawler kept 1000 of the 4096 bytes the HTTP Content-Length "
       "states; the response is read with what was kept, and the next record after it.", archive.bytes())

    archive = Archive(False, "1.1")
    archive.other("dns:example.com", "response", b"20240501120000\nexample.com.\t300\tIN\tA\t192.0.2.1\n", "text/dns")
    archive.response("https://example.com/", "200 OK",
                     [("Content-Type", "text/plain"), ("Content-Length", "2")], b"ok")
    ok("dns-response-record", "A crawler's DNS lookup is a response record of type text/dns: it counts as a response "
       "that is not an HTTP message (malformedMessage), and the HTTP response after it is read.", archive.bytes())

    archive = Archive(False, "1.0")
    archive.response("https://example.com/a", "200 OK", [("Content-Type", "text/plain"), ("Content-Length", "1")], b"a")
    archive.other("https://example.com/a", "revisit", b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n",
                  "application/http; msgtype=response",
                  extra={"WARC-Profile": "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"})
    archive.other("https://example.com/logo.txt", "resource", b"a resource fetched without HTTP", "text/plain")
    archive.other("urn:x-conversion", "conversion", b"converted", "text/plain")
    archive.response("https://example.com/b", "200 OK", [("Content-Type", "text/plain"), ("Content-Length", "1")], b"b")
    ok("skipped-record-types", "revisit, resource and conversion records hold no HTTP response of their own: skipped, "
       "and the responses around them keep consecutive indexes.", archive.bytes())

    broken = raw_record([(b"WARC-Type", b"response"), (b"WARC-Target-URI", b"https://example.com/broken"),
                         (b"Content-Type", b"application/http; msgtype=response")], b"HTTP/1.1 2OO OK\r\n\r\n")
    good = Archive(False, "1.0")
    good.response("https://example.com/good", "200 OK", [("Content-Type", "text/plain"), ("Content-Length", "4")],
                  b"good")
    archive = broken + good.bytes()
    entries = expected(archive)
    ok("malformed-http-message", "A response record whose block is not a valid HTTP response (status 2OO): that "
       "response is a malformedMessage failure and reading goes on.", archive, entries)

    folded = raw_record([(b"WARC-Type", b"response"), (b"WARC-Target-URI", b"https://example.com/folded"),
                         (b"Content-Type", b"application/http;\r\n msgtype=response"),
                         (b"warc-date", b"2024-05-01T12:00:00Z")],
                        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nfolded")
    ok("continuation-lines", "A named field continued on the next line (a line starting with a space) and field names "
       "in another case are read.", folded)

    ok("empty-archive", "An empty WARC file holds no responses.", b"", [])

    failure("not-a-warc", "A body that starts neither with WARC/ nor with the gzip bytes 1F 8B is not a WARC.",
            b"<html>not an archive</html>", "invalidBody")
    cut = crawl(False, "1.0")
    failure("cut-inside-record", "An archive that ends inside a record's block is cut short.", cut[:len(cut) - 40],
            "truncatedBody")
    cut = crawl(True, "1.0")
    failure("cut-inside-gzip-member", "A .warc.gz file that ends inside a gzip member is cut short.",
            cut[:len(cut) - 10], "truncatedBody")
    failure("missing-content-length", "A record without Content-Length cannot be framed.",
            b"WARC/1.0\r\nWARC-Type: warcinfo\r\n\r\n\r\n\r\n", "invalidBody")
    failure("wrong-content-length", "A block not followed by CRLF CRLF: its Content-Length is wrong.",
            b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 2\r\n\r\nabc\r\n\r\n", "invalidBody")
    failure("unknown-version", "WARC/0.17 (a draft) is not read.",
            b"WARC/0.17\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n", "unsupportedFeature")


if __name__ == "__main__":
    main()
