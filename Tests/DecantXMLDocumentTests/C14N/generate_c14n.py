#!/usr/bin/env python3
"""Writes c14n_expected.json: Canonical XML 1.0 (without comments) made by libxml2 through lxml, never by Decant.

Run from anywhere: `python3 Tests/DecantXMLDocumentTests/C14N/generate_c14n.py` (needs `pip install lxml`).
Inputs:
  (a) the hand-written documents below (namespaces, attribute order, escaping, CDATA, PIs and comments around the
      root, defaulted attributes, entities), stored with their text;
  (b) the accepted documents of ../shared/corpora/xml/xmlconf/subset_xml10_standalone_nonvalidating.jsonl, stored by
      id and path (relative to xmlconf/xmlconf/); the corpus itself stays in /work/shared.
Cases lxml rejects or cannot canonicalize are listed under "skipped" with the reason.
"""
import json
import os
import sys

import lxml
from lxml import etree

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CORPUS = os.environ.get("DECANT_CORPORA") or os.path.join(os.path.dirname(PACKAGE), "shared", "corpora")
XMLCONF = os.path.join(CORPUS, "xml", "xmlconf")

HANDWRITTEN = {
    "attribute-order": '<r z="1" a="2" xmlns:b="urn:b" xmlns:a="urn:a" b:x="3" a:y="4" a:a="5" m="6"/>',
    "attribute-order-namespace-first": '<r xmlns="urn:d" xmlns:z="urn:a" xmlns:a="urn:z" z:k="1" a:k="2" k="3"/>',
    "empty-element": "<a><b/><c></c></a>",
    "escaping-text": "<a>&amp; &lt; &gt; \" ' &#13; &#9; &#10; x</a>",
    "escaping-attribute": "<a v=\"&amp; &lt; &gt; &quot; ' &#13; &#9; &#10;\" w='\"'/>",
    "escaping-whitespace-normalised": "<a v=\"1\t2\n3\r\n4\"/>",
    "cdata": "<a><![CDATA[<x> & \r ]]]]><![CDATA[> text]]>after</a>",
    "cdata-adjacent-text": "<a>x<![CDATA[y]]>z</a>",
    "pis-and-comments-outside": "<?pi-before data?><!-- c1 --><?pi2?>\n<root><?inner  x y ?><!-- in --></root>"
    "<!-- after --><?pi-after?>",
    "pi-empty-data": "<r><?target?></r>",
    "comments-only-outside": "<!--a--><r/><!--b-->",
    "namespaces-redundant": '<a xmlns:p="urn:p"><p:b xmlns:p="urn:p"><c xmlns:p="urn:p" p:at="1"/></p:b></a>',
    "namespaces-rebound": '<a xmlns:p="urn:1"><b xmlns:p="urn:2"><c xmlns:p="urn:1"/></b></a>',
    "namespaces-default-undeclared": '<a xmlns="urn:d"><b xmlns=""><c/></b><d xmlns="urn:d"/></a>',
    "namespaces-default-undeclared-unneeded": '<a><b xmlns=""/></a>',
    "namespaces-default-changed": '<a xmlns="urn:1"><b xmlns="urn:2"><c xmlns="urn:1"/></b></a>',
    "namespaces-unused-declarations": '<a xmlns:u="urn:unused" xmlns:v="urn:v"><b/></a>',
    "namespaces-prefix-order": '<a xmlns:zz="urn:1" xmlns:aa="urn:2" xmlns="urn:3" xmlns:mm="urn:0"/>',
    "namespaces-xml-attributes": '<a xml:lang="en" xml:space="preserve"><b xml:lang="fr"/></a>',
    "namespaces-attribute-uri-order": '<a xmlns:x="urn:b" xmlns:y="urn:a" x:attr="1" y:attr="2" attr="0"/>',
    "defaulted-attributes": '<!DOCTYPE r [<!ATTLIST r def CDATA "d" fixed CDATA #FIXED "f" given CDATA "g">'
    '<!ATTLIST e tok NMTOKENS "  a   b ">]><r given="mine"><e/><e tok="  x  y  "/></r>',
    "defaulted-namespace-declaration": '<!DOCTYPE r [<!ATTLIST r xmlns:p CDATA "urn:p">]><r><p:e/></r>',
    "entities-internal": '<!DOCTYPE r [<!ENTITY e "<b>bold &amp; more</b>"><!ENTITY t "x&#38;#60;y">]>'
    "<r>&e; &t; &#x10FFFF; &#233;</r>",
    "entity-in-attribute": '<!DOCTYPE r [<!ENTITY v "a&#9;b">]><r at="&v;"/>',
    "unicode": "<r ä='ö'>日本語 \U0001F600</r>",
    "whitespace-in-tags": '<r   a = "1"\n  b=\'2\'  ></r   >',
    "mixed-content": "<r>text<a>one</a>tail<b/>end</r>",
    "xml-declaration-and-doctype": '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<!DOCTYPE r>\n<r/>',
    "line-ends": "<r>a\r\nb\rc\nd</r>",
}


def canonical(data):
    parser = etree.XMLParser(
        attribute_defaults=True, resolve_entities=True, load_dtd=False, no_network=True, remove_comments=False,
        huge_tree=False, dtd_validation=False, strip_cdata=True)
    root = etree.fromstring(data, parser)
    tree = root.getroottree()
    return etree.tostring(tree, method="c14n", exclusive=False, with_comments=False).decode("utf-8")


def fnv1a64(data):
    """The 64-bit FNV-1a hash of `data` as 16 lowercase hexadecimal digits (a digest, not a security measure)."""
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % value


def main():
    result = {
        "generator": "lxml %s (libxml2 %s) etree.tostring(method='c14n', with_comments=False)"
        % (lxml.__version__, ".".join(map(str, etree.LIBXML_VERSION))),
        "handwritten": [],
        "corpus": [],
        "skipped": [],
    }
    for name, text in HANDWRITTEN.items():
        result["handwritten"].append({"name": name, "input": text, "expected": canonical(text.encode("utf-8"))})
    index = os.path.join(XMLCONF, "subset_xml10_standalone_nonvalidating.jsonl")
    if not os.path.exists(index):
        sys.exit("missing " + index)
    with open(index, encoding="utf-8") as lines:
        for line in lines:
            case = json.loads(line)
            if case["expected"] != "accept":
                continue
            path = os.path.join(XMLCONF, "xmlconf", case["uri"])
            with open(path, "rb") as handle:
                data = handle.read()
            try:
                expected = canonical(data)
            except Exception as error:  # lxml rejects it or cannot canonicalize it
                result["skipped"].append({"id": case["id"], "uri": case["uri"], "reason": str(error)})
                continue
            # The corpus stays in ../shared: only a digest of libxml2's output is kept here.
            result["corpus"].append({"id": case["id"], "uri": case["uri"], "fnv1a64": fnv1a64(expected.encode("utf-8"))})
    with open(os.path.join(HERE, "c14n_expected.json"), "w", encoding="utf-8") as out:
        json.dump(result, out, ensure_ascii=False, indent=1, sort_keys=True)
        out.write("\n")
    print("handwritten %d, corpus %d, skipped %d"
          % (len(result["handwritten"]), len(result["corpus"]), len(result["skipped"])))


if __name__ == "__main__":
    main()
