import DecantCore
import DecantTestSupport
import DecantXMLParser
import Foundation
import Testing

/// The span stream (`forEachSpanEvent`) against the `String` events it is the lower layer of: the same events at the
/// same offsets, the same line and column on request, the same errors; text lent from the body when written as is.
@Suite struct XMLSpanEventTests {
    /// What one parse through either API produced: each event with its offset and position, or the error.
    struct Outcome: Equatable {
        var events: [XMLEvent] = []
        var offsets: [Int] = []
        var positions: [XMLPosition] = []
        var error: SerializationError.Code?
        var errorOffset: Int?
        var errorMessage: String?
    }

    static func stringOutcome(_ parser: XMLStreamParser) -> Outcome {
        var outcome = Outcome()
        do {
            try parser.forEachEvent { event, position in
                outcome.events.append(event)
                outcome.offsets.append(position.offset)
                outcome.positions.append(position)
            }
        } catch {
            outcome.error = error.code
            outcome.errorOffset = error.offset
            outcome.errorMessage = error.message
        }
        return outcome
    }

    static func spanOutcome(_ parser: XMLStreamParser) -> Outcome {
        var outcome = Outcome()
        do {
            try parser.forEachSpanEvent { event in
                outcome.events.append(event.stringEvent)
                outcome.offsets.append(event.offset)
                outcome.positions.append(event.position)
            }
        } catch {
            outcome.error = error.code
            outcome.errorOffset = error.offset
            outcome.errorMessage = error.message
        }
        return outcome
    }

    /// Documents that exercise every kind of event and the places text is copied: references, line ends, entities,
    /// CDATA, comments, processing instructions, namespaces, default attributes, errors.
    static let documents: [String] = [
        "<a/>",
        "<?xml version=\"1.0\"?>\r\n<a x='1' y=\"2\">text</a>",
        "<a>one &amp; two &#x41;&#66;\r\nthree\rfour</a>",
        "<!DOCTYPE a [<!ENTITY e 'expanded &#38;amp; text'><!ATTLIST a d CDATA 'default'>]><a>&e;<b/>&e;</a>",
        "<a><![CDATA[<not markup> & ]]><!-- a comment --><?target some data?>tail</a>",
        "<p:a xmlns:p='urn:p' xmlns='urn:d' p:x='1'><b>é東京</b></p:a>",
        "<a>\n  <b>line\n</b>\n  <c>ü</c>\n</a>\n<!-- after -->\n<?after pi?>",
        "<a><b></a>",
        "<a>&undeclared;</a>",
        "<a x='1' x='2'/>",
        "<a>\u{0}</a>",
        "",
    ]

    @Test(arguments: documents)
    func spansReadAsTheStringEvents(document: String) {
        for aware in [true, false] {
            let parser = XMLStreamParser(data: Data(document.utf8), options: XMLParsingOptions(namespaceAware: aware))
            #expect(Self.spanOutcome(parser) == Self.stringOutcome(parser))
        }
    }

    @Test func eachKindLendsItsParts() throws {
        let document = "<?xml version='1.0'?><a k='v'>x &lt; y<![CDATA[c d]]><!--note--><?go now?></a>"
        var seen: [String] = []
        try XMLStreamParser(data: Data(document.utf8)).forEachSpanEvent { event in
            switch event.kind {
            case .xmlDeclaration: seen.append("declaration")
            case .startElement:
                guard let start = event.elementStart else { return seen.append("start without elementStart") }
                seen.append("start \(start.name.qualifiedName) \(start.attributes.map { "\($0.name)=\($0.value)" })")
            case .endElement: seen.append("end \(event.name?.qualifiedName ?? "?")")
            case .characters: seen.append("text \(event.text) \(event.byteCount)")
            case .cdata: seen.append("cdata \(event.text)")
            case .comment: seen.append("comment \(event.text)")
            case .processingInstruction: seen.append("pi \(event.target ?? "?") \(event.text)")
            case .documentType: seen.append("doctype")
            }
        }
        #expect(
            seen == [
                "declaration", "start a [\"k=v\"]", "text x < y 5", "cdata c d", "comment note", "pi go now", "end a",
            ])
    }

    /// Text written as is points into the body; text with a reference is gathered elsewhere (the scratch space).
    @Test func textWrittenAsIsIsLentFromTheBody() throws {
        let plain = String(repeating: "plain text ", count: 8)
        let body = Data("<doc><a>\(plain)</a><b>with &amp; reference</b></doc>".utf8)
        var fromBody: [Bool] = []
        try body.withUnsafeBytes { raw in
            let range = UInt(bitPattern: raw.baseAddress)..<(UInt(bitPattern: raw.baseAddress) + UInt(raw.count))
            try XMLStreamParser(data: body).forEachSpanEvent { event in
                guard event.kind == .characters else { return }
                let address = event.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
                fromBody.append(range.contains(address))
            }
        }
        #expect(fromBody == [true, false])
    }

    @Test func errorsTheBodyThrowsAreRethrownAsForEachEvent() {
        struct Stop: Error {}
        let parser = XMLStreamParser(data: Data("<a><b/></a>".utf8))
        var events = 0
        do {
            try parser.forEachSpanEvent { _ in
                events += 1
                if events == 2 { throw Stop() }
            }
            Issue.record("the parse went on after the body threw")
        } catch {
            #expect(error.code == .serializerFailed)
            #expect(error.underlying is Stop)
        }
        #expect(events == 2)
        do {
            try parser.forEachSpanEvent { _ in throw SerializationError(code: .limitExceeded, message: "enough") }
            Issue.record("the parse went on after the body threw")
        } catch {
            #expect(error.code == .limitExceeded && error.message == "enough")
        }
    }

    /// Every document of the W3C suite's standalone non-validating subset, namespace-aware as the suite says.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func theW3CSuiteReadsTheSameAsSpans() throws {
        let cases = XMLConformanceTests.load("subset_xml10_standalone_nonvalidating.jsonl")
        #expect(cases.count == 1728)
        var compared = 0
        for testCase in cases {
            guard let url = Corpora.url(XMLConformanceTests.root + "/" + testCase.uri),
                let data = try? Data(contentsOf: url)
            else { continue }
            let parser = XMLStreamParser(data: data, options: XMLParsingOptions(namespaceAware: testCase.namespace))
            let spans = Self.spanOutcome(parser)
            let strings = Self.stringOutcome(parser)
            #expect(spans == strings, "\(testCase)")
            compared += 1
        }
        #expect(compared == cases.count)
    }
}
