import DecantCore
import DecantXMLParser
import Foundation
import Testing

/// The event, handler and delegate APIs. Expected values were computed with Python's `xml.parsers.expat` when the
/// tests were written (noted on each); where Decant's event model differs from expat's (CDATA reported apart,
/// namespace declarations on the start event), the comment says how.
@Suite struct XMLStreamParserTests {
    static func events(_ text: String, namespaceAware: Bool = true) throws(SerializationError) -> [XMLEvent] {
        try XMLStreamParser(data: Data(text.utf8), options: XMLParsingOptions(namespaceAware: namespaceAware)).events()
    }

    static func error(_ text: String) -> SerializationError? {
        do {
            _ = try events(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func bindsNamespaces() throws {
        // expat: ns None→urn:d, ns p→urn:p, start 'urn:d r' [('urn:p a','1'), ('b','2')], start 'urn:p c', text 'x',
        // end, ns None→None (undeclared), start 'd' (no namespace), end, end.
        let events = try Self.events(
            #"<r xmlns="urn:d" xmlns:p="urn:p" p:a="1" b="2"><p:c>x</p:c><d xmlns=""/></r>"#)
        guard case .startElement(let root) = events[0] else {
            Issue.record("expected a start element, got \(events[0])")
            return
        }
        #expect(root.name.namespaceURI == "urn:d" && root.name.localName == "r")
        #expect(
            root.namespaceDeclarations == [
                XMLNamespaceDeclaration(prefix: nil, uri: "urn:d"), XMLNamespaceDeclaration(prefix: "p", uri: "urn:p"),
            ])
        #expect(root.attributes.map(\.name.namespaceURI) == ["urn:p", nil])
        #expect(root.attributes.map(\.name.localName) == ["a", "b"])
        #expect(root.attributes.map(\.value) == ["1", "2"])
        guard case .startElement(let child) = events[1], case .startElement(let undeclared) = events[4] else {
            Issue.record("unexpected events \(events)")
            return
        }
        #expect(child.name == XMLName(qualifiedName: "p:c", prefix: "p", localName: "c", namespaceURI: "urn:p"))
        #expect(events[2] == .characters("x"))
        #expect(undeclared.name.namespaceURI == nil)
        #expect(undeclared.isEmptyElementTag)
        #expect(events.count == 7)
    }

    @Test func keepsXmlnsAsAttributesWithoutNamespaces() throws {
        let events = try Self.events(#"<r xmlns:p="urn:p" p:a="1"/>"#, namespaceAware: false)
        guard case .startElement(let root) = events[0] else { return #expect(Bool(false)) }
        #expect(root.attributes.map(\.name.qualifiedName) == ["xmlns:p", "p:a"])
        #expect(root.namespaceDeclarations.isEmpty)
        #expect(root.name.prefix == nil)
    }

    @Test func expandsEntitiesAndAppliesTheInternalSubset() throws {
        // expat: start r [('t','a b'), ('d','def')], text 'v&w<A<&>' (expat merges the CDATA section into the text),
        // pi 'pi' 'data', comment 'c', end r.
        let events = try Self.events(
            #"<!DOCTYPE r [<!ENTITY e "v&#38;amp;w"><!ATTLIST r t NMTOKENS #IMPLIED d CDATA "def">]>"#
                + #"<r t="  a   b ">&e;&lt;&#x41;<![CDATA[<&>]]><?pi data?><!--c--></r>"#)
        guard case .documentType(let doctype) = events[0], case .startElement(let root) = events[1] else {
            Issue.record("unexpected events \(events)")
            return
        }
        #expect(doctype.name == "r")
        #expect(root.attributes.map(\.value) == ["a b", "def"])
        #expect(root.attributes.map(\.isSpecified) == [true, false])
        #expect(
            Array(events[2...])
                == [
                    .characters("v&w<A"), .cdata("<&>"), .processingInstruction(target: "pi", data: "data"),
                    .comment("c"), .endElement(root.name),
                ])
    }

    @Test func normalizesAttributeValuesAndLineEnds() throws {
        // expat: a = 'x y z\nw' (literal tab and line feed become spaces, a character reference stays);
        // text 'a\nb\nc' for CR LF and a lone CR.
        let attribute = try Self.events("<r a=\"x\ty\nz&#10;w\"/>")
        guard case .startElement(let start) = attribute[0] else { return #expect(Bool(false)) }
        #expect(start.attributes.first?.value == "x y z\nw")
        #expect(try Self.events("<r>a\r\nb\rc</r>")[1] == .characters("a\nb\nc"))
    }

    @Test func reportsErrorPositions() throws {
        // expat: "mismatched tag" at line 3 (its column, 2, is 0-based and points at the name; Decant points at
        // the tag's `<`, 1-based: column 1).
        let mismatch = try #require(Self.error("<a>\n  <b>\n</a>"))
        #expect(mismatch.code == .invalidBody)
        #expect(
            mismatch.message
                == "XML is not well-formed at line 3, column 1: the end tag `</a>` does not match the start tag `<b>` "
                + "opened at line 2, column 3; close `<b>` first with `</b>` (XML 1.0 §3, WFC: Element Type Match).")
        let position = try #require(mismatch.underlying as? XMLParsingError)
        #expect(position.line == 3 && position.column == 1 && position.offset == 10)
        #expect(mismatch.offset == 10)
        // expat: "duplicate attribute" at line 2, 0-based column 10 (the second `a`) → 1-based column 11.
        let duplicate = try #require(Self.error("<r>\n <x a=\"1\" a=\"2\"/></r>"))
        #expect((duplicate.underlying as? XMLParsingError)?.line == 2)
        #expect((duplicate.underlying as? XMLParsingError)?.column == 11)
        // expat: "undefined entity" at line 3, 0-based column 3 → column 4.
        let undefined = try #require(Self.error("<r>\n\n   &undefined;</r>"))
        #expect((undefined.underlying as? XMLParsingError).map { [$0.line, $0.column] } == [3, 4])
        // expat: "unbound prefix" at line 2, 0-based column 0 → column 1.
        let unbound = try #require(Self.error("<r>\n<p:x/></r>"))
        #expect((unbound.underlying as? XMLParsingError).map { [$0.line, $0.column] } == [2, 1])
        // expat: "junk after document element" at line 3, 0-based column 0 → column 1.
        let junk = try #require(Self.error("<r>\n</r>\n<x/>"))
        #expect((junk.underlying as? XMLParsingError).map { [$0.line, $0.column] } == [3, 1])
    }

    @Test(arguments: [
        "<r>]]></r>", "<r><!-- a -- b --></r>", "<?xml version='1.0'?><?xml version='1.0'?><r/>", "<r a='<'/>",
        "<r>&#0;</r>", "<r></r><r></r>", "", "<!DOCTYPE r [<![INCLUDE[ ]]>]><r/>", "<r xmlns:a=''/>",
        "<r>\u{1}</r>", " <?xml version='1.0'?><r/>", "<r a='1' a='2'/>", "<a:b:c/>",
    ])
    func rejectsMalformedDocuments(_ text: String) {
        // Each is rejected by expat too ("not well-formed", "XML or text declaration not at start of entity",
        // "duplicate attribute", "no element found", ...).
        #expect(Self.error(text)?.code == .invalidBody)
    }

    @Test func positionsEvents() throws {
        var positions: [XMLPosition] = []
        try XMLStreamParser(data: Data("<r>\n  <é/>x</r>".utf8)).forEachEvent { _, position in
            positions.append(position)
        }
        // <r> at 1:1; "\n  " at 1:4; <é/> (start and end) at 2:3; "x" at 2:7 (columns count scalars, offsets bytes).
        #expect(positions.map(\.line) == [1, 1, 2, 2, 2, 2])
        #expect(positions.map(\.column) == [1, 4, 3, 3, 7, 8])
        #expect(positions.map(\.offset) == [0, 3, 6, 6, 11, 12])
    }

    struct Counter: XMLHandler {
        var elements = 0
        var skipped: [String] = []
        mutating func handle(_ event: XMLEvent, at position: XMLPosition) throws {
            if case .startElement = event { elements += 1 }
        }
        mutating func skippedEntity(named name: String, at position: XMLPosition) throws { skipped.append(name) }
        mutating func finish() throws -> String { "\(elements) \(skipped)" }
    }

    struct Failing: XMLHandler, Error {
        mutating func handle(_ event: XMLEvent, at position: XMLPosition) throws {
            if case .endElement = event { throw self }
        }
        mutating func finish() throws -> Int { 0 }
    }

    @Test func runsHandlers() throws {
        let parser = XMLStreamParser(
            data: Data(#"<!DOCTYPE r [<!ENTITY x SYSTEM "x.xml">]><r><a/>&x;<b/></r>"#.utf8))
        #expect(try parser.parse(with: Counter()) == "3 [\"x\"]")
        let error = #expect(throws: SerializationError.self) {
            try XMLStreamParser(data: Data("<r/>".utf8)).parse(with: Failing())
        }
        #expect(error?.code == .serializerFailed)
        #expect(error?.underlying is Failing)
    }

    @Test func wrapsClosureErrors() {
        struct Stop: Error {}
        let error = #expect(throws: SerializationError.self) {
            try XMLStreamParser(data: Data("<r/>".utf8)).forEachEvent { _, _ in throw Stop() }
        }
        #expect(error?.underlying is Stop)
    }

    final class Recorder: XMLStreamDelegate {
        var calls: [String] = []
        func parserDidStartDocument(_ parser: XMLStreamParser) { calls.append("startDocument") }
        func parserDidEndDocument(_ parser: XMLStreamParser) { calls.append("endDocument") }
        func parser(
            _ parser: XMLStreamParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String]
        ) {
            let sorted = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            calls.append("start \(elementName) \(namespaceURI ?? "nil") \(qualifiedName ?? "nil") \(sorted)")
        }
        func parser(
            _ parser: XMLStreamParser, didEndElement elementName: String, namespaceURI: String?,
            qualifiedName: String?
        ) { calls.append("end \(elementName)") }
        func parser(_ parser: XMLStreamParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
            calls.append("map \(prefix) \(namespaceURI)")
        }
        func parser(_ parser: XMLStreamParser, didEndMappingPrefix prefix: String) { calls.append("unmap \(prefix)") }
        func parser(_ parser: XMLStreamParser, foundCharacters string: String) { calls.append("text \(string)") }
        func parser(_ parser: XMLStreamParser, foundCDATA CDATABlock: Data) {
            calls.append("cdata \(String(decoding: CDATABlock, as: UTF8.self))")
        }
        func parser(_ parser: XMLStreamParser, foundComment comment: String) { calls.append("comment \(comment)") }
        func parser(_ parser: XMLStreamParser, foundProcessingInstructionWithTarget target: String, data: String?) {
            calls.append("pi \(target) \(data ?? "nil")")
        }
        func parser(_ parser: XMLStreamParser, foundSkippedEntity name: String) { calls.append("skipped \(name)") }
        func parser(_ parser: XMLStreamParser, parseErrorOccurred error: SerializationError) {
            calls.append("error \(error.code)")
        }
    }

    @Test func callsDelegates() throws {
        let recorder = Recorder()
        let text =
            #"<!DOCTYPE r [<!ENTITY x SYSTEM "x.xml">]><r xmlns:p="urn:p" p:a="1"><?t?><!--c-->&x;<![CDATA[d]]>"#
            + "e</r>"
        try XMLStreamParser(data: Data(text.utf8)).parse(delegate: recorder)
        #expect(
            recorder.calls == [
                "startDocument", "map p urn:p", "start r  r [\"p:a=1\"]", "pi t nil", "comment c", "skipped x",
                "cdata d", "text e", "end r", "unmap p", "endDocument",
            ])
        let failing = Recorder()
        let error = #expect(throws: SerializationError.self) {
            try XMLStreamParser(data: Data("<r>".utf8)).parse(delegate: failing)
        }
        #expect(error?.code == .invalidBody)
        // Namespace-aware, so the element call carries an empty namespace URI and the qualified name.
        #expect(failing.calls == ["startDocument", "start r  r []", "error invalidBody"])
    }

    @Test func canonicalWriterUsesTheSecondForm() throws {
        let text = #"<!DOCTYPE r [<!NOTATION b SYSTEM "s"><!NOTATION a PUBLIC "p">]><r z="&#9;" a='"'>&lt;<?p?></r>"#
        var writer = XMLCanonicalWriter()
        try XMLStreamParser(data: Data(text.utf8)).forEachEvent { event, _ in writer.write(event) }
        #expect(
            writer.output
                == "<!DOCTYPE r [\n<!NOTATION a PUBLIC 'p'>\n<!NOTATION b SYSTEM 's'>\n]>\n"
                + "<r a=\"&quot;\" z=\"&#9;\">&lt;<?p ?></r>")
    }

    @Test func namesResolveAgainWhenBindingsChange() throws {
        // expat (namespace_separator " "): r, a, "u1 x" {"u1 k"}, a, "u2 x" {"u2 k"}, "d1 a", "d1 x" {k}, x {k}: the
        // same names, read again under other bindings, resolve to the namespaces then in scope.
        let events = try Self.events(
            #"<r><a xmlns:p="u1"><p:x p:k="1"/></a><a xmlns:p="u2"><p:x p:k="2"/></a><a xmlns="d1"><x k="3"/></a>"#
                + #"<x k="4"/></r>"#)
        var starts: [String] = []
        for case .startElement(let start) in events {
            let attributes = start.attributes.map { "\($0.name.namespaceURI ?? "-") \($0.name.localName)" }
            starts.append(
                "\(start.name.namespaceURI ?? "-") \(start.name.localName)"
                    + (attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"))
        }
        #expect(
            starts == [
                "- r", "- a", "u1 x [u1 k]", "- a", "u2 x [u2 k]", "d1 a", "d1 x [- k]", "- x [- k]",
            ])
        // expat: "unbound prefix" at line 1, 0-based column 28: `p:x` once its binding went out of scope.
        let error = try #require(Self.error(#"<r><a xmlns:p="u"><p:x/></a><p:x/></r>"#))
        #expect(error.code == .invalidBody)
        #expect((error.underlying as? XMLParsingError)?.column == 29)
    }

    @Test func manyDistinctNamesKeepTheirOwnParts() throws {
        // More names than the parser remembers, sharing slots and overflowing its store of name bytes; each must come
        // back as written, with its own prefix and namespace.
        let count = 3000
        var document = #"<r xmlns:a="urn:a" xmlns:b="urn:b">"#
        for index in 0..<count {
            let prefix = index % 3 == 0 ? "" : index % 3 == 1 ? "a:" : "b:"
            let name = "e\(index)-" + String(repeating: "x", count: index % 50)
            document += "<\(prefix)\(name) \(prefix)k\(index)=\"\(index)\"/>"
        }
        document += "</r>"
        var seen = 0
        for case .startElement(let start) in try Self.events(document) where start.name.localName != "r" {
            let index = seen
            let uri: String? = index % 3 == 0 ? nil : index % 3 == 1 ? "urn:a" : "urn:b"
            #expect(start.name.localName == "e\(index)-\(String(repeating: "x", count: index % 50))")
            #expect(start.name.namespaceURI == uri)
            #expect(start.attributes.map(\.name.localName) == ["k\(index)"])
            #expect(start.attributes.map(\.name.namespaceURI) == [uri])
            #expect(start.attributes.map(\.value) == ["\(index)"])
            seen += 1
        }
        #expect(seen == count)
    }

    @Test func positionsCountCharactersAcrossLongLines() throws {
        // Long lines of ASCII and of two-, three- and four-byte characters, tabs, and LF, CR LF and CR line ends:
        // each event's line and column (1-based, in characters) must be what the text before it says, counted here
        // with String (line ends normalised as XML 1.0 §2.11 does). Text events start on line ends, tags after them,
        // and the pieces put both at every byte of an eight-byte word.
        let pieces = ["plain ascii text ", "café naïve ", "東京 データ ", "emoji 🎉🎉 ", "\t", "x"]
        var document = "<r>"
        for index in 0..<400 {
            document += String(repeating: pieces[index % pieces.count], count: index % 7 + 1)
            document += "<e\(index)/>"
            document += ["\n", "\r\n", "\r", ""][index % 4]
        }
        document += "</r>"
        let bytes = Array(document.utf8)
        var checked = 0
        var starts = 0
        try XMLStreamParser(data: Data(bytes)).forEachEvent { event, position in
            if case .startElement = event { starts += 1 }
            let before = String(decoding: bytes[..<position.offset], as: UTF8.self)
                .replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(position.line == lines.count)
            #expect(position.column == (lines.last?.unicodeScalars.count ?? 0) + 1)
            checked += 1
        }
        #expect(starts == 401)
        #expect(checked > 1_000)
    }

}
