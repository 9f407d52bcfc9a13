"""Reads a multipart body with Python's `email` package, the independent reference of the multipart writer tests.

Usage: python3 email_read.py CONTENT_TYPE FILE. Prints JSON: the boundary, the preamble and epilogue (hex or null),
and each part's `name` and `filename` (from Content-Disposition, as `email` reads them), content type, header fields
and body bytes (hex, the transfer encoding undone).
"""
import email.parser
import email.policy
import json
import sys

content_type, path = sys.argv[1], sys.argv[2]
with open(path, "rb") as file:
    body = file.read()
head = b"Content-Type: " + content_type.encode("utf-8") + b"\r\n\r\n"
message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
if message.defects:
    print("defects:", message.defects, file=sys.stderr)
    sys.exit(2)


def text(value):
    return None if value is None else value.encode("utf-8", "surrogateescape").hex()


parts = []
for part in message.iter_parts():
    if part.defects:
        print("part defects:", part.defects, file=sys.stderr)
        sys.exit(2)
    parts.append({
        "name": part.get_param("name", header="content-disposition"),
        "filename": part.get_filename(),
        "type": part.get_content_type() if "content-type" in part else None,
        "headers": [[name, str(value)] for name, value in part.items()],
        "body": part.get_payload(decode=True).hex(),
    })
print(json.dumps({
    "boundary": message.get_boundary(),
    "type": message.get_content_type(),
    "parameters": {k: v for k, v in message.get_params()[1:]},
    "preamble": text(message.preamble) if message.preamble else None,
    "epilogue": text(message.epilogue) if message.epilogue else None,
    "parts": parts,
}))
