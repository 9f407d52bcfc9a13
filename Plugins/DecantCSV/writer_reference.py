#!/usr/bin/env python3
"""The independent reference for DecantCSV's writer tests: Python's `csv` module reads what Decant wrote, and writes
the same rows for comparison. Each mode reads one JSON file (a list of cases) and prints one JSON list of results.

- `read FILE`: each case is {"body": base64, "tsv": bool, "encoding": Python codec name}; the result is the records
  `csv.reader(..., strict=True)` reads (blank lines dropped, as DictReader does; TSV with QUOTE_NONE).
- `write FILE`: each case is {"rows": [[str]]}; the result is the text `csv.writer` writes (QUOTE_MINIMAL, CRLF).
- `dictwriter FILE`: each case is {"fieldnames": [str], "rows": [{str: str}]}; the result is the text
  `csv.DictWriter` writes, header first.
"""
import base64
import csv
import io
import json
import sys


def read(case):
    text = base64.b64decode(case["body"]).decode(case.get("encoding", "utf-8"))
    if case.get("tsv"):
        reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t", quoting=csv.QUOTE_NONE, strict=True)
    else:
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    return [row for row in reader if row]


def write(case):
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    for row in case["rows"]:
        writer.writerow(row)
    return out.getvalue()


def dictwriter(case):
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=case["fieldnames"])
    writer.writeheader()
    for row in case["rows"]:
        writer.writerow(row)
    return out.getvalue()


def main():
    mode, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        cases = json.load(f)
    handler = {"read": read, "write": write, "dictwriter": dictwriter}[mode]
    json.dump([handler(case) for case in cases], sys.stdout, ensure_ascii=True)


if __name__ == "__main__":
    main()
