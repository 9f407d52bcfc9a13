import Decant
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// XML: Decant's streaming parser (closure and delegate APIs) against FoundationXML's `XMLParser`, and its DOM
/// against `XMLDocument`, on a generated ~3 MB Atom feed. Both are namespace-aware and resolve nothing external.
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
        ]
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
