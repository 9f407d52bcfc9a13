#!/usr/bin/env python3
"""Writes the DecantCSV conformance fixtures into Fixtures/csv/: raw HTTP responses (`.http`) and expectations
(`.expect.json`). Expected tables come from Python's `csv` module (`csv.reader(..., strict=True)`, blank lines
dropped), never from Decant. Run from anywhere: `python3 Plugins/DecantCSV/fixtures.py`. The output is deterministic.
"""
import csv
import io
import json
import os
import shutil
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures", "csv")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures"))
sys.dont_write_bytecode = True  # no __pycache__ in Fixtures/
import generate as fixture_files  # noqa: E402


def http(status, reason, content_type, body):
    """A raw HTTP/1.1 message with a Content-Length (as Fixtures/generate.py writes them)."""
    return fixture_files.http(status, reason, [] if content_type is None else [("Content-Type", content_type)], body)


def table(text, header=True, delimiter=",", quoting=csv.QUOTE_MINIMAL, strip=False):
    reader = csv.reader(io.StringIO(text, newline=""), strict=True, delimiter=delimiter, quoting=quoting,
                        skipinitialspace=strip)
    rows = [row for row in reader if row]
    if strip:
        rows = [[field.strip(" ") for field in row] for row in rows]
    if header and rows:
        return {"header": rows[0], "rows": rows[1:]}
    return {"header": None, "rows": rows}


def write(name, description, raw, expect, **extra):
    with open(os.path.join(ROOT, name + ".http"), "wb") as f:
        f.write(raw)
    expectation = {"description": description}
    expectation.update(extra)
    expectation["expect"] = expect
    with open(os.path.join(ROOT, name + ".expect.json"), "w", encoding="utf-8") as f:
        json.dump(expectation, f, ensure_ascii=False, indent=2)
        f.write("\n")


def value(text, **kwargs):
    return {"serializer": "csv", "value": table(text, **kwargs)}


def main():
    shutil.rmtree(ROOT, ignore_errors=True)
    os.makedirs(ROOT)
    people = "name,age,city\r\nAda,36,London\r\nGrace,85,Arlington\r\n"
    write("simple-crlf", "RFC 4180 records with CRLF line ends; the first is the header.",
          http(200, "OK", "text/csv", people.encode()), value(people))
    lf = people.replace("\r\n", "\n")
    write("lf-line-ends", "LF line ends are accepted.", http(200, "OK", "text/csv", lf.encode()), value(lf))
    cr = people.replace("\r\n", "\r")
    write("cr-line-ends", "Old Mac CR line ends are accepted.", http(200, "OK", "text/csv", cr.encode()), value(cr))
    last = "a,b\n1,2"
    write("no-final-line-end", "The last record may lack a line end.",
          http(200, "OK", "text/csv; charset=utf-8", last.encode()), value(last))
    quoted = 'name,notes\n"Smith, J","said ""hi"" twice"\n'
    write("quoted-commas-and-quotes", "Quoted fields hold delimiters, and a doubled quote is one quote.",
          http(200, "OK", "text/csv", quoted.encode()), value(quoted))
    newlines = 'id,text\n1,"first line\nsecond line"\n2,"crlf\r\ninside"\n'
    write("embedded-line-ends", "Quoted fields hold line ends, kept as they are.",
          http(200, "OK", "text/csv", newlines.encode()), value(newlines))
    write("header-absent", "header=absent (RFC 7111): every record is data.",
          http(200, "OK", "text/csv; header=absent", b"1,2\n3,4\n"), value("1,2\n3,4\n", header=False))
    write("header-present", "header=present is the default made explicit.",
          http(200, "OK", "text/csv; header=present", b"k,v\nx,y\n"), value("k,v\nx,y\n"))
    tsv = 'name\tnote\nAda\t"quoted" stays\nBob\ta,b\n'
    write("tsv", "Tab-separated values: tabs delimit, quotes are ordinary characters (IANA registration).",
          http(200, "OK", "text/tab-separated-values", tsv.encode()),
          value(tsv, delimiter="\t", quoting=csv.QUOTE_NONE))
    latin = "ville,pays\nZürich,Suisse\nSão Paulo,Brasil\n"
    write("charset-windows-1252", "The charset parameter decodes the text before it is split.",
          http(200, "OK", "text/csv; charset=windows-1252", latin.encode("cp1252")), value(latin))
    write("utf8-bom", "A UTF-8 byte order mark is not part of the first field.",
          http(200, "OK", "text/csv", b"\xef\xbb\xbf" + latin.encode()), value(latin))
    write("utf16-bom", "A UTF-16LE byte order mark decides the encoding.",
          http(200, "OK", "text/csv", latin.encode("utf-16")), value(latin), perturb=False)
    unicode = "city,country\n東京,日本\nКиев,Україна\n"
    write("utf8-text", "UTF-8 text of any script.", http(200, "OK", "text/csv", unicode.encode()), value(unicode))
    blank = "a,b\n\n1,2\n\n\n3,4\n"
    write("blank-lines-skipped", "Lines with nothing on them are skipped, as csv.DictReader does.",
          http(200, "OK", "text/csv", blank.encode()), value(blank))
    ragged = "a,b,c\n1\n1,2,3,4\n"
    write("ragged-records", "Records keep their own field counts.",
          http(200, "OK", "text/csv", ragged.encode()), value(ragged))
    trailing = "a,b,\n1,,\n"
    write("empty-fields", "Empty fields, a trailing delimiter included, are empty strings.",
          http(200, "OK", "text/csv", trailing.encode()), value(trailing))
    semi = "a;b\n1;\"x;y\"\n"
    write("delimiter-option",
          "A configured delimiter, read and (in the round trip) written with the fixture's options.",
          http(200, "OK", "text/csv", semi.encode()), value(semi, delimiter=";"), serializer="csv",
          options={"delimiter": ";"})
    spaced = "a , b\n 1 ,  2 \n"
    write("trim-option", "trimsWhitespace removes spaces around fields.",
          http(200, "OK", "text/csv", spaced.encode()), value(spaced, strip=True), serializer="csv",
          options={"trimsWhitespace": True})
    write("unterminated-quote", "A quote that never closes is the CSV plugin's error, with line and column.",
          http(200, "OK", "text/csv", b'a,b\n1,"open\n'), {"error": {"code": "invalidBody"}})
    write("text-after-closing-quote", "Only a delimiter or a line end may follow a closing quote (strict RFC 4180).",
          http(200, "OK", "text/csv", b'a,b\n"x"y,2\n'), {"error": {"code": "invalidBody"}})
    problem = "code,message\n404,not found\n"
    write("404-csv", "A 404 keeps its decoded table as the error value.",
          http(404, "Not Found", "text/csv", problem.encode()),
          {"error": {"code": "unacceptableStatusCode", "status": 404, "errorValue": table(problem)}})
    write("empty-200", "An empty body is a table with no header and no rows.",
          http(200, "OK", "text/csv", b""), {"serializer": "csv", "value": {"header": None, "rows": []}})


if __name__ == "__main__":
    main()
