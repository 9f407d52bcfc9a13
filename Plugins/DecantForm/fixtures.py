#!/usr/bin/env python3
"""Generates the conformance fixtures of the `form` serializer (DecantForm) into Fixtures/form/.

Expected values come from Python's standard library, never from Decant: `urllib.parse.parse_qsl` with
`keep_blank_values=True`, which splits on `&`, skips empty sequences, splits at the first `=`, turns `+` into a
space and decodes percent escapes, as the WHATWG urlencoded parser does. To decode at the byte level (raw non-ASCII
bytes, invalid UTF-8), the body is given to `parse_qsl` as Latin-1 text with `encoding="latin-1"`, so that each
character of a decoded name or value is one byte; those bytes are then decoded with
`bytes.decode("utf-8", "replace")`, which replaces malformed sequences with U+FFFD as WHATWG "UTF-8 decode without
BOM" does.

Run from anywhere: `python3 Plugins/DecantForm/fixtures.py`. It rewrites Fixtures/form/ and is deterministic.
"""
import os
import shutil
import sys
from urllib.parse import parse_qsl

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "..", "..", "Fixtures", "form")
# Raw messages and expectation files are written as Fixtures/generate.py writes the built-in formats' fixtures.
sys.path.insert(0, os.path.join(HERE, "..", "..", "Fixtures"))
sys.dont_write_bytecode = True  # no __pycache__ in Fixtures/
import generate as fixture_files  # noqa: E402
from generate import http  # noqa: E402
FORM = "application/x-www-form-urlencoded"


def pairs(body):
    """The canonical form of `body` (bytes) per the reference described above."""
    fields = parse_qsl(body.decode("latin-1"), keep_blank_values=True, encoding="latin-1")
    return {
        "pairs": [
            [name.encode("latin-1").decode("utf-8", "replace"), value.encode("latin-1").decode("utf-8", "replace")]
            for name, value in fields
        ]
    }


def write(name, raw, expectation):
    fixture_files.write(os.path.basename(FOLDER), name, raw, expectation)


def ok(name, description, body, content_type=FORM):
    raw = http(200, "OK", [("Content-Type", content_type)], body)
    write(name, raw, {"description": description, "expect": {"serializer": "form", "value": pairs(body)}})


def main():
    shutil.rmtree(FOLDER, ignore_errors=True)
    os.makedirs(FOLDER)

    ok("simple", "Two fields in body order.", b"name=Ada&lang=en")
    ok("plus-signs", "A plus sign is a space; an escaped plus (%2B) stays a plus.", b"q=hello+world&plus=%2B1+2&+=+")
    ok("percent-escapes", "Escaped delimiters are data: %26 is '&', %3D is '=', %2F is '/'; hex digits in either case.",
       b"path=%2Fa%2Fb%3Fc%3Dd&amp=%26&eq=%3d&mixed=%4a%4A")
    ok("bad-escapes", "A '%' not followed by two hex digits is kept as it is.",
       b"a=%&b=%zz&c=%4&d=100%25&e=%%41&f=%G1&%=%")
    ok("utf8-escaped", "Percent-escaped UTF-8 decodes to text.", b"name=Caf%C3%A9&emoji=%F0%9F%98%80&han=%E4%B8%AD")
    ok("utf8-raw", "Raw UTF-8 bytes in the body are text too.", "city=Zürich&greeting=こんにちは&€=€".encode("utf-8"))
    ok("invalid-utf8-escaped", "Escaped bytes that are not UTF-8 become U+FFFD (one per maximal bad subpart).",
       b"a=%FF%FE&b=%C3&c=%E2%82&d=%C3%28&e=%ED%A0%80&f=%F0%9F%98")
    ok("invalid-utf8-raw", "Raw bytes that are not UTF-8 become U+FFFD; parsing does not fail.",
       b"a=\xff\xfe&b=ok&\xc3=\xe2\x82")
    ok("duplicate-names", "Repeated names are all kept, in order.", b"tag=a&tag=b&x=1&tag=c&x=")
    ok("empty-sequences", "Empty sequences between '&' are skipped; '=c' has an empty name; 'd' an empty value.",
       b"&&a=1&&b=&=c&d&")
    ok("equals-in-value", "Only the first '=' splits name from value.", b"a==b&token=abc=def==")
    ok("semicolon-is-data", "';' is not a separator (WHATWG, and Python since 3.10).", b"a=1;b=2&c=3")
    ok("control-characters", "Escaped NUL, CR and LF are kept in values.", b"nul=%00&crlf=line1%0D%0Aline2&tab=%09")
    ok("charset-utf8", "A charset=UTF-8 parameter changes nothing.", b"name=Jos%C3%A9", FORM + "; charset=UTF-8")
    ok("charset-latin1-ignored",
       "The charset parameter is ignored (the format is UTF-8 only): Latin-1 %E9 is not UTF-8 and becomes U+FFFD.",
       b"name=Jos%E9&raw=Jos\xe9", FORM + "; charset=ISO-8859-1")
    ok("bom-kept", "A leading UTF-8 byte order mark is part of the first name (UTF-8 decode without BOM).",
       b"\xef\xbb\xbfa=1&b=%EF%BB%BF")
    ok("long-value", "A 5,000-byte value of plain bytes, escapes and plus signs.", b"blob=" + b"x%41+" * 1000)

    write("empty-200", http(200, "OK", [("Content-Type", FORM)], b""),
          {"description": "An empty body is a form without fields.",
           "expect": {"serializer": "form", "value": pairs(b"")}})

    body = b"error=not_found&error_description=No+user+42."
    write("404-error-fields", http(404, "Not Found", [("Content-Type", FORM)], body),
          {"description": "A 404 is a status error that still carries its decoded form body.",
           "expect": {"error": {"code": "unacceptableStatusCode", "status": 404, "errorValue": pairs(body)}}})

    body = b"a=1&b=2&c=3&d=4"
    write("max-pairs-option", http(200, "OK", [("Content-Type", FORM)], body),
          {"description": "The maxPairs option bounds the number of fields.", "serializer": "form",
           "options": {"maxPairs": 3},
           "expect": {"error": {"code": "limitExceeded", "messageContains": "maxPairs"}}})
    write("max-bytes-option", http(200, "OK", [("Content-Type", FORM)], body),
          {"description": "The maxBytes option bounds the body size.", "serializer": "form",
           "options": {"maxBytes": 8},
           "expect": {"error": {"code": "limitExceeded", "messageContains": "maxBytes"}}})


if __name__ == "__main__":
    main()
