// libFuzzer target: Decant's XML parser. Invariants: no crash, hang or unbounded allocation on any bytes, with the
// default and with tight limits, namespace-aware and not; forEachEvent, events(), the span stream (the same events,
// bytes, offsets, lines and columns), a handler and a delegate see the same document; events are balanced (one root,
// every start has its end), names are non-empty, text holds only XML characters and stays within the limits; a parse
// is deterministic; tight limits only ever add `limitExceeded`; the conformance suite's canonical form is a fixed
// point.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantXMLParser
// fuzz-seeds: Fixtures/xmlDocument xml/xmlconf/xmlconf
// fuzz-max-len: 32768
// fuzz-dict: FuzzXML.dict
import DecantCore
import FoundationEssentials

/// Low limits, so that inputs reach the parser's own guards instead of the fuzzer's time and memory limits.
func fuzzTightOptions(namespaceAware: Bool) -> XMLParsingOptions {
    var options = XMLParsingOptions(namespaceAware: namespaceAware)
    options.maxDepth = 8
    options.maxAttributesPerElement = 4
    options.maxNameLength = 16
    options.maxAttributeValueLength = 64
    options.maxTextLength = 64
    options.maxEntityExpansionBytes = 256
    options.maxEntityExpansionRatio = 1
    options.maxEntityNestingDepth = 3
    options.maxNodeCount = 4096
    options.maxOutputBytes = 1 << 16
    return options
}

/// The outcome of one parse, comparable across front ends and runs.
enum FuzzOutcome: Equatable {
    case events([XMLEvent])
    case failure(SerializationError.Code, offset: Int?)

    init(_ body: () throws(SerializationError) -> [XMLEvent]) {
        do {
            self = .events(try body())
        } catch {
            self = .failure(error.code, offset: error.offset)
        }
    }

    var events: [XMLEvent]? {
        if case .events(let events) = self { return events }
        return nil
    }
}

/// Collects events through the handler front end.
struct FuzzCollector: XMLHandler {
    var events: [XMLEvent] = []
    var skipped = 0

    mutating func handle(_ event: XMLEvent, at position: XMLPosition) throws {
        precondition(position.line >= 1 && position.column >= 1 && position.offset >= 0, "position \(position)")
        events.append(event)
    }

    mutating func skippedEntity(named name: String, at position: XMLPosition) throws {
        precondition(!name.isEmpty, "skipped entity without a name")
        skipped += 1
    }

    mutating func finish() throws -> [XMLEvent] { events }
}

/// Counts delegate callbacks and checks that they pair up.
final class FuzzDelegate: XMLStreamDelegate {
    var started = 0
    var ended = 0
    var documentEnded = false
    var errors = 0
    var openElements = 0
    var openPrefixes = 0
    var characters = 0

    func parserDidEndDocument(_ parser: XMLStreamParser) { documentEnded = true }

    func parser(
        _ parser: XMLStreamParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String]
    ) {
        precondition(!elementName.isEmpty, "delegate: empty element name")
        precondition((namespaceURI != nil) == parser.options.namespaceAware, "delegate: namespace URI presence")
        started += 1
        openElements += 1
    }

    func parser(
        _ parser: XMLStreamParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        precondition(openElements > 0, "delegate: end without start")
        ended += 1
        openElements -= 1
    }

    func parser(_ parser: XMLStreamParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        openPrefixes += 1
    }

    func parser(_ parser: XMLStreamParser, didEndMappingPrefix prefix: String) {
        precondition(openPrefixes > 0, "delegate: prefix mapping ends without a start")
        openPrefixes -= 1
    }

    func parser(_ parser: XMLStreamParser, foundCharacters string: String) { characters += 1 }

    func parser(_ parser: XMLStreamParser, parseErrorOccurred error: SerializationError) { errors += 1 }
}

/// Whether every scalar of `text` is an XML 1.0 Char.
func fuzzIsXMLText(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}

/// Checks a name as a parse reports it.
func fuzzCheck(_ name: XMLName, namespaceAware: Bool, limit: Int) {
    precondition(!name.qualifiedName.isEmpty && !name.localName.isEmpty, "empty name")
    precondition(name.qualifiedName.utf8.count <= limit, "name longer than maxNameLength")
    precondition(fuzzIsXMLText(name.qualifiedName), "name with a non-XML character")
    if namespaceAware {
        if let prefix = name.prefix {
            precondition(!prefix.isEmpty, "empty prefix")
            precondition(name.qualifiedName == prefix + ":" + name.localName, "prefix and local name")
        } else {
            precondition(name.qualifiedName == name.localName, "local name without a prefix")
        }
        precondition(!name.localName.contains(":"), "colon in a local name")
    } else {
        precondition(name.prefix == nil && name.namespaceURI == nil, "namespace data without namespaces")
        precondition(name.localName == name.qualifiedName, "local name without namespaces")
    }
}

/// Checks what must hold for the events of any successful parse.
func fuzzCheck(_ events: [XMLEvent], options: XMLParsingOptions) {
    let aware = options.namespaceAware
    var open: [XMLName] = []
    var roots = 0
    var afterEmptyTag: XMLName?
    for (index, event) in events.enumerated() {
        if let name = afterEmptyTag {
            guard case .endElement(let end) = event, end == name else {
                preconditionFailure("an empty-element tag is not followed by its end")
            }
        }
        afterEmptyTag = nil
        switch event {
        case .xmlDeclaration(let declaration):
            precondition(index == 0, "XML declaration not first")
            precondition(declaration.version.hasPrefix("1."), "version \(declaration.version)")
        case .documentType(let documentType):
            precondition(roots == 0 && open.isEmpty, "document type after the root")
            precondition(!documentType.name.isEmpty, "document type without a name")
            for notation in documentType.notations { precondition(!notation.name.isEmpty, "notation without name") }
        case .startElement(let start):
            if open.isEmpty { roots += 1 }
            fuzzCheck(start.name, namespaceAware: aware, limit: options.maxNameLength)
            precondition(
                start.attributes.count + start.namespaceDeclarations.count <= options.maxAttributesPerElement,
                "more attributes than maxAttributesPerElement")
            precondition(aware || start.namespaceDeclarations.isEmpty, "namespace declarations without namespaces")
            var qualifiedNames: Set<String> = []
            var expandedNames: Set<[String?]> = []
            for attribute in start.attributes {
                fuzzCheck(attribute.name, namespaceAware: aware, limit: options.maxNameLength)
                precondition(fuzzIsXMLText(attribute.value), "attribute value with a non-XML character")
                precondition(
                    attribute.value.utf8.count <= options.maxAttributeValueLength,
                    "attribute value longer than maxAttributeValueLength")
                precondition(qualifiedNames.insert(attribute.name.qualifiedName).inserted, "duplicate attribute")
                if aware {
                    let expanded = [attribute.name.localName, attribute.name.namespaceURI]
                    precondition(expandedNames.insert(expanded).inserted, "duplicate expanded attribute name")
                }
            }
            var prefixes: Set<String> = []
            for declaration in start.namespaceDeclarations {
                precondition(prefixes.insert(declaration.prefix ?? "").inserted, "duplicate namespace declaration")
                precondition(fuzzIsXMLText(declaration.uri), "namespace URI with a non-XML character")
            }
            open.append(start.name)
            precondition(open.count <= options.maxDepth, "deeper than maxDepth")
            if start.isEmptyElementTag { afterEmptyTag = start.name }
        case .endElement(let name):
            guard let last = open.popLast() else { preconditionFailure("end tag without a start") }
            precondition(last == name, "end tag \(name) closes \(last)")
        case .characters(let text):
            precondition(!open.isEmpty, "character data outside the root element")
            precondition(!text.isEmpty, "empty characters event")
            precondition(fuzzIsXMLText(text), "text with a non-XML character")
            precondition(text.utf8.count <= options.maxTextLength, "text longer than maxTextLength")
        case .cdata(let text):
            precondition(!open.isEmpty, "CDATA outside the root element")
            precondition(!text.contains("]]>"), "CDATA containing ]]>")
            precondition(fuzzIsXMLText(text), "CDATA with a non-XML character")
            precondition(text.utf8.count <= options.maxTextLength, "CDATA longer than maxTextLength")
        case .comment(let text):
            precondition(!text.contains("--") && !text.hasSuffix("-"), "comment containing --")
            precondition(fuzzIsXMLText(text), "comment with a non-XML character")
            precondition(text.utf8.count <= options.maxTextLength, "comment longer than maxTextLength")
        case .processingInstruction(let target, let data):
            precondition(!target.isEmpty && target.lowercased() != "xml", "processing instruction target \(target)")
            precondition(!data.contains("?>"), "processing instruction data containing ?>")
            precondition(fuzzIsXMLText(target) && fuzzIsXMLText(data), "PI with a non-XML character")
            precondition(!aware || !target.contains(":"), "colon in a PI target")
        }
    }
    precondition(afterEmptyTag == nil, "an empty-element tag ends the document")
    precondition(open.isEmpty, "elements left open")
    precondition(roots == 1, "\(roots) root elements")
}

/// Parses `bytes` through every front end with `options`, checks them against each other, and returns the outcome.
func fuzzParse(_ bytes: Data, mediaType: MediaType?, options: XMLParsingOptions) -> FuzzOutcome {
    let parser = XMLStreamParser(data: bytes, mediaType: mediaType, options: options)
    let outcome = FuzzOutcome { () throws(SerializationError) in try parser.events() }
    switch outcome {
    case .events(let events):
        fuzzCheck(events, options: options)
    case .failure(let code, let offset):
        precondition(
            [.invalidBody, .invalidEncoding, .limitExceeded, .unsupportedFeature].contains(code), "error code \(code)")
        precondition((offset ?? 0) >= 0, "negative error offset")
    }
    // Parsing is deterministic.
    precondition(FuzzOutcome { () throws(SerializationError) in try parser.events() } == outcome, "parse twice")
    // The closure front end.
    var positions: [XMLPosition] = []
    let closure = FuzzOutcome { () throws(SerializationError) in
        var events: [XMLEvent] = []
        try parser.forEachEvent { event, position in
            precondition(position.line >= 1 && position.column >= 1 && position.offset >= 0, "position")
            events.append(event)
            positions.append(position)
        }
        return events
    }
    precondition(closure == outcome, "forEachEvent and events() disagree")
    // The span stream, which the String events are a layer over: the same events from the bytes it lends, at the
    // same offsets, with the same line and column when asked for.
    var spanIndex = 0
    let spans = FuzzOutcome { () throws(SerializationError) in
        var events: [XMLEvent] = []
        try parser.forEachSpanEvent { event in
            let converted = event.stringEvent
            let text: String
            switch converted {
            case .characters(let value), .cdata(let value), .comment(let value): text = value
            case .processingInstruction(let target, let data):
                text = data
                precondition(event.target == target, "span: processing instruction target")
            default: text = ""
            }
            precondition(event.byteCount == text.utf8.count && event.text == text, "span: text bytes")
            precondition(
                event.withUnsafeBytes { bytes in Array(bytes) } == Array(text.utf8), "span: text bytes lent")
            if spanIndex < positions.count {
                precondition(event.offset == positions[spanIndex].offset, "span: offset")
                precondition(event.position == positions[spanIndex], "span: line and column")
            }
            spanIndex += 1
            events.append(converted)
        }
        return events
    }
    precondition(spans == outcome, "forEachSpanEvent and events() disagree")
    // The handler front end.
    let handled = FuzzOutcome { () throws(SerializationError) in try parser.parse(with: FuzzCollector()) }
    precondition(handled == outcome, "parse(with:) and events() disagree")
    // The delegate front end.
    let delegate = FuzzDelegate()
    let delegated = (try? parser.parse(delegate: delegate)) != nil
    precondition(delegated == (outcome.events != nil), "parse(delegate:) and events() disagree on success")
    precondition(delegate.documentEnded == delegated && delegate.errors == (delegated ? 0 : 1), "delegate ending")
    if let events = outcome.events {
        let starts = events.count(where: { if case .startElement = $0 { true } else { false } })
        precondition(delegate.started == starts && delegate.ended == starts, "delegate element callbacks")
        precondition(delegate.openElements == 0 && delegate.openPrefixes == 0, "delegate callbacks unbalanced")
    }
    return outcome
}

/// Whether events hold a document type that declares notations (the canonical form then has a DOCTYPE).
func fuzzHasNotations(_ events: [XMLEvent]) -> Bool {
    events.contains { if case .documentType(let type) = $0 { !type.notations.isEmpty } else { false } }
}

/// The media types the first byte picks among: none, and a few `charset` parameters.
let fuzzMediaTypes: [MediaType?] = [
    nil, nil, MediaType("application/xml; charset=utf-8"), MediaType("text/xml; charset=iso-8859-1"),
    MediaType("application/xml; charset=windows-1252"), MediaType("application/xml; charset=utf-16"),
    MediaType("application/xml; charset=shift_jis"), MediaType("application/xml; charset=us-ascii"),
]

/// The libFuzzer entry point: parses one body eight ways (default and tight limits, namespace-aware and not, with
/// and without a media type the first byte picks) and checks the invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let mediaType = size > 0 ? fuzzMediaTypes[Int(data[0]) % fuzzMediaTypes.count] : nil
    for aware in [true, false] {
        let loose = fuzzParse(bytes, mediaType: nil, options: XMLParsingOptions(namespaceAware: aware))
        let tight = fuzzParse(bytes, mediaType: nil, options: fuzzTightOptions(namespaceAware: aware))
        // Tight limits only ever stop a parse that the defaults complete, and with `limitExceeded`.
        switch (loose, tight) {
        case (.events(let events), .events(let tightEvents)):
            precondition(events == tightEvents, "tight limits change the events")
        case (.events, .failure(let code, _)):
            precondition(code == .limitExceeded, "tight limits fail with \(code), the defaults succeed")
        case (.failure, .events):
            preconditionFailure("tight limits succeed where the defaults fail")
        case (.failure, .failure):
            break
        }
        if mediaType != nil {
            _ = fuzzParse(bytes, mediaType: mediaType, options: XMLParsingOptions(namespaceAware: aware))
        }
        guard let events = loose.events else { continue }
        // The conformance suite's canonical form parses back to itself (without notations, which it writes in a
        // DOCTYPE, and namespaces, whose declarations it writes as attributes).
        let canonical = XMLCanonicalWriter.canonicalize(events)
        if !aware, !fuzzHasNotations(events) {
            let again = XMLStreamParser(data: Data(canonical.utf8), options: XMLParsingOptions(namespaceAware: false))
            guard let reparsed = try? again.events() else {
                preconditionFailure("the canonical form does not parse: \(canonical)")
            }
            precondition(XMLCanonicalWriter.canonicalize(reparsed) == canonical, "the canonical form is not stable")
        }
    }
    return 0
}
