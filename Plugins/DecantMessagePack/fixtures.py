#!/usr/bin/env python3
"""Generates the conformance fixtures of the `msgpack` serializer (DecantMessagePack) into Fixtures/msgpack/.

Python's standard library has no MessagePack module, so the bodies are written by the small encoder below
(`pack`), which follows the MessagePack specification (msgpack/msgpack spec.md) and always picks the shortest
format, or by explicit byte strings for the non-shortest forms, extensions and malformed bodies. Expected values
are stated explicitly in the canonical form of the plugin (see its README): JSON for what JSON can say, and
`{"$bytes": ...}`, `{"$map": ...}`, `{"$ext": ..., "data": ...}`, `{"$timestamp": ...}`, `{"$float": ...}`
otherwise; base64 comes from `base64`, float 32 values from `struct`.

Run from anywhere: `python3 Plugins/DecantMessagePack/fixtures.py`. It rewrites Fixtures/msgpack/ and is
deterministic.
"""
import base64
import os
import shutil
import sys
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "..", "..", "Fixtures", "msgpack")
# Raw messages and expectation files are written as Fixtures/generate.py writes the built-in formats' fixtures.
sys.path.insert(0, os.path.join(HERE, "..", "..", "Fixtures"))
sys.dont_write_bytecode = True  # no __pycache__ in Fixtures/
import generate as fixture_files  # noqa: E402
from generate import http  # noqa: E402
MSGPACK = "application/msgpack"


def pack(value):
    """The shortest MessagePack encoding of a Python value (None, bool, int, float, str, bytes, list, dict)."""
    if value is None:
        return b"\xc0"
    if value is True:
        return b"\xc3"
    if value is False:
        return b"\xc2"
    if isinstance(value, int):
        if 0 <= value <= 0x7F:
            return bytes([value])
        if -32 <= value < 0:
            return struct.pack(">b", value)
        if value > 0:
            for head, fmt, top in ((0xCC, ">B", 0xFF), (0xCD, ">H", 0xFFFF), (0xCE, ">I", 0xFFFFFFFF)):
                if value <= top:
                    return bytes([head]) + struct.pack(fmt, value)
            return b"\xcf" + struct.pack(">Q", value)
        for head, fmt, bits in ((0xD0, ">b", 7), (0xD1, ">h", 15), (0xD2, ">i", 31)):
            if value >= -(1 << bits):
                return bytes([head]) + struct.pack(fmt, value)
        return b"\xd3" + struct.pack(">q", value)
    if isinstance(value, float):
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        data = value.encode("utf-8")
        return length(len(data), 0xA0, 31, (0xD9, 0xDA, 0xDB)) + data
    if isinstance(value, bytes):
        return length(len(value), None, 0, (0xC4, 0xC5, 0xC6)) + value
    if isinstance(value, list):
        return length(len(value), 0x90, 15, (None, 0xDC, 0xDD)) + b"".join(pack(v) for v in value)
    if isinstance(value, dict):
        return length(len(value), 0x80, 15, (None, 0xDE, 0xDF)) + b"".join(
            pack(k) + pack(v) for k, v in value.items())
    raise TypeError(type(value))


def length(count, fix, fixmax, heads):
    """The header of a str, bin, array or map of `count` items."""
    if fix is not None and count <= fixmax:
        return bytes([fix | count])
    for head, fmt, top in zip(heads, (">B", ">H", ">I"), (0xFF, 0xFFFF, 0xFFFFFFFF)):
        if head is not None and count <= top:
            return bytes([head]) + struct.pack(fmt, count)
    raise ValueError(count)


def b64(data):
    return base64.b64encode(data).decode("ascii")


def write(name, raw, expectation):
    fixture_files.write(os.path.basename(FOLDER), name, raw, expectation)


def ok(name, description, body, value, content_type=MSGPACK):
    raw = http(200, "OK", [("Content-Type", content_type)], body)
    write(name, raw, {"description": description, "expect": {"serializer": "msgpack", "value": value}})


def error(name, description, body, code, contains=None, content_type=MSGPACK):
    raw = http(200, "OK", [("Content-Type", content_type)], body)
    expected = {"code": code}
    if contains:
        expected["messageContains"] = contains
    write(name, raw, {"description": description, "expect": {"error": expected}})


def main():
    shutil.rmtree(FOLDER, ignore_errors=True)
    os.makedirs(FOLDER)

    user = {"id": 42, "name": "Ada Lovelace", "tags": ["math", "engines"], "active": True, "manager": None}
    ok("map-user", "A map with string keys becomes a JSON object in document order.", pack(user), user)
    integers = [0, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1,
                -1, -32, -33, -128, -129, -32768, -32769, -2**31, -2**31 - 1, -2**63]
    ok("integers", "Every integer family at its boundaries, uint 64 above Int64.max included.", pack(integers),
       integers)
    wide = [1, -1, 2, -2]
    body = b"\x94" + b"\xcf" + struct.pack(">Q", 1) + b"\xd3" + struct.pack(">q", -1) + b"\xcd\x00\x02" + b"\xd1\xff\xfe"
    ok("integers-non-shortest", "Integers in wider formats than needed decode to the same numbers.", body, wide)
    f32 = struct.unpack(">f", struct.pack(">f", 0.1))[0]
    body = b"\x93\xca" + struct.pack(">f", 0.1) + b"\xca" + struct.pack(">f", 1.5) + pack(0.1)
    ok("floats", "A float 32 is widened exactly (0.1f is 0.10000000149011612); float 64 as it is.", body,
       [f32, 1.5, 0.1])
    body = b"\x93\xcb" + struct.pack(">d", float("nan")) + b"\xca" + struct.pack(">f", float("inf")) + b"\xcb" + \
        struct.pack(">d", float("-inf"))
    ok("floats-not-finite", "NaN and the infinities are typed objects.", body,
       [{"$float": "NaN"}, {"$float": "Infinity"}, {"$float": "-Infinity"}])
    strings = ["", "é", "日本語", "🍺", "x" * 40, "y" * 300, "z" * 70000]
    ok("strings", "fixstr, str 8, str 16 and str 32 (shortest forms) with UTF-8 text.", pack(strings), strings)
    body = b"\x92\xd9\x03abc\xdb\x00\x00\x00\x02hi"
    ok("strings-non-shortest", "Short strings in str 8 and str 32.", body, ["abc", "hi"])
    blobs = [b"", b"\x00\xff", bytes(range(256)) * 2]
    ok("binary", "bin 8 and bin 16 become {\"$bytes\": base64}.", pack(blobs), [{"$bytes": b64(b)} for b in blobs])
    body = b"\x83" + pack(1) + pack("one") + pack(True) + pack("yes") + pack([1]) + pack("list")
    ok("map-non-string-keys", "A map with a non-string key becomes {\"$map\": [[key, value], ...]}.", body,
       {"$map": [[1, "one"], [True, "yes"], [[1], "list"]]})
    body = b"\x95" + b"\xd4\x01\x10" + b"\xd5\x02\x20\x21" + b"\xd8\x05" + bytes(range(16)) + b"\xc7\x03\x7f" + \
        b"abc" + b"\xc8\x00\x00\x80"
    ok("ext", "fixext 1, 2, 16, ext 8 and ext 16 become {\"$ext\": type, \"data\": base64}.", body,
       [{"$ext": 1, "data": b64(b"\x10")}, {"$ext": 2, "data": b64(b"\x20\x21")},
        {"$ext": 5, "data": b64(bytes(range(16)))}, {"$ext": 127, "data": b64(b"abc")},
        {"$ext": -128, "data": ""}])
    t32 = b"\xd6\xff" + struct.pack(">I", 1514862245)
    t64 = b"\xd7\xff" + struct.pack(">Q", (678901234 << 34) | 1514862245)
    t96 = b"\xc7\x0c\xff" + struct.pack(">Iq", 123456789, -62135596800)
    ok("timestamps", "The timestamp extension in its 32-, 64- and 96-bit forms (negative seconds in 96).",
       b"\x93" + t32 + t64 + t96,
       [{"$timestamp": {"seconds": 1514862245, "nanoseconds": 0}},
        {"$timestamp": {"seconds": 1514862245, "nanoseconds": 678901234}},
        {"$timestamp": {"seconds": -62135596800, "nanoseconds": 123456789}}])
    nested = []
    for _ in range(100):
        nested = [nested]
    ok("nested-100", "One hundred nested arrays, well inside maxDepth (512).", pack(nested), nested)
    wide_containers = {"list": list(range(20)), "map": {f"k{i}": i for i in range(20)}}
    ok("array16-map16", "array 16 and map 16 (more than 15 items).", pack(wide_containers), wide_containers)
    ok("top-level-nil", "A lone nil is JSON null.", pack(None), None)
    ok("media-type-x-msgpack", "application/x-msgpack resolves to the msgpack serializer.", pack({"a": 1}),
       {"a": 1}, content_type="application/x-msgpack")
    ok("media-type-vnd-msgpack", "application/vnd.msgpack resolves to the msgpack serializer.", pack([True]),
       [True], content_type="application/vnd.msgpack")
    ok("charset-ignored", "MessagePack is binary: a charset parameter is ignored.", pack("é"), "é",
       content_type="application/msgpack; charset=iso-8859-1")

    problem = {"error": "not_found", "id": 42}
    raw = http(404, "Not Found", [("Content-Type", MSGPACK)], pack(problem))
    write("404-error-body", raw, {
        "description": "A 404 is a status error that still carries its decoded MessagePack body.",
        "expect": {"error": {"code": "unacceptableStatusCode", "status": 404, "errorValue": problem}}})

    error("truncated", "A str 8 declaring 5 bytes with 2 present is invalid.", b"\xd9\x05ab", "invalidBody",
          "truncated")
    error("never-used-c1", "The byte 0xc1 is never used.", b"\x92\x01\xc1", "invalidBody", "0xc1")
    error("timestamp-bad-nanoseconds", "A 64-bit timestamp with 1,000,000,000 nanoseconds is invalid.",
          b"\xd7\xff" + struct.pack(">Q", 1000000000 << 34), "invalidBody", "nanoseconds")
    error("trailing-bytes", "Bytes after the single top-level value are an error.", b"\x01\x02", "invalidBody",
          "allowsMultipleValues")
    error("huge-array32", "An array 32 declaring 4 billion elements fails at once.", b"\xdd\xff\xff\xff\xff\x01",
          "invalidBody", "declares")
    error("invalid-utf8", "A str that is not UTF-8 is an encoding error.", b"\xa2\xc3\x28", "invalidEncoding",
          "replaceInvalidUTF8")
    error("too-deep", "513 nested arrays exceed maxDepth (512).", b"\x91" * 513 + b"\xc0", "limitExceeded",
          "maxDepth")


if __name__ == "__main__":
    main()
