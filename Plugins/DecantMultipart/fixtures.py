#!/usr/bin/env python3
"""Generates the conformance fixtures of the `multipart` serializer (DecantMultipart) into Fixtures/multipart/.

Bodies are written by Python's `email` package (email.mime + email.generator.BytesGenerator with policy.HTTP, so
CRLF line ends and no folding) or, for edge cases the generator never writes (LF-only line ends, transport padding,
raw UTF-8 in a quoted name, a `--boundaryX` line), as literal bytes. Every expected value is computed by parsing the
body back with `email.parser.BytesParser` (policy compat32, the parser that keeps raw header values):

- headers: `part.raw_items()`, each value unfolded (line breaks removed, RFC 5322 §2.2.3) and stripped; non-ASCII bytes
  are read as UTF-8;
- preamble and epilogue: `msg.preamble` / `msg.epilogue`, `null` when absent or empty;
- part bytes: `part.get_payload(decode=True)` (which undoes base64 and quoted-printable);
- values, as the registry for parts (`SerializerRegistry.standard` plus `data`) gives them: `application/json` with
  `json.loads` (a part it rejects has the error `invalidBody`); `text/*` as {"text": bytes.decode(charset), "encoding": WHATWG name}; anything else as
  {"data_base64": base64}; a `multipart/*` part as this form again. In `multipart/form-data`, a text part without a
  charset takes the charset of the `_charset_` field (RFC 7578 §4.6).

Run from anywhere: `python3 Plugins/DecantMultipart/fixtures.py`. It rewrites Fixtures/multipart/ and is
deterministic (boundaries are fixed).
"""
import base64
import io
import json
import os
import shutil
import sys
from email import policy
from email.charset import QP, Charset
from email.generator import BytesGenerator
from email.mime.application import MIMEApplication
from email.mime.base import MIMEBase
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.parser import BytesParser

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.join(HERE, "..", "..", "Fixtures", "multipart")
# Raw messages and expectation files are written as Fixtures/generate.py writes the built-in formats' fixtures.
sys.path.insert(0, os.path.join(HERE, "..", "..", "Fixtures"))
sys.dont_write_bytecode = True  # no __pycache__ in Fixtures/
import generate as fixture_files  # noqa: E402
from generate import http  # noqa: E402

# Python codec names to WHATWG encoding names, for the charsets used below.
WHATWG = {"utf-8": "UTF-8", "us-ascii": "windows-1252", "windows-1252": "windows-1252", "iso-8859-1": "windows-1252"}


def write(name, raw, expectation):
    fixture_files.write(os.path.basename(FOLDER), name, raw, expectation)


def generate(message):
    """The Content-Type value and the body bytes of a MIME message, as email.generator writes them for HTTP."""
    buffer = io.BytesIO()
    BytesGenerator(buffer, policy=policy.HTTP).flatten(message)
    head, body = buffer.getvalue().split(b"\r\n\r\n", 1)
    return message["Content-Type"], body


def raw_text(value):
    """A compat32 header value as text: surrogate-escaped bytes read as UTF-8, unfolded, stripped."""
    data = value.encode("ascii", "surrogateescape") if isinstance(value, str) else str(value).encode()
    return data.decode("utf-8", "replace").replace("\r\n", "").replace("\n", "").strip()


def text_or_null(value):
    if value is None or value == "":
        return None
    return value.encode("ascii", "surrogateescape").decode("utf-8", "replace")


def canonical(message, form_charset=None):
    """The canonical form of a parsed multipart message (see the module docstring)."""
    is_form = message.get_content_subtype() == "form-data"
    parts = message.get_payload()
    if is_form and form_charset is None:
        for part in parts:
            if part.get_param("name", header="content-disposition") == "_charset_":
                form_charset = part.get_payload(decode=True).decode("ascii").strip()
    return {
        "parts": [part_form(part, form_charset if is_form else None) for part in parts],
        "preamble": text_or_null(message.preamble),
        "epilogue": text_or_null(message.epilogue),
    }


def part_form(part, form_charset):
    headers = [[name, raw_text(value)] for name, value in part.raw_items()]
    content_type = part.get_content_type()
    if part.is_multipart():
        return {"headers": headers, "serializer": "multipart", "value": canonical(part), "error": None}
    payload = part.get_payload(decode=True)
    if content_type == "application/json":
        try:
            value, serializer = json.loads(payload.decode("utf-8")), "json"
        except ValueError:
            # Python rejects the JSON too: the part keeps its parse error.
            return {"headers": headers, "serializer": None, "value": None, "error": "invalidBody"}
    elif part.get_content_maintype() == "text":
        charset = part.get_param("charset") or form_charset or "utf-8"
        charset = charset.lower()
        value = {"text": payload.decode(charset), "encoding": WHATWG[charset]}
        serializer = "string"
    else:
        value, serializer = {"data_base64": base64.b64encode(payload).decode("ascii")}, "data"
    return {"headers": headers, "serializer": serializer, "value": value, "error": None}


def parse(content_type, body):
    return BytesParser(policy=policy.compat32).parsebytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)


def ok(name, description, content_type, body, status=200, reason="OK", patch=None, extra=None):
    expected = canonical(parse(content_type, body))
    if patch:
        patch(expected)
    raw = http(status, reason, [("Content-Type", content_type)], body)
    expectation = {"description": description, **(extra or {}), "expect": {"serializer": "multipart", "value": expected}}
    write(name, raw, expectation)


def error(name, description, content_type, body, code):
    raw = http(200, "OK", [("Content-Type", content_type)], body)
    write(name, raw, {"description": description, "expect": {"error": {"code": code}}})


def utf8_8bit():
    charset = Charset("utf-8")
    charset.body_encoding = None
    return charset


def text(content, subtype="plain", charset="us-ascii"):
    return MIMEText(content, subtype, charset)


def multipart(subtype, boundary, parts, preamble=None, epilogue=None):
    message = MIMEMultipart(subtype, boundary=boundary)
    for part in parts:
        message.attach(part)
    message.preamble = preamble
    message.epilogue = epilogue
    return message


def form_field(part, name, filename=None):
    if filename is None:
        part.add_header("Content-Disposition", "form-data", name=name)
    else:
        part.add_header("Content-Disposition", "form-data", name=name, filename=filename)
    return part


BINARY = bytes(range(256)) + b"\x00\xff\r\n--b\r\n"


def main():
    shutil.rmtree(FOLDER, ignore_errors=True)
    os.makedirs(FOLDER)

    json_part = MIMEApplication(json.dumps({"id": 7, "tags": ["a", "b"], "ratio": 0.5}).encode(), "json",
                                _encoder=lambda m: m.add_header("Content-Transfer-Encoding", "8bit"))
    mixed = multipart("mixed", "mixed-7e3a", [
        json_part,
        text("Hello, world.\r\nSecond line."),
        MIMEApplication(BINARY, "octet-stream"),
    ])
    ok("mixed-json-text-binary", "multipart/mixed with a JSON part, a text part and a base64 binary part, each "
       "decoded by its own media type.", *generate(mixed))

    alternative = multipart("alternative", "alt==42", [
        text("Plain version"),
        MIMEText("Caf\u00e9 \u2615 version", "plain", "utf-8"),
    ])
    ok("alternative", "multipart/alternative; the UTF-8 text part is base64, as Python's email writes it.",
       *generate(alternative))

    related_root = MIMEApplication(b'{"root": true}', "json",
                                   _encoder=lambda m: m.add_header("Content-Transfer-Encoding", "7bit"))
    related_root.add_header("Content-ID", "<root@example.com>")
    attachment = MIMEApplication(b"\x89PNG-not-really", "octet-stream")
    attachment.add_header("Content-ID", "<blob@example.com>")
    related = multipart("related", "rel.boundary_1", [related_root, attachment])
    content_type, body = generate(related)
    ok("related", "multipart/related with a type parameter; parts carry Content-ID.",
       content_type + '; type="application/json"', body)

    qp_charset = Charset("utf-8")
    qp_charset.body_encoding = QP
    qp = MIMEText("", "plain")
    qp.set_payload("na\u00efve caf\u00e9 = 100% " + "long line " * 10, qp_charset)
    ok("quoted-printable", "A quoted-printable part with soft line breaks and =XX escapes is decoded.",
       *generate(multipart("mixed", "qp-b", [qp])))

    upload = MIMEApplication(BINARY, "octet-stream")
    form = multipart("form-data", "----WebKitFormBoundary7MA4YWxkTrZu0gW", [
        form_field(text("Ada"), "name"),
        form_field(upload, "file", "report.bin"),
    ])
    ok("form-data-file-upload", "multipart/form-data with a text field and a file upload (filename parameter).",
       *generate(form))

    euro = MIMEApplication(b"rates", "octet-stream")
    euro.add_header("Content-Disposition", "form-data", name="doc", filename=("utf-8", "", "\u20ac rates.txt"))
    ok("form-data-filename-star", "filename* (RFC 8187, UTF-8''%E2%82%AC...) as Python's email writes it.",
       *generate(multipart("form-data", "fstar", [euro])))

    body = (b"--xyz\r\nContent-Disposition: form-data; name=\"_charset_\"\r\n\r\nwindows-1252\r\n"
            b"--xyz\r\nContent-Disposition: form-data; name=\"city\"\r\n\r\nZ\xfcrich caf\xe9\r\n"
            b"--xyz\r\nContent-Disposition: form-data; name=\"r\xc3\xa9sum\xc3\xa9\"; filename=\"\xe2\x82\xac.txt\"\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\n\r\n\xe2\x82\xac\r\n--xyz--\r\n")
    ok("form-data-charset-field", "The _charset_ field gives windows-1252 to text fields without a charset; raw "
       "UTF-8 in quoted name and filename parameters.", "multipart/form-data; boundary=xyz", body)

    inner = multipart("alternative", "inner-b", [text("inner plain"), text("<p>inner</p>", "html")])
    outer = multipart("mixed", "outer-b", [text("first"), inner])
    ok("nested-two-levels", "A multipart/alternative part inside multipart/mixed is parsed recursively.",
       *generate(outer))

    def byterange(data, first, last, length, content_type="text/plain"):
        part = MIMEBase(*content_type.split("/"))
        part.set_payload(data)
        part.add_header("Content-Range", f"bytes {first}-{last}/{length}")
        return part

    ranges = multipart("byteranges", "THIS_STRING_SEPARATES", [
        byterange("...the first range...", 500, 520, 8000),
        byterange("...the second range", 7000, 7019, "*"),
    ])
    ok("byteranges", "multipart/byteranges in a 206 response; each part has a Content-Range.", *generate(ranges),
       status=206, reason="Partial Content")

    body = (b"--br\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-4/10\r\n\r\nhello\r\n"
            b"--br\r\nContent-Type: text/plain\r\n\r\nworld\r\n--br--\r\n")

    def range_error(expected):
        expected["parts"][1].update(serializer=None, value=None, error="invalidBody")

    ok("byteranges-missing-content-range", "A byteranges part without Content-Range has its own error; the other "
       "part keeps its value.", "multipart/byteranges; boundary=br", body, status=206, reason="Partial Content",
       patch=range_error)

    ok("preamble-epilogue", "The preamble and epilogue are kept.", *generate(multipart(
        "mixed", "pe", [text("body")], preamble="This is a message with multiple parts in MIME format.",
        epilogue="This is the epilogue.\r\nIt is also to be ignored.\r\n")))

    body = (b"--pad \t\r\nContent-Type: text/plain\r\n\r\none\r\n--pad\t\r\n\r\ntwo\r\n--pad--  \r\n")
    ok("transport-padding", "Spaces and tabs after a delimiter (transport padding) are ignored; the second part "
       "has no header fields.", "multipart/mixed; boundary=pad", body)

    body = (b"preamble\n--lf\nContent-Type: application/json\n\n{\"a\": [1, 2]}\n--lf\n"
            b"Content-Type: text/plain\nX-Folded: one\n two\n\nline 1\nline 2\n--lf--\n")
    ok("lf-only", "A body written with bare LF line ends throughout; a folded header field is unfolded.",
       "multipart/mixed; boundary=lf", body)

    body = (b"--bnd\r\nContent-Type: text/plain\r\n\r\nline\r\n--bndX is not a delimiter\r\n--bnd-- neither\r\n"
            b"-- bnd\r\n--bnd\r\n\r\nlast\r\n--bnd--")
    ok("boundary-prefix-lines", "Lines that merely start with --boundary followed by other characters are body "
       "content; the close delimiter may end the body without a line break.", "multipart/mixed; boundary=bnd", body)

    body = b"--simple boundary\r\nContent-Type: text/plain\r\n\r\nquoted\r\n--simple boundary--\r\n"
    ok("quoted-boundary", "A quoted boundary with a space (RFC 2046's own example).",
       'multipart/mixed; boundary="simple boundary"', body)

    body = b"--e\r\nContent-Type: text/plain\r\n\r\n\r\n--e\r\n\r\n\r\n--e--\r\n"
    ok("empty-parts", "Parts with an empty body (one with headers, one without).", "multipart/mixed; boundary=e", body)

    body = (b"--m\r\nContent-Type: application/json\r\n\r\n{\"broken\": \r\n"
            b"--m\r\nContent-Type: application/json\r\n\r\n{\"fine\": true}\r\n--m--\r\n")
    ok("malformed-json-part", "A JSON part that does not parse (json.loads rejects it) keeps its error "
       "(invalidBody); the next part is fine and the body succeeds.", "multipart/mixed; boundary=m", body)

    error("no-boundary", "multipart/mixed without a boundary parameter is an error.", "multipart/mixed",
          b"--x\r\n\r\nhi\r\n--x--\r\n", "invalidBody")
    error("missing-close-delimiter", "A body that ends before its close delimiter (truncated) is an error.",
          "multipart/mixed; boundary=t", b"--t\r\nContent-Type: text/plain\r\n\r\nhello, wor", "invalidBody")
    error("no-opening-delimiter", "A body without any delimiter line is an error.", "multipart/mixed; boundary=q",
          b"just some text\r\n--qq\r\n", "invalidBody")

    nested = text("deepest")
    for level in range(5):
        nested = multipart("mixed", f"level{level}", [nested])
    error("too-deep-nesting", "Five levels of multipart exceed the default maxDepth (4): limitExceeded.",
          *generate(nested), "limitExceeded")

    content_type, body = generate(multipart("mixed", "nf", [
        MIMEApplication(b'{"error": "not_found"}', "json",
                        _encoder=lambda m: m.add_header("Content-Transfer-Encoding", "7bit"))]))
    raw = http(404, "Not Found", [("Content-Type", content_type)], body)
    write("404-multipart", raw, {
        "description": "A 404 is a status error that carries the decoded multipart body.",
        "expect": {"error": {"code": "unacceptableStatusCode", "status": 404,
                             "errorValue": canonical(parse(content_type, body))}},
    })


if __name__ == "__main__":
    main()
