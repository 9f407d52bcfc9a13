#!/usr/bin/env python3
"""Generates the expected bodies of the `form` writer tests (DecantForm) into Plugins/DecantForm/encoding-cases.json.

Expected bytes come from Python's standard library, never from Decant: `urllib.parse.urlencode(pairs,
quote_via=quote_plus)`, which encodes names and values as UTF-8, writes a space as `+` and escapes every other byte
outside its safe set as `%XX` with uppercase hex digits, as the WHATWG urlencoded serializer does. The two differ in
one place only, the bytes left as they are:

- WHATWG keeps ASCII letters and digits, `*`, `-`, `.` and `_` (the complement of the application/x-www-form-urlencoded
  percent-encode set, https://url.spec.whatwg.org/#application-x-www-form-urlencoded-percent-encode-set);
- `quote_plus` keeps ASCII letters and digits, `_`, `.`, `-` and `~` (RFC 3986's unreserved set).

So `*` is kept by WHATWG and escaped by Python (`%2A`), and `~` is escaped by WHATWG (`%7E`) and kept by Python. The
expected body is Python's output with those two spellings swapped, and the script checks it against a direct
implementation of the WHATWG serializer (`whatwg_serialize`, written from the standard's text) and, by parsing it
back with `parse_qsl(..., keep_blank_values=True)`, that it round-trips.

Field values that a Swift encoder spells (floats, dates) are computed here too: Python's `repr(float)` is the shortest
round-tripping spelling, as Swift's `Double.description` is; ISO 8601 dates come from `datetime.isoformat`.

Run from anywhere: `python3 Plugins/DecantForm/encoding_cases.py`. It rewrites encoding-cases.json and is
deterministic.
"""
import json
import os
import random
from datetime import datetime, timezone
from urllib.parse import parse_qsl, quote_plus, urlencode

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(HERE, "encoding-cases.json")

KEPT = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._")


def whatwg_serialize(pairs):
    """The WHATWG urlencoded serializer, written from the standard: UTF-8, space as '+', the rest of the
    application/x-www-form-urlencoded percent-encode set as %XX."""
    def encode(text):
        out = []
        for byte in text.encode("utf-8"):
            if byte in KEPT:
                out.append(chr(byte))
            elif byte == 0x20:
                out.append("+")
            else:
                out.append("%%%02X" % byte)
        return "".join(out)
    return "&".join(encode(name) + "=" + encode(value) for name, value in pairs)


def expected_body(pairs):
    """Python's urlencode with the two documented differences swapped (see the module docstring)."""
    body = urlencode(pairs, quote_via=quote_plus)
    # After quote_plus, '*' appears only as %2A and '~' only as itself: no other escape contains either.
    body = body.replace("~", "%7E").replace("%2A", "*")
    assert body == whatwg_serialize(pairs), (pairs, body, whatwg_serialize(pairs))
    assert parse_qsl(body, keep_blank_values=True) == [tuple(p) for p in pairs] or not pairs, pairs
    return body


def case(name, pairs, description):
    return {"name": name, "description": description, "pairs": [list(p) for p in pairs], "body": expected_body(pairs)}


WRITER_CASES = [
    case("simple", [("name", "Ada"), ("lang", "en")], "Two fields in order."),
    case("empty", [], "No fields: an empty body."),
    case("spaces-and-plus", [("q", "hello world"), ("plus", "+1 2"), (" ", " ")],
         "A space is '+'; a plus sign is escaped."),
    case("delimiters", [("a&b", "c=d"), ("path", "/a/b?c#d"), ("pct", "100%"), ("semi", "a;b,c:d@e")],
         "The body's delimiters and the URL's are escaped in names and values."),
    case("whatwg-kept", [("kept", "AZaz09*-._"), ("escaped", "~!'()")],
         "Kept: letters, digits, '*', '-', '.', '_'. Escaped: '~', '!', quote, parentheses (Python keeps '~')."),
    case("printable-ascii", [("all", "".join(chr(c) for c in range(0x20, 0x7F)))],
         "Every printable ASCII character in one value."),
    case("controls", [("nul", "\x00"), ("crlf", "line1\r\nline2"), ("tab", "\t"), ("del", "\x7f")],
         "Control characters are escaped."),
    case("unicode", [("name", "Café"), ("han", "日本語"), ("emoji", "😀👍🏽"), ("€", "€")],
         "Text is UTF-8, every byte escaped; non-BMP characters are four bytes."),
    case("special-scalars", [("bom", "\ufeffa"), ("replacement", "\ufffd"), ("combining", "e\u0301"),
                             ("max", "\U0010ffff"), ("nonchar", "\ufdd0\ufffe")],
         "A BOM, U+FFFD, a combining mark and the last scalar are written as their UTF-8 bytes."),
    case("empty-names-and-values", [("", ""), ("", "v"), ("n", "")], "Empty names and values keep their '='."),
    case("repeated-names", [("tag", "a"), ("x", "1"), ("tag", "b"), ("tag", "")],
         "Repeated names are written as often as they occur, in order."),
]

# Seeded random pairs from all of Unicode (surrogates excluded: they are no scalar values), weighted towards the
# characters the format treats specially.
SPECIAL = ["+", "%", "&", "=", " ", "*", "~", "-", ".", "_", "%2B", "%%", "\x00", "\ufeff", "é", "😀"]


def random_text(rng):
    chars = []
    for _ in range(rng.randrange(0, 12)):
        pick = rng.random()
        if pick < 0.35:
            chars.append(rng.choice(SPECIAL))
        elif pick < 0.55:
            chars.append(chr(rng.randrange(0x20, 0x7F)))
        elif pick < 0.75:
            chars.append(chr(rng.randrange(0x80, 0x800)))
        elif pick < 0.9:
            code = rng.randrange(0x800, 0x10000)
            chars.append(chr(code if not 0xD800 <= code <= 0xDFFF else 0xE000))
        else:
            chars.append(chr(rng.randrange(0x10000, 0x110000)))
    return "".join(chars)


def generated_cases():
    rng = random.Random(0x5EED_F0E7)
    cases = []
    for index in range(100):
        pairs = [(random_text(rng), random_text(rng)) for _ in range(rng.randrange(1, 4))]
        cases.append(case("generated-%d" % index, pairs, "Seeded random pairs."))
    return cases


# Encoder cases: the pairs a FormEncoder should produce for the Swift types in FormEncoderTests, and their bodies.
# Field values that Swift spells are computed here.
MAY_DAY = datetime(2024, 5, 1, 12, 0, 0, tzinfo=timezone.utc)
REFERENCE_DATE = datetime(2001, 1, 1, tzinfo=timezone.utc)
SECONDS_1970 = MAY_DAY.timestamp()
SECONDS_2001 = (MAY_DAY - REFERENCE_DATE).total_seconds()
QUARTER_PAST = datetime(2024, 5, 1, 12, 0, 0, 250000, tzinfo=timezone.utc)

LOGIN = [("user_name", "ada l"), ("scopes", "read"), ("scopes", "write"), ("remember", "true")]
ENCODER_CASES = [
    case("login", LOGIN, "A flat struct with snake_case keys, an array and a Bool; a nil optional is omitted."),
    case("login-brackets", [("user_name", "ada l"), ("scopes[]", "read"), ("scopes[]", "write"),
                            ("remember", "true")], "Arrays as name[]."),
    case("login-indexed", [("user_name", "ada l"), ("scopes[0]", "read"), ("scopes[1]", "write"),
                           ("remember", "true")], "Arrays as name[index]."),
    case("login-numeric", [("user_name", "ada l"), ("scopes", "read"), ("scopes", "write"), ("remember", "1")],
         "Booleans as 1 and 0."),
    case("numbers", [("int", "-42"), ("uint8", "255"), ("int64", str(-2**63)), ("uint64", str(2**64 - 1)),
                     ("double", repr(0.1 + 0.2)), ("whole", repr(3.0)), ("small", repr(1e-7)), ("big", repr(1e16)),
                     ("float", repr(0.5))],
         "Integers in decimal, floating-point numbers in their shortest round-tripping spelling."),
    case("dates-deferred", [("at", repr(SECONDS_2001))], "Date's own encoding: seconds since 2001 (the default)."),
    case("dates-seconds", [("at", repr(SECONDS_1970))], "secondsSince1970."),
    case("dates-milliseconds", [("at", repr(SECONDS_1970 * 1000))], "millisecondsSince1970."),
    case("dates-iso8601", [("at", MAY_DAY.isoformat().replace("+00:00", "Z"))], "iso8601."),
    case("dates-iso8601-fractional",
         [("at", QUARTER_PAST.isoformat(timespec="milliseconds").replace("+00:00", "Z"))],
         "iso8601WithFractionalSeconds."),
    case("dictionary", sorted([("b", "2"), ("a b", "1"), ("A", "3"), ("é", "4")], key=lambda p: p[0].encode("utf-8")),
         "A [String: String], sorted by the UTF-8 bytes of the names."),
]


def main():
    document = {
        "generator": "Plugins/DecantForm/encoding_cases.py",
        "writer": WRITER_CASES + generated_cases(),
        "encoder": ENCODER_CASES,
    }
    with open(OUTPUT, "w", encoding="utf-8") as file:
        json.dump(document, file, ensure_ascii=True, indent=1)
        file.write("\n")


if __name__ == "__main__":
    main()
