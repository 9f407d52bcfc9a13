#!/usr/bin/env python3
"""Generates the conformance fixtures of the `cbor` serializer (DecantCBOR) into Fixtures/cbor/.

Python's standard library has no CBOR, so the bodies are written by the tiny encoder below (RFC 8949 §3: a head
with the shortest argument, then the content) or as hand-written hex where a fixture needs an exact, unusual
encoding (indefinite lengths, half-precision floats, malformed bytes). Each expected value is the canonical JSON
form stated explicitly beside its body (see Plugins/DecantCBOR/README.md): integers of any size as JSON integers,
byte strings as {"$bytes": base64}, tags as {"$tag": n, "value": v}, maps with a non-text key as
{"$map": [[k, v], ...]}, undefined as {"$undefined": true}, other simple values as {"$simple": n}, NaN and the
infinities as {"$float": "NaN" | "Infinity" | "-Infinity"}. Base64 is computed with `base64` from the standard
library.

Run from anywhere: `python3 Plugins/DecantCBOR/fixtures.py`. It rewrites Fixtures/cbor/ and is deterministic.
"""
import base64
import json
import os
import shutil
import sys
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "..", "..", "Fixtures", "cbor")
# Raw messages and expectation files are written as Fixtures/generate.py writes the built-in formats' fixtures.
sys.path.insert(0, os.path.join(HERE, "..", "..", "Fixtures"))
sys.dont_write_bytecode = True  # no __pycache__ in Fixtures/
import generate as fixture_files  # noqa: E402
from generate import http  # noqa: E402
CBOR = "application/cbor"
SEQ = "application/cbor-seq"


class Tag:
    def __init__(self, number, content):
        self.number, self.content = number, content


class Simple:
    def __init__(self, number):
        self.number = number


class Pairs:
    """A map as a list of (key, value) pairs, so that keys of any type and duplicates can be written."""

    def __init__(self, pairs):
        self.pairs = pairs


UNDEFINED = Simple(23)


def head(major, argument):
    if argument < 24:
        return bytes([major << 5 | argument])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if argument < 1 << (8 * size):
            return bytes([major << 5 | info]) + argument.to_bytes(size, "big")
    raise ValueError("argument too large")


def encode(value):
    """The preferred CBOR encoding of a Python value; floats are written as doubles (use hex for other widths)."""
    if value is False:
        return b"\xf4"
    if value is True:
        return b"\xf5"
    if value is None:
        return b"\xf6"
    if isinstance(value, Simple):
        return bytes([0xE0 | value.number]) if value.number < 24 else b"\xf8" + bytes([value.number])
    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, float):
        return b"\xfb" + struct.pack(">d", value)
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    if isinstance(value, str):
        data = value.encode("utf-8")
        return head(3, len(data)) + data
    if isinstance(value, list):
        return head(4, len(value)) + b"".join(encode(item) for item in value)
    if isinstance(value, dict):
        value = Pairs(list(value.items()))
    if isinstance(value, Pairs):
        return head(5, len(value.pairs)) + b"".join(encode(k) + encode(v) for k, v in value.pairs)
    if isinstance(value, Tag):
        return head(6, value.number) + encode(value.content)
    raise TypeError(type(value))


def b64(data):
    return {"$bytes": base64.b64encode(data).decode("ascii")}


def write(name, raw, expectation):
    fixture_files.write(os.path.basename(FOLDER), name, raw, expectation)


def ok(name, description, body, value, content_type=CBOR, extra=None):
    expectation = {"description": description, **(extra or {}), "expect": {"serializer": "cbor", "value": value}}
    write(name, http(200, "OK", [("Content-Type", content_type)], body), expectation)


def error(name, description, body, code, content_type=CBOR, extra=None):
    expectation = {"description": description, **(extra or {}), "expect": {"error": {"code": code}}}
    write(name, http(200, "OK", [("Content-Type", content_type)], body), expectation)


def main():
    shutil.rmtree(FOLDER, ignore_errors=True)
    os.makedirs(FOLDER)

    ok("map-text-keys", "A map whose keys are all text strings is a JSON object, members in document order.",
       encode({"name": "Ada", "langs": ["en", "fr"], "age": 36}),
       {"name": "Ada", "langs": ["en", "fr"], "age": 36})
    ok("integers", "Integers at every argument width, up to 2^64-1 and down to -2^64, are exact JSON integers.",
       encode([0, 23, 24, 255, 256, 65535, 65536, 4294967295, 4294967296, 18446744073709551615, -1, -24, -25,
               -18446744073709551616]),
       [0, 23, 24, 255, 256, 65535, 65536, 4294967295, 4294967296, 18446744073709551615, -1, -24, -25,
        -18446744073709551616])
    ok("bignums", "Tags 2 and 3 (bignums) become integers, small ones and large ones.",
       encode([Tag(2, bytes.fromhex("010000000000000000")), Tag(3, bytes.fromhex("010000000000000000")),
               Tag(2, b"\x00\x05"), Tag(3, b""), Tag(2, bytes.fromhex("0102030405060708090a0b0c0d0e0f10"))]),
       [18446744073709551616, -18446744073709551617, 5, -1, int("0102030405060708090a0b0c0d0e0f10", 16)])
    # Half 1.5 = f93e00; half 65504 = f97bff; half smallest subnormal 2^-24 = f90001; half -4.0 = f9c400;
    # single 100000.0 = fa47c35000; double 1.1.
    ok("floats", "Half-, single- and double-precision floats, subnormal half included, are JSON numbers.",
       bytes.fromhex("86f93e00f97bfff90001f9c400fa47c35000") + encode(1.1),
       [1.5, 65504.0, 2.0 ** -24, -4.0, 100000.0, 1.1])
    ok("non-finite-floats", "NaN and the infinities, in all three widths, are typed $float objects.",
       bytes.fromhex("86f97e00f97c00f9fc00fa7fc00000fa7f800000fbfff0000000000000"),
       [{"$float": "NaN"}, {"$float": "Infinity"}, {"$float": "-Infinity"}, {"$float": "NaN"},
        {"$float": "Infinity"}, {"$float": "-Infinity"}])
    ok("bytes-and-tags", "Byte strings are $bytes (base64); tags other than bignums keep their number and content.",
       encode([b"", b"\x00\xff\x10", Tag(1, 1363896240), Tag(32, "http://www.example.com"), Tag(24, b"\x64IETF"),
               Tag(55799, Tag(1, 1.5))]),
       [b64(b""), b64(b"\x00\xff\x10"), {"$tag": 1, "value": 1363896240},
        {"$tag": 32, "value": "http://www.example.com"}, {"$tag": 24, "value": b64(b"\x64IETF")},
        {"$tag": 55799, "value": {"$tag": 1, "value": 1.5}}])
    ok("map-other-keys", "A map with any key that is not a text string is {\"$map\": [[key, value], ...]}.",
       encode(Pairs([(1, "one"), ("a", 2), (b"\x01", [True]), (-5, None)])),
       {"$map": [[1, "one"], ["a", 2], [b64(b"\x01"), [True]], [-5, None]]})
    ok("simple-values", "false, true and null are JSON; undefined and the other simple values are typed.",
       encode([False, True, None, UNDEFINED, Simple(0), Simple(16), Simple(19), Simple(32), Simple(255)]),
       [False, True, None, {"$undefined": True}, {"$simple": 0}, {"$simple": 16}, {"$simple": 19},
        {"$simple": 32}, {"$simple": 255}])
    # 9f (indefinite array) 7f 62 6162 61 63 ff (indefinite text "abc") 5f 41 01 42 0203 ff (indefinite bytes)
    # bf 61 61 01 ff (indefinite map {"a": 1}) 9f ff (empty indefinite array) ff.
    ok("indefinite-lengths", "Indefinite-length arrays, maps, byte and text strings are joined.",
       bytes.fromhex("9f" "7f62616261 63ff" "5f4101420203ff" "bf616101ff" "9fff" "ff".replace(" ", "")),
       ["abc", b64(b"\x01\x02\x03"), {"a": 1}, []])
    ok("text-unicode", "Text strings are UTF-8: accents, CJK, astral characters, and escaped control characters.",
       encode(["caf\u00e9", "\u4e2d\u6587", "\U0001F600", "quote\" backslash\\ nul\u0000 tab\t", ""]),
       ["caf\u00e9", "\u4e2d\u6587", "\U0001F600", "quote\" backslash\\ nul\u0000 tab\t", ""])
    ok("nested", "Nested arrays and maps keep their shape.",
       encode({"a": [{"b": [[], {}]}, [[[1]]]], "c": {"d": {"e": None}}}),
       {"a": [{"b": [[], {}]}, [[[1]]]], "c": {"d": {"e": None}}})
    ok("sequence", "application/cbor-seq (RFC 8742): the value is the array of the items, in order.",
       encode(1) + encode("two") + encode([3]) + encode({"four": 4}),
       [1, "two", [3], {"four": 4}], content_type=SEQ)
    ok("sequence-one-item", "A sequence of one item is an array of one element.", encode({"k": "v"}),
       [{"k": "v"}], content_type=SEQ)
    ok("suffix-media-type", "A +cbor structured syntax suffix selects the CBOR serializer; charset is ignored.",
       encode({"ok": True}), {"ok": True}, content_type="application/vnd.example+cbor; charset=utf-8")
    ok("duplicate-keys-last-wins", "With the option duplicateKeys lastWins, the last value wins.",
       encode(Pairs([("a", 1), ("b", 2), ("a", 3)])), {"a": 3, "b": 2},
       extra={"serializer": "cbor", "options": {"duplicateKeys": "lastWins"}})
    ok("deep-nesting", "500 nested arrays (within the default maxDepth of 512) decode.",
       b"\x81" * 499 + b"\x80", json.loads("[" * 500 + "]" * 500))

    write("sequence-empty", http(200, "OK", [("Content-Type", SEQ)], b""),
          {"description": "An empty application/cbor-seq body is a sequence of no items.",
           "expect": {"serializer": "cbor", "value": []}})
    write("empty-cbor-body", http(200, "OK", [("Content-Type", CBOR)], b""),
          {"description": "An empty application/cbor body has no value: a CBOR document holds exactly one item.",
           "expect": {"error": {"code": "emptyBody"}}})

    body = encode({"error": "not_found", "detail": "No user 42."})
    write("404-cbor-body", http(404, "Not Found", [("Content-Type", CBOR)], body),
          {"description": "A 404 with a CBOR body is a status error that carries the decoded body.",
           "expect": {"error": {"code": "unacceptableStatusCode", "status": 404,
                                "errorValue": {"error": "not_found", "detail": "No user 42."}}}})

    error("truncated", "A text string whose length runs past the end of the body is not well-formed.",
          bytes.fromhex("a1616163616263"[:-2]), "invalidBody")
    error("reserved-additional-info", "Additional information 28 is reserved: not well-formed.",
          bytes.fromhex("821c01"), "invalidBody")
    error("break-outside-indefinite", "A break (0xff) inside a definite-length array is not well-formed.",
          bytes.fromhex("8201ff"), "invalidBody")
    error("wrong-chunk-type", "An indefinite-length text string may only hold definite text chunks.",
          bytes.fromhex("7f4161ff"), "invalidBody")
    error("invalid-utf8", "A text string that is not UTF-8 is rejected.", bytes.fromhex("62c328"), "invalidBody")
    error("duplicate-keys", "A map that repeats a key is rejected by default.",
          encode(Pairs([("a", 1), ("a", 2)])), "invalidBody")
    error("extra-bytes", "application/cbor holds exactly one item: a second one is an error (use cbor-seq).",
          encode(1) + encode(2), "invalidBody")
    error("huge-declared-length", "An array header declaring 2^60 elements fails at once as truncated.",
          bytes.fromhex("9b1000000000000000") + b"\x01", "invalidBody")
    error("too-deep", "600 nested arrays exceed the default maxDepth of 512.", b"\x81" * 600 + b"\x80",
          "limitExceeded")
    error("max-items", "The option maxItems bounds the declared number of items.", encode(list(range(10))),
          "limitExceeded", extra={"serializer": "cbor", "options": {"maxItems": 5}})


if __name__ == "__main__":
    main()
