#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes events in James Clark's canonical XML, the form of the `out/` files of the W3C XML Conformance Test Suite
/// (the "second form" when the document declares notations).
///
/// The form (https://www.w3.org/XML/Test/xmlconf-20020606.htm, "canonical XML" of James Clark's XMLTEST):
/// - no XML declaration; no document type declaration unless the internal subset declares notations, in which case
///   the "second form" is used: `<!DOCTYPE root [`, a line feed, one `<!NOTATION name PUBLIC 'pub' 'sys'>`
///   (or `PUBLIC 'pub'`, or `SYSTEM 'sys'`) line per notation sorted by name, then `]>` and a line feed;
/// - start tags with every attribute (defaults included; namespace declarations written back as `xmlns`
///   attributes) sorted by qualified name in Unicode code point order, as `name="value"`; empty-element tags written
///   as a start and an end tag;
/// - character data and CDATA sections as text, with `&`, `<`, `>`, `"`, tab, line feed and carriage return written
///   as `&amp;` `&lt;` `&gt;` `&quot;` `&#9;` `&#10;` `&#13;` (in attribute values too);
/// - processing instructions as `<?target data?>` with one space after the target, even when there is no data;
/// - no comments, and nothing outside the root element but processing instructions; no trailing line feed.
///
/// Feed it the events of a parse, or a tree's replayed events:
///
/// ```swift
/// var writer = XMLCanonicalWriter()
/// try XMLStreamParser(data: body).forEachEvent { event, _ in writer.write(event) }
/// print(writer.output)
/// ```
public struct XMLCanonicalWriter: Sendable {
    /// The canonical text written so far.
    public private(set) var output: String = ""

    /// A writer with empty output.
    public init() {}

    /// The canonical text as UTF-8.
    public var data: Data { Data(output.utf8) }

    /// The canonical form of `events`.
    public static func canonicalize(_ events: some Sequence<XMLEvent>) -> String {
        var writer = XMLCanonicalWriter()
        for event in events { writer.write(event) }
        return writer.output
    }

    /// Appends the canonical form of one event.
    public mutating func write(_ event: XMLEvent) {
        switch event {
        case .xmlDeclaration, .comment:
            break
        case .documentType(let documentType):
            guard !documentType.notations.isEmpty else { return }
            output += "<!DOCTYPE \(documentType.name) [\n"
            for notation in documentType.notations.sorted(by: { Self.precedes($0.name, $1.name) }) {
                output += "<!NOTATION \(notation.name)"
                if let publicID = notation.publicID {
                    output += " PUBLIC '\(publicID)'"
                    if let systemID = notation.systemID { output += " '\(systemID)'" }
                } else if let systemID = notation.systemID {
                    output += " SYSTEM '\(systemID)'"
                }
                output += ">\n"
            }
            output += "]>\n"
        case .startElement(let start):
            var attributes: [(String, String)] = start.namespaceDeclarations.map {
                ($0.prefix.map { "xmlns:" + $0 } ?? "xmlns", $0.uri)
            }
            attributes += start.attributes.map { ($0.name.qualifiedName, $0.value) }
            attributes.sort { Self.precedes($0.0, $1.0) }
            output += "<" + start.name.qualifiedName
            for (name, value) in attributes {
                output += " " + name + "=\""
                Self.escape(value, into: &output)
                output += "\""
            }
            output += ">"
        case .endElement(let name):
            output += "</" + name.qualifiedName + ">"
        case .characters(let text), .cdata(let text):
            Self.escape(text, into: &output)
        case .processingInstruction(let target, let data):
            output += "<?" + target + " " + data + "?>"
        }
    }

    /// Code point order.
    private static func precedes(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    }

    private static func escape(_ text: String, into output: inout String) {
        var plainStart = text.unicodeScalars.startIndex
        var index = plainStart
        let scalars = text.unicodeScalars
        while index < scalars.endIndex {
            let replacement: String?
            switch scalars[index] {
            case "&": replacement = "&amp;"
            case "<": replacement = "&lt;"
            case ">": replacement = "&gt;"
            case "\"": replacement = "&quot;"
            case "\t": replacement = "&#9;"
            case "\n": replacement = "&#10;"
            case "\r": replacement = "&#13;"
            default: replacement = nil
            }
            if let replacement {
                output.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
                output += replacement
                plainStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        output.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
    }
}
