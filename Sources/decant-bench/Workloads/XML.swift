import Decant
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// XML: Decant's streaming parser (closure and delegate APIs) against FoundationXML's `XMLParser`, and its DOM
/// against `XMLDocument`, on a generated ~3 MB Atom feed. Both are namespace-aware and resolve nothing external.
/// With `$DECANT_XMLBENCH` naming the binary of `../shared/tools/xmlbench`, three more rows compare the same
/// parses with expat's SAX (namespaces on), libxml2's SAX and pugixml's DOM, run as a subprocess on the same feed.
enum XMLWorkloads {
    /// `xml.*`.
    static var all: [Workload] {
        [
            Workload(
                name: "xml.sax", unit: .megabytesPerSecond, baselineName: "XMLParser",
                summary: "the ~3 MB feed through XMLStreamParser.forEachEvent vs XMLParser with a counting delegate"
            ) { _ in
                let data = GeneratedFeed.data
                let decant = Contender(name: "Decant") {
                    var events = 0
                    try XMLStreamParser(data: data).forEachEvent { _, _ in events += 1 }
                    return events
                }
                return .timed(
                    TimedBench(quantity: Double(data.count), decant: decant, baseline: .inProcess(foundationSAX(data))))
            },
            Workload(
                name: "xml.sax.delegate", unit: .megabytesPerSecond, baselineName: "XMLParser",
                summary: "the feed through XMLStreamParser.parse(delegate:) vs XMLParser, both counting elements"
            ) { _ in
                let data = GeneratedFeed.data
                let decant = Contender(name: "Decant") {
                    let delegate = CountingStreamDelegate()
                    try XMLStreamParser(data: data).parse(delegate: delegate)
                    return delegate.elements
                }
                return .timed(
                    TimedBench(quantity: Double(data.count), decant: decant, baseline: .inProcess(foundationSAX(data))))
            },
            Workload(
                name: "xml.dom", unit: .megabytesPerSecond, baselineName: "XMLDocument",
                summary: "the feed into an XMLTree vs XMLDocument (external entities never loaded)"
            ) { _ in
                let data = GeneratedFeed.data
                let decant = Contender(name: "Decant") { try XMLTree(parsing: data).nodeCount }
                return .timed(
                    TimedBench(
                        quantity: Double(data.count), decant: decant, baseline: .inProcess(foundationDOM(data)),
                        note: "xml.dom: the generated feed has no external entities; XMLDocument is given "
                            + ".nodeLoadExternalEntitiesNever"))
            },
            Workload(
                name: "memory.xml.dom", unit: .multipleOfInput, baselineName: "XMLDocument",
                summary: "peak RSS growth of one XMLTree of the feed, in a child process, as a multiple of the feed",
                prepare: measureTreeMemory),
            againstXMLBench(
                "xml.sax.expat", parser: "expat SAX (ns)", baselineName: "expat SAX",
                summary: "the feed through XMLStreamParser.forEachEvent vs expat's SAX with namespace processing",
                decant: streamEvents),
            againstXMLBench(
                "xml.sax.spans.expat", parser: "expat SAX (ns)", baselineName: "expat SAX",
                summary: "the feed through XMLStreamParser.forEachSpanEvent (borrowed bytes, no positions) vs expat",
                decant: spanEvents),
            againstXMLBench(
                "xml.sax.libxml2", parser: "libxml2 SAX", baselineName: "libxml2 SAX",
                summary: "the feed through XMLStreamParser.forEachEvent vs libxml2's SAX (xmlSAXUserParseMemory)",
                decant: streamEvents),
            againstXMLBench(
                "xml.dom.pugixml", parser: "pugixml DOM (default flags)", baselineName: "pugixml DOM",
                summary: "the feed into an XMLTree vs pugixml's DOM (default flags, no namespace processing)",
                decant: { data in Contender(name: "Decant") { try XMLTree(parsing: data).nodeCount } }),
        ]
    }

    /// Every event of `data` through `XMLStreamParser.forEachEvent`, counted.
    private static func streamEvents(_ data: Data) -> Contender {
        Contender(name: "Decant") {
            var events = 0
            try XMLStreamParser(data: data).forEachEvent { _, _ in events += 1 }
            return events
        }
    }

    /// `memory.xml.dom`: the feed written to a temporary file and built into an `XMLTree` (and an `XMLDocument`) by
    /// child processes of the bench (``MemoryWorkloads/probe(side:path:)``), three times each.
    private static func measureTreeMemory(_ settings: RunSettings) throws -> Prepared {
        let data = GeneratedFeed.data
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decant-bench-feed-\(getpid()).xml")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let size = Double(data.count)
        let repetitions = settings.quick ? 1 : 3
        var decant: [Double] = []
        var foundation: [Double] = []
        for _ in 0..<repetitions {
            decant.append(Double(try MemoryWorkloads.probe(side: "xml-tree", path: url.path).growth) / size)
            foundation.append(Double(try MemoryWorkloads.probe(side: "xml-document", path: url.path).growth) / size)
        }
        return .direct(
            DirectResult(
                decant: Statistics.median(decant), baseline: Statistics.median(foundation),
                baselineName: "XMLDocument", rounds: repetitions, spread: MemoryWorkloads.spread(decant),
                baselineSpread: MemoryWorkloads.spread(foundation),
                note: "memory.xml.dom: peak RSS growth while building the tree over the feed's size (\(Int(size)) "
                    + "bytes), median of \(repetitions) child processes"))
    }

    /// Every event of `data` through `XMLStreamParser.forEachSpanEvent`, counted with its text bytes (as xmlbench's
    /// handlers count characters).
    private static func spanEvents(_ data: Data) -> Contender {
        Contender(name: "Decant") {
            var events = 0
            try XMLStreamParser(data: data).forEachSpanEvent { event in events += 1 + event.byteCount }
            return events
        }
    }

    /// A row of Decant on the generated feed against one parser of xmlbench on the same bytes.
    private static func againstXMLBench(
        _ name: String, parser: String, baselineName: String, summary: String,
        decant: @escaping (Data) -> Contender
    ) -> Workload {
        Workload(name: name, unit: .megabytesPerSecond, baselineName: baselineName, summary: summary) { _ in
            let data = GeneratedFeed.data
            let baseline: Baseline
            if let tool = XMLBench.tool {
                baseline = .external(name: baselineName) { _ in
                    try XMLBench.secondsPerParse(tool: tool, data: data, parser: parser)
                }
            } else {
                baseline = .none(reason: "\(name): no baseline (set DECANT_XMLBENCH to xmlbench's binary)")
            }
            return .timed(TimedBench(quantity: Double(data.count), decant: decant(data), baseline: baseline))
        }
    }

    /// `XMLParser` with namespace processing on and external entities off, counting start tags.
    private static func foundationSAX(_ data: Data) -> Contender {
        Contender(name: "XMLParser") {
            let parser = XMLParser(data: data)
            let delegate = CountingFoundationDelegate()
            parser.delegate = delegate
            parser.shouldProcessNamespaces = true
            parser.shouldReportNamespacePrefixes = true
            parser.shouldResolveExternalEntities = false
            guard parser.parse() else { throw parser.parserError ?? BenchError(description: "XMLParser failed") }
            return delegate.elements
        }
    }

    /// `XMLDocument` with external entities never loaded.
    private static func foundationDOM(_ data: Data) -> Contender {
        Contender(name: "XMLDocument") {
            let document = try XMLDocument(data: data, options: [.nodeLoadExternalEntitiesNever])
            return document.rootElement()?.childCount ?? -1
        }
    }
}

/// A Decant delegate that counts start tags and ignores everything else.
private final class CountingStreamDelegate: XMLStreamDelegate {
    var elements = 0

    func parser(
        _ parser: XMLStreamParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String]
    ) {
        elements += 1
    }
}

/// A Foundation delegate that counts start tags and ignores everything else.
private final class CountingFoundationDelegate: NSObject, XMLParserDelegate {
    var elements = 0

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        elements += 1
    }
}

/// The reference parsers of `../shared/tools/xmlbench`, run as a subprocess on the bytes Decant parses.
enum XMLBench {
    /// The binary named by `$DECANT_XMLBENCH`, when it is executable.
    static let tool = ExternalTool.named("xmlbench", by: "DECANT_XMLBENCH")

    /// Writes `data` to a temporary file, runs `tool FILE` (which parses it 15 times with each of its parsers and
    /// prints `NAME  N MB/s` lines) and returns the seconds one parse takes with the parser whose line starts with
    /// `parser`.
    static func secondsPerParse(tool: ExternalTool, data: Data, parser: String) throws -> Double {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-bench-feed-\(getpid()).xml")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let text = try tool.output([file.path])
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(parser) }) else {
            throw BenchError(description: "xmlbench printed no line for \(parser)")
        }
        let fields = line.dropFirst(parser.count).split(separator: " ")
        guard fields.count == 2, fields[1] == "MB/s", let rate = Double(fields[0]), rate > 0 else {
            throw BenchError(description: "unexpected xmlbench output: \(line)")
        }
        return Double(data.count) / (rate * 1_000_000)
    }
}
