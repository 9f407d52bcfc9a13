#!/usr/bin/env python3
"""Generates the conformance fixtures of the `ndjson` serializer (DecantNDJSON) into Fixtures/ndjson/.

Each body is written from Python values with `json.dumps` (one text per line, or RS + text + LF for RFC 7464
sequences), and each expected record list is what Python's `json.loads` reads from every non-blank line (or every
non-empty text between two RS), independently of Decant. The canonical form of a whole body is
{"records": [...]} (see Plugins/DecantNDJSON/README.md).

Run from anywhere: `python3 Plugins/DecantNDJSON/fixtures.py`. It rewrites Fixtures/ndjson/ and is deterministic.
`python3 Plugins/DecantNDJSON/fixtures.py --read lines|sequence FILE` instead prints {"records": [...]}, what
`lines_records()` or `sequence_records()` (Python's `json.loads` per line or text) read from the body in FILE, and
writes nothing: the writer's tests check Decant's NDJSON writer against it.
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "..", "..", "Fixtures", "ndjson")
# Raw messages and expectation files are written as Fixtures/generate.py writes the built-in formats' fixtures.
sys.path.insert(0, os.path.join(HERE, "..", "..", "Fixtures"))
sys.dont_write_bytecode = True  # no __pycache__ in Fixtures/
import generate as fixture_files  # noqa: E402
from generate import http  # noqa: E402
NDJSON = "application/x-ndjson"
SEQ = "application/json-seq"
RS = b"\x1e"


def write(name, raw, expectation):
    fixture_files.write(os.path.basename(FOLDER), name, raw, expectation)


def lines_records(body):
    """What a newline-delimited reader should see: json.loads of every line that is not blank."""
    records = []
    for line in body.split(b"\n"):
        if line.strip(b" \t\r"):
            records.append(json.loads(line.decode("utf-8")))
    return records


def sequence_records(body):
    """json.loads of every non-empty text between RS bytes (the body starts with RS)."""
    assert body.startswith(RS)
    return [json.loads(text.decode("utf-8")) for text in body.split(RS)[1:] if text.strip(b" \t\r\n")]


def ok(name, description, body, content_type=NDJSON, status=200, reason="OK"):
    records = sequence_records(body) if "json-seq" in content_type else lines_records(body)
    expectation = {"description": description, "expect": {"serializer": "ndjson", "value": {"records": records}}}
    write(name, http(status, reason, [("Content-Type", content_type)], body), expectation)


def error(name, description, body, code, content_type=NDJSON):
    expectation = {"description": description, "expect": {"error": {"code": code}}}
    write(name, http(200, "OK", [("Content-Type", content_type)], body), expectation)


def ndjson(values, end=b"\n"):
    return b"".join(json.dumps(value, ensure_ascii=False).encode("utf-8") + end for value in values)


def sequence(values):
    return b"".join(RS + json.dumps(value, ensure_ascii=False).encode("utf-8") + b"\n" for value in values)


def main():
    shutil.rmtree(FOLDER, ignore_errors=True)
    os.makedirs(FOLDER)
    events = [{"id": 1, "type": "push", "repo": "decant"}, {"id": 2, "type": "fork", "stars": 12.5},
              {"id": 3, "type": "issue", "labels": ["bug", "stream"], "closed": None}]
    ok("objects", "Three objects, one per line, each line ended by LF.", ndjson(events))
    ok("crlf-line-ends", "CR LF line ends: the CR goes with the LF.", ndjson(events, end=b"\r\n"))
    ok("blank-lines-are-skipped", "Empty and whitespace-only lines (spaces, tabs) hold no record.",
       b"\n" + ndjson(events[:1]) + b"\n   \n\t\n" + ndjson(events[1:]) + b"\n")
    ok("last-line-without-line-feed", "A last line without its LF is still a record.",
       ndjson(events)[:-1])
    ok("jsonl-media-type", "application/jsonl is JSON Lines, the same framing.", ndjson(events), "application/jsonl")
    ok("x-jsonlines-media-type", "application/x-jsonlines, another name in use.", ndjson(events[:2]),
       "application/x-jsonlines")
    ok("charset-parameter", "A charset parameter does not change the framing.", ndjson(events),
       "application/x-ndjson; charset=utf-8")
    ok("any-json-text-per-line", "Each line may be any JSON text: numbers, strings, literals, arrays.",
       ndjson([42, -0.5, "text", True, False, None, [], {}, [1, [2, [3]]]]))
    ok("unicode-and-escapes", "Non-ASCII text, escapes and surrogate pairs inside records.",
       ndjson([{"name": "Zoë", "city": "東京"}, {"emoji": "\U0001F600", "escaped": "line\nbreak \"quoted\""}])
       + b'{"raw": "\\u00e9\\ud83d\\ude00"}\n')
    ok("big-integers-exact", "Integers beyond 64 bits keep every digit.",
       ndjson([{"id": 18446744073709551617}, {"id": -9223372036854775809}]))
    ok("empty-body", "An empty body is a stream of no records.", b"")
    ok("sequence", "A JSON text sequence (RFC 7464): RS, a text, LF, per record.", sequence(events),
       SEQ)
    ok("sequence-empty-texts", "RS RS: an empty text holds no record.",
       RS + RS + sequence(events[:1]) + RS + b"\n" + sequence(events[1:]), SEQ)
    ok("sequence-suffix", "The +json-seq structured syntax suffix (RFC 8091) is a JSON text sequence.",
       sequence([{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1.5, 2.25]}}]),
       "application/geo+json-seq")
    ok("sequence-object-without-line-feed", "An object that ends the body without its LF is complete, so kept.",
       sequence(events)[:-1], SEQ)
    error("sequence-truncated-number", "A top-level number without the LF after it may be cut short (RFC 7464 "
          "2.4): an error, not a record.", sequence([1, 2])[:-1], "invalidBody", SEQ)
    error("sequence-bytes-before-first-rs", "A text must start with RS.", b'{"a": 1}\n' + sequence([2]),
          "invalidBody", SEQ)
    error("malformed-line", "The second line is not JSON: the whole body fails with that record's error.",
          ndjson(events[:1]) + b'{"id": 2,\n' + ndjson(events[2:]), "invalidBody")
    error("two-texts-on-one-line", "One line holds two JSON texts: not one record.", b'{"a": 1} {"b": 2}\n',
          "invalidBody")
    error("json-array-is-not-ndjson", "A pretty-printed JSON array spread over lines is not NDJSON.",
          json.dumps(events, indent=2).encode(), "invalidBody")
    body = ndjson([{"error": "not_found", "detail": "No stream 42."}])
    write("404-ndjson-body", http(404, "Not Found", [("Content-Type", NDJSON)], body),
          {"description": "A 404 with an NDJSON body is a status error that carries the decoded records.",
           "expect": {"error": {"code": "unacceptableStatusCode", "status": 404,
                                "errorValue": {"records": lines_records(body)}}}})


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--read":
        with open(sys.argv[3], "rb") as file:
            body = file.read()
        read = sequence_records if sys.argv[2] == "sequence" else lines_records
        print(json.dumps({"records": read(body) if body else []}))
    else:
        main()
