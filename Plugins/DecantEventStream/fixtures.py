#!/usr/bin/env python3
"""Generates the conformance fixtures of the `eventStream` serializer (DecantEventStream) into Fixtures/eventStream/.

The expected events come from `interpret()` below: the WHATWG HTML Standard's "interpreting an event stream"
(section 9.2.6) written out in Python step by step, independently of Decant's parser: UTF-8 decode (errors
replaced) with one leading BOM removed, lines ended by CRLF, LF or CR, comments, fields, dispatch on an empty line,
and the pending event discarded at the end of the stream. The canonical form of a whole body is
{"events": [{"type", "data", "lastEventID"}, ...], "retry": N or null} (see Plugins/DecantEventStream/README.md).

Run from anywhere: `python3 Plugins/DecantEventStream/fixtures.py`. It rewrites Fixtures/eventStream/ and is
deterministic. `python3 Plugins/DecantEventStream/fixtures.py --interpret FILE` instead prints, as JSON, what
`interpret()` reads from the body in FILE (and writes nothing): the writer's tests check Decant's event stream writer
against it. `--resume FILE` reads a JSON array of bodies (arrays of byte values) and prints the `resume_point()` of each: the
last event ID string and retry a reconnecting client keeps.
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "..", "..", "Fixtures", "eventStream")
# Raw messages and expectation files are written as Fixtures/generate.py writes the built-in formats' fixtures.
sys.path.insert(0, os.path.join(HERE, "..", "..", "Fixtures"))
sys.dont_write_bytecode = True  # no __pycache__ in Fixtures/
import generate as fixture_files  # noqa: E402
from generate import http  # noqa: E402
SSE = "text/event-stream"


def write(name, raw, expectation):
    fixture_files.write(os.path.basename(FOLDER), name, raw, expectation)


def interpret(body):
    """The events and the last retry of an event stream, per the WHATWG HTML Standard."""
    events, retry, _ = read_stream(body)
    return {"events": events, "retry": retry}


def resume_point(body):
    """What a client reconnects with after reading `body`: the event source's last event ID string (set from the
    last event ID buffer by every empty line, "dispatch the event" step 1, even when the data is empty) and the
    reconnection time (the last valid retry, set as soon as the field is read)."""
    _, retry, last_id_string = read_stream(body)
    return {"lastEventID": last_id_string, "retry": retry}


def read_stream(body):
    """The events, the last retry and the last event ID string of an event stream."""
    text = body.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    # Split into lines; only lines that end with CRLF, LF or CR count (the rest is discarded at the end).
    lines, current, index = [], "", 0
    while index < len(text):
        char = text[index]
        if char == "\r":
            lines.append(current)
            current = ""
            if index + 1 < len(text) and text[index + 1] == "\n":
                index += 1
        elif char == "\n":
            lines.append(current)
            current = ""
        else:
            current += char
        index += 1
    events, data, event_type, last_id, retry, last_id_string = [], "", "", "", None, ""
    for line in lines:
        if line == "":
            # Dispatch.
            last_id_string = last_id
            if data == "":
                event_type = ""
                continue
            if data.endswith("\n"):
                data = data[:-1]
            events.append({"type": event_type or "message", "data": data, "lastEventID": last_id})
            data, event_type = "", ""
            continue
        if line.startswith(":"):
            continue
        if ":" in line:
            name, value = line.split(":", 1)
            if value.startswith(" "):
                value = value[1:]
        else:
            name, value = line, ""
        if name == "event":
            event_type = value
        elif name == "data":
            data += value + "\n"
        elif name == "id":
            if "\0" not in value:
                last_id = value
        elif name == "retry":
            if value and all("0" <= c <= "9" for c in value):
                retry = int(value)
    return events, retry, last_id_string


def ok(name, description, body, content_type=SSE):
    expectation = {"description": description,
                   "expect": {"serializer": "eventStream", "value": interpret(body)}}
    write(name, http(200, "OK", [("Content-Type", content_type)], body), expectation)


def main():
    shutil.rmtree(FOLDER, ignore_errors=True)
    os.makedirs(FOLDER)
    ok("one-event", "One data line and the empty line that dispatches it.", b"data: hello\n\n")
    ok("multi-line-data", "Data lines are joined with LF.", b"data: first\ndata: second\ndata:\ndata: fourth\n\n")
    ok("event-types", "The event field sets the type; the next event is a message again.",
       b"event: add\ndata: 1\n\ndata: 2\n\nevent: remove\ndata: 3\n\n")
    ok("ids-persist", "The last event ID persists across events; an id with NUL is ignored; a bare id resets it.",
       b"id: 1\ndata: a\n\ndata: b\n\nid: 2\x00x\ndata: c\n\nid\ndata: d\n\n")
    ok("retry", "Retry sets the reconnection time when it is digits only; the last valid one is kept.",
       b"retry: 3000\ndata: a\n\nretry: 10a\nretry: -5\nretry:\nretry: 2500\n\n")
    ok("comments", "Lines starting with a colon are comments, including keep-alive pings.",
       b": ping\n:\ndata: x\n: inside\n\n: trailing\n\n")
    ok("line-ends", "CR LF, LF and CR each end a line, mixed in one stream.",
       b"data: crlf\r\n\r\ndata: cr\r\rdata: lf\n\ndata: a\rdata: b\r\n\n")
    ok("spaces-after-colon", "Only one space after the colon is dropped; none is needed.",
       b"data:none\n\ndata:  two\n\ndata: a:b:c\n\n")
    ok("field-without-colon", "A field name alone has an empty value: data alone dispatches an empty event.",
       b"data\n\ndata\ndata\n\n")
    ok("unknown-fields", "Unknown fields, and fields that differ only in case, are ignored.",
       b"Data: no\nfoo: bar\ndata: yes\nEVENT: no\n\n")
    ok("trailing-event-discarded", "An event without its empty line at the end of the stream is not dispatched.",
       b"data: sent\n\ndata: never sent\n")
    ok("last-line-without-end", "A last line without its line end is discarded too.", b"data: a\n\ndata: b")
    ok("bom", "One byte order mark at the start of the stream is dropped.", b"\xef\xbb\xbfdata: after bom\n\n")
    ok("invalid-utf8", "Invalid UTF-8 becomes U+FFFD.", b"data: a\xffb\xe2\x82\n\n")
    ok("empty-data-no-event", "An event with no data is not dispatched, and its type does not leak.",
       b"event: lonely\n\ndata: next\n\n")
    ok("unicode", "Non-ASCII data and event types.", "event: übung\ndata: 東京 😀\n\n".encode())
    ok("empty-body", "An empty stream dispatches nothing.", b"")
    ok("control-bytes", "Tabs and other control bytes below CR inside lines do not end them; only CR and LF do.",
       b"data: a\tb\x0bc\x0cd\x01e\x00f\n\nevent:\tx\ndata: \t\n\n\x09data: ignored\n\n"
       b"data: \x0b\x0c\x0b\x0c\x0b\x0c\x0b\x0c\x0b\x0c\x0b\x0cz\r\n\r\n")
    lengths = b"".join(b"data: " + bytes(ord("a") + n % 26 for n in range(length)) + b"\n\n"
                       for length in range(0, 21))
    types = b"".join(b"event: " + b"t" * length + b"\ndata: x\n\n" for length in (15, 16, 17, 16, 15, 15, 17, 1))
    ok("data-and-type-lengths", "Data of 0 to 20 bytes (short data is kept as bytes up to 15) and types around 16 "
       "bytes, each repeated and changing length.", lengths + types + b"data: 15 bytes here\ndata: more\n\n")
    ok("short-invalid-utf8", "Short data with invalid or cut UTF-8 reads as U+FFFD, as long data does.",
       b"data: \xff\n\ndata: ab\xe2\x82\n\ndata: \xf0\x9f\x98\x80\xc3\n\ndata: \xed\xa0\x80x\n\n")
    tokens = b"".join(
        b"event: token\nid: %d\ndata: {\"index\": %d, \"text\": \"w%d \"}\n\n" % (n, n, n) for n in range(40))
    ok("token-stream", "A streamed completion: 40 JSON token events, then a done event.",
       b": stream start\nretry: 1000\n\n" + tokens + b"event: done\ndata: [DONE]\n\n")
    body = json.dumps({"type": "about:blank", "title": "Not Found", "status": 404}).encode()
    write("404-problem-body", http(404, "Not Found", [("Content-Type", "application/problem+json")], body),
          {"description": "A 404 answered with a problem document instead of a stream: a status error carrying it.",
           "expect": {"error": {"code": "unacceptableStatusCode", "status": 404,
                                "errorValue": json.loads(body)}}})


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--interpret":
        with open(sys.argv[2], "rb") as file:
            print(json.dumps(interpret(file.read())))
    elif len(sys.argv) == 3 and sys.argv[1] == "--resume":
        # FILE holds a JSON array of bodies, each an array of byte values; prints the array of their resume points.
        with open(sys.argv[2], "rb") as file:
            print(json.dumps([resume_point(bytes(body)) for body in json.load(file)]))
    else:
        main()
