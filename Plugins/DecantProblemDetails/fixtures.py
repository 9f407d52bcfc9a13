#!/usr/bin/env python3
"""Writes the conformance fixtures of the DecantProblemDetails plugin into Fixtures/problemDetails/.

Each fixture is a raw HTTP/1.1 response (`.http`) and an expectation (`.expect.json`) in the canonical form of
`ProblemDetails`: {"type", "title", "status", "detail", "instance", "extensions": {...}}, absent members left out
(`type` defaults to "about:blank"; `extensions` only when there are some).

Expected values come from Python's standard library, never from Decant: `json.loads` reads JSON bodies,
`xml.etree.ElementTree` reads XML bodies, and `urllib.parse.urljoin` resolves relative `type` and `instance`
references against the request URL (RFC 3986 §5). The rules applied here are RFC 9457's: members of the wrong type
are ignored (§3.1), every other member is an extension (§3.2); the XML mapping is the one the plugin documents
(Appendix B: text is a string, children all named `i` an array, other children an object).

Run from anywhere: `python3 Plugins/DecantProblemDetails/fixtures.py`. The output is deterministic.
"""
import json
import os
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from urllib.parse import urljoin

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "Fixtures", "problemDetails")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures"))
sys.dont_write_bytecode = True  # no __pycache__ in Fixtures/
import generate as fixture_files  # noqa: E402
NS = "urn:ietf:rfc:7807"
STANDARD = ("type", "title", "status", "detail", "instance")


def http(status, reason, content_type, body):
    """A raw HTTP/1.1 message with a Content-Length (as Fixtures/generate.py writes them)."""
    return fixture_files.http(status, reason, [] if content_type is None else [("Content-Type", content_type)], body)


def resolve(reference, base):
    return urljoin(base, reference) if base else reference


def canonical(members, extensions, base):
    """The canonical form from a problem's members (already type-checked) and its extensions."""
    out = {"type": resolve(members["type"], base) if "type" in members else "about:blank"}
    for name in ("title", "status", "detail"):
        if name in members:
            out[name] = members[name]
    if "instance" in members:
        out["instance"] = resolve(members["instance"], base)
    if extensions:
        out["extensions"] = extensions
    return out


def from_json(document, base):
    """RFC 9457 §3.1: a member of the wrong type is ignored; other members are extensions."""
    members, extensions = {}, {}
    for name, value in document.items():
        if name in ("type", "title", "detail", "instance"):
            if isinstance(value, str):
                members[name] = value
        elif name == "status":
            if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer():
                members[name] = int(value)
        else:
            extensions[name] = value
    return canonical(members, extensions, base)


def local(tag):
    return tag.split("}", 1)[1] if tag.startswith("{") else tag


def in_ns(element):
    return element.tag.startswith("{" + NS + "}")


def xml_value(element):
    children = [child for child in element if in_ns(child)]
    if not children:
        return element.text or ""
    if all(local(child.tag) == "i" for child in children):
        return [xml_value(child) for child in children]
    out = {}
    for child in children:
        out[local(child.tag)] = xml_value(child)
    return out


def from_xml(body, base):
    root = ET.fromstring(body)
    assert root.tag == "{" + NS + "}problem"
    members, extensions = {}, {}
    for child in root:
        if not in_ns(child):
            continue
        name = local(child.tag)
        has_children = any(in_ns(grandchild) for grandchild in child)
        if name in STANDARD:
            members.pop(name, None)
            if has_children:
                continue
            text = child.text or ""
            if name in ("type", "instance"):
                members[name] = text.strip(" \t\r\n")
            elif name == "status":
                digits = text.strip(" \t\r\n")
                if re.fullmatch(r"\+?[0-9]+", digits) and int(digits) > 0:
                    members[name] = int(digits)
            else:
                members[name] = text
        else:
            extensions[name] = xml_value(child)
    return canonical(members, extensions, base)


cases = []


def add(name, description, status, reason, content_type, body, expect, url=None, **extra):
    expectation = {"description": description}
    if url:
        expectation["request"] = {"url": url}
    expectation.update(extra)
    expectation["expect"] = expect
    cases.append((name, http(status, reason, content_type, body), expectation))


def problem_json(name, description, status, reason, text, url=None, content_type="application/problem+json",
                 encoding="utf-8"):
    body = text.encode(encoding)
    value = from_json(json.loads(text.lstrip("\ufeff")), url)
    if status < 300:
        expect = {"serializer": "problemDetails", "value": value}
    else:
        expect = {"error": {"code": "unacceptableStatusCode", "status": status, "errorValue": value}}
    add(name, description, status, reason, content_type, body, expect, url)


def problem_xml(name, description, status, reason, text, url=None, content_type="application/problem+xml",
                encoding="utf-8"):
    body = text.encode(encoding)
    value = from_xml(text, url)  # decoded by its charset, as the parser must
    if status < 300:
        expect = {"serializer": "problemDetails", "value": value}
    else:
        expect = {"error": {"code": "unacceptableStatusCode", "status": status, "errorValue": value}}
    add(name, description, status, reason, content_type, body, expect, url)


def error(name, description, status, reason, content_type, body, code):
    add(name, description, status, reason, content_type, body, {"error": {"code": code}},
        serializer="problemDetails")


# ---------------------------------------------------------------- JSON

# The out-of-credit example of RFC 9457 §3, with its relative instance.
problem_json(
    "json-rfc9457-out-of-credit-403",
    "RFC 9457 §3's example: a 403 status error carrying the problem, its relative instance resolved.",
    403, "Forbidden",
    '{\n "type": "https://example.com/probs/out-of-credit",\n "title": "You do not have enough credit.",\n'
    ' "detail": "Your current balance is 30, but that costs 50.",\n "instance": "/account/12345/msgs/abc",\n'
    ' "balance": 30,\n "accounts": ["/account/12345",\n              "/account/67890"]\n}\n',
    url="https://example.com/account/12345/msgs")
# The validation example of RFC 9457 §3 (an extension holding an array of objects).
problem_json(
    "json-rfc9457-validation-422",
    "RFC 9457 §3's validation example: the errors extension keeps its objects.",
    422, "Unprocessable Content",
    '{\n "type": "https://example.net/validation-error",\n "title": "Your request is not valid.",\n'
    ' "errors": [\n   {"detail": "must be a positive integer", "pointer": "#/age"},\n'
    '   {"detail": "must be \'green\', \'red\' or \'blue\'", "pointer": "#/profile/color"}\n ]\n}\n')
problem_json(
    "json-200-value", "A 200 problem+json body is the value of the problemDetails serializer.", 200, "OK",
    '{"type": "https://example.com/probs/maintenance", "title": "Scheduled maintenance", "status": 200, '
    '"detail": "Back at 10:00.", "instance": "https://example.com/events/9"}')
problem_json(
    "json-500-about-blank", "A 500 without a type gets about:blank (RFC 9457 §3.1.1).", 500,
    "Internal Server Error", '{"title": "Internal Server Error", "status": 500}')
problem_json(
    "json-wrong-typed-members", "Members of the wrong type are ignored (RFC 9457 §3.1); extensions stay.", 200, "OK",
    '{"type": 42, "title": 5, "status": "500", "detail": null, "instance": ["x"], "code": "E1", "retry": true}')
problem_json(
    "json-status-integral-float", "A status written 503.0 is the integer 503.", 503, "Service Unavailable",
    '{"type": "https://example.com/probs/busy", "status": 503.0, "title": "Busy"}')
problem_json(
    "json-status-fraction-ignored", "A status with a fraction is not an integer and is ignored.", 200, "OK",
    '{"status": 404.5, "title": "Odd"}')
problem_json(
    "json-relative-type", "A relative type is resolved against the response URL (RFC 9457 §3.1.1).", 404,
    "Not Found", '{"type": "../probs/no-such-order", "title": "No such order", "instance": "7?view=full"}',
    url="https://shop.example/api/v2/orders/7")
problem_json(
    "json-relative-without-url", "Without a response URL a relative type stays relative.", 200, "OK",
    '{"type": "/probs/relative", "title": "Relative"}')
problem_json(
    "json-duplicate-member-last-wins", "A repeated member keeps its last value, as in Python's json.", 200, "OK",
    '{"title": "first", "title": "second", "zeta": 1, "alpha": 2, "zeta": 3}')
problem_json(
    "json-charset-and-unicode", "A charset parameter is accepted and non-ASCII text kept.", 409, "Conflict",
    '{"title": "Konflikt: Ünïcödé ✓", "detail": "日本語", "status": 409}',
    content_type="application/problem+json; charset=utf-8")
problem_json(
    "json-utf16le-bom", "UTF-16LE with a byte order mark is detected (RFC 8259 §8.1).", 400, "Bad Request",
    '\ufeff{"title": "Bad input", "status": 400, "field": "naïve"}', encoding="utf-16-le")

error("json-error-array-body", "A JSON array is not a problem details object.", 200, "OK",
      "application/problem+json", b'[{"title": "x"}]', "problemDetails.notAProblemDocument")
error("json-error-scalar-body", "A JSON string is not a problem details object.", 200, "OK",
      "application/problem+json", b'"oops"', "problemDetails.notAProblemDocument")
error("json-error-syntax", "Malformed JSON is invalidBody.", 200, "OK", "application/problem+json",
      b'{"title": "unterminated', "invalidBody")
add("json-error-max-depth-option", "maxDepth bounds the nesting of extension members.", 200, "OK",
    "application/problem+json", b'{"a": {"b": {"c": {"d": 1}}}}', {"error": {"code": "limitExceeded"}},
    serializer="problemDetails", options={"maxDepth": 3})

# ---------------------------------------------------------------- XML

# The out-of-credit example of RFC 9457 Appendix B.
problem_xml(
    "xml-rfc9457-out-of-credit-403",
    "RFC 9457 Appendix B's example: balance is a string, accounts an array of its i elements.",
    403, "Forbidden",
    '<?xml version="1.0" encoding="UTF-8"?>\n<problem xmlns="urn:ietf:rfc:7807">\n'
    '  <type>https://example.com/probs/out-of-credit</type>\n  <title>You do not have enough credit.</title>\n'
    '  <detail>Your current balance is 30, but that costs 50.</detail>\n'
    '  <instance>https://example.net/account/12345/msgs/abc</instance>\n  <balance>30</balance>\n'
    '  <accounts>\n    <i>https://example.net/account/12345</i>\n    <i>https://example.net/account/67890</i>\n'
    '  </accounts>\n</problem>\n')
problem_xml(
    "xml-200-nested-extension", "An extension with named children is an object; CDATA is text.", 200, "OK",
    '<problem xmlns="urn:ietf:rfc:7807"><title>Partial</title><status> 200 </status>'
    '<limits><daily>100</daily><used><![CDATA[<90>]]></used><tags><i>a</i><i>b &amp; c</i></tags></limits>'
    '<empty/></problem>')
problem_xml(
    "xml-wrong-typed-members", "A non-numeric status and a title with child elements are ignored.", 400,
    "Bad Request",
    '<problem xmlns="urn:ietf:rfc:7807"><status>four hundred</status><title><b>bold</b></title>'
    '<detail>Kept</detail><other:note xmlns:other="urn:example:other">foreign, ignored</other:note>'
    '<code>E42</code></problem>')
problem_xml(
    "xml-relative-instance", "Relative type and instance are resolved against the response URL.", 404,
    "Not Found",
    '<p:problem xmlns:p="urn:ietf:rfc:7807"><p:type>/probs/missing</p:type>'
    '<p:instance> ../items/9 </p:instance><p:status>+404</p:status></p:problem>',
    url="http://api.example.org/v1/items/8/view")
problem_xml(
    "xml-repeated-members", "A repeated member keeps the last one, absent when that one has the wrong content.",
    200, "OK",
    '<problem xmlns="urn:ietf:rfc:7807"><type>urn:first</type><type><x/></type><status>410</status>'
    '<title>one</title><title>two</title><n>1</n><n><i>2</i></n></problem>')
problem_xml(
    "xml-latin1-charset", "The charset parameter decodes the XML body.", 200, "OK",
    '<problem xmlns="urn:ietf:rfc:7807"><title>Caf\u00e9 ferm\u00e9</title></problem>',
    content_type="application/problem+xml; charset=iso-8859-1", encoding="latin-1")

error("xml-error-wrong-root", "An XML root other than problem is not a problem document.", 200, "OK",
      "application/problem+xml", b'<error xmlns="urn:ietf:rfc:7807"><title>x</title></error>',
      "problemDetails.notAProblemDocument")
error("xml-error-no-namespace", "problem outside the urn:ietf:rfc:7807 namespace is not a problem document.", 200,
      "OK", "application/problem+xml", b"<problem><title>x</title></problem>", "problemDetails.notAProblemDocument")
error("xml-error-malformed", "Malformed XML is invalidBody.", 200, "OK", "application/problem+xml",
      b'<problem xmlns="urn:ietf:rfc:7807"><title>x</problem>', "invalidBody")


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    for name, raw, expectation in cases:
        with open(os.path.join(OUT, name + ".http"), "wb") as f:
            f.write(raw)
        with open(os.path.join(OUT, name + ".expect.json"), "w", encoding="utf-8") as f:
            json.dump(expectation, f, ensure_ascii=False, indent=2)
            f.write("\n")
    print(f"{len(cases)} fixtures in {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
