public import DecantCore
public import DecantXMLParser

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension XMLTree {
    /// Parses `data` with Decant's own XML parser (`XMLStreamParser`) and builds the tree.
    ///
    /// - Parameters:
    ///   - data: The document's bytes.
    ///   - mediaType: The media type the body came with; its `charset` is used when the document declares no
    ///     encoding.
    ///   - options: Namespace handling and limits.
    /// - Throws: The parser's `SerializationError` (`invalidBody` with the offset, `limitExceeded`, ...).
    public init(
        parsing data: Data, mediaType: MediaType? = nil, options: XMLParsingOptions = XMLParsingOptions()
    ) throws(SerializationError) {
        var builder = Builder()
        let parser = XMLStreamParser(data: data, mediaType: mediaType, options: options)
        try parser.forEachEvent { event, position in
            do throws(SerializationError) {
                try builder.append(event, offset: position.offset)
            } catch {
                var located = error
                located.offset = located.offset ?? position.offset
                located.message += " (at \(position))"
                throw located
            }
        }
        self = try builder.finish()
    }

    /// Builds a tree from parser events in document order, such as those `XMLStreamParser` reports.
    ///
    /// Adjacent `characters` events merge into one text node and empty ones are dropped;
    /// whitespace outside the root element is ignored. ``events`` replays a tree as events. Processing instructions
    /// before the document type event become prolog nodes, even those the parser read inside the internal subset
    /// (``init(parsing:mediaType:options:)`` tells them apart by their offsets; events alone cannot).
    ///
    /// - Throws: `SerializationError` with code `invalidBody` when the events do not form one document: an end
    ///   without its start (or with another name), an element left open, no root element or a second one,
    ///   non-whitespace text or CDATA outside the root, or a declaration or document type out of place.
    public init<Events: Sequence<XMLEvent>>(events: Events) throws(SerializationError) {
        var builder = Builder()
        for event in events {
            try builder.append(event)
        }
        self = try builder.finish()
    }

    /// Accumulates events into an arena.
    struct Builder {
        private var records: [Record] = []
        private var open: [Int] = []
        private var declaration: XMLDeclaration?
        private var documentType: XMLDocumentType?
        private var documentTypePosition = 0
        private var internalSubsetStart: Int?
        /// The byte offsets of the prolog nodes, when the events come from a parse.
        private var prologOffsets: [Int] = []
        private var rootIndex: Int?
        private var prolog: [Int] = []
        private var epilog: [Int] = []
        private var pendingText = ""
        private var sawEvent = false

        init() {
            records.reserveCapacity(64)
        }

        private static func failure(_ message: String) -> SerializationError {
            SerializationError(code: .invalidBody, message: message)
        }

        /// Appends an event that starts at byte `offset` of the body. The document type event comes after its
        /// internal subset, so prolog nodes from its offset on were inside the internal subset.
        mutating func append(_ event: XMLEvent, offset: Int) throws(SerializationError) {
            switch event {
            case .documentType:
                try append(event)
                internalSubsetStart = prologOffsets.firstIndex { $0 >= offset } ?? prolog.count
            case .comment, .processingInstruction:
                let count = prolog.count
                try append(event)
                if prolog.count > count { prologOffsets.append(offset) }
            default:
                try append(event)
            }
        }

        mutating func append(_ event: XMLEvent) throws(SerializationError) {
            defer { sawEvent = true }
            if case .characters(let text) = event {
                if open.isEmpty {
                    guard text.allSatisfy(\.isXMLWhitespace) else {
                        throw Self.failure(
                            "Text outside the root element: \(Self.quote(text)). A document holds its text inside "
                                + "the root element.")
                    }
                } else {
                    pendingText += text
                }
                return
            }
            flushText()
            switch event {
            case .xmlDeclaration(let value):
                guard !sawEvent else {
                    throw Self.failure("The XML declaration must be the first event of a document.")
                }
                declaration = value
            case .documentType(let value):
                guard documentType == nil, rootIndex == nil, open.isEmpty else {
                    throw Self.failure(
                        "A document type declaration must come once, before the root element.")
                }
                documentType = value
                documentTypePosition = prolog.count
            case .startElement(let start):
                if open.isEmpty, rootIndex != nil {
                    throw Self.failure(
                        "A second root element <\(start.name.qualifiedName)> follows the root element; a document "
                            + "has exactly one.")
                }
                let slot = records.count
                records.append(
                    Record(
                        content: .element(
                            ElementRecord(
                                name: start.name, attributes: start.attributes,
                                namespaceDeclarations: start.namespaceDeclarations,
                                isEmptyElementTag: start.isEmptyElementTag)),
                        parent: open.last ?? -1, end: slot + 1))
                if open.isEmpty { rootIndex = slot }
                open.append(slot)
            case .endElement(let name):
                guard let slot = open.popLast() else {
                    throw Self.failure("The end tag </\(name.qualifiedName)> has no matching start tag.")
                }
                guard case .element(let record) = records[slot].content else { return }
                guard record.name.qualifiedName == name.qualifiedName else {
                    throw Self.failure(
                        "The end tag </\(name.qualifiedName)> does not match the start tag "
                            + "<\(record.name.qualifiedName)>.")
                }
                records[slot].end = records.count
            case .cdata(let text):
                guard !open.isEmpty else {
                    throw Self.failure("A CDATA section outside the root element; it belongs inside an element.")
                }
                appendLeaf(.cdata(text))
            case .comment(let text):
                appendLeaf(.comment(text))
            case .processingInstruction(let target, let data):
                appendLeaf(.processingInstruction(target: target, data: data))
            case .characters:
                break
            }
        }

        private mutating func appendLeaf(_ content: Content) {
            let slot = records.count
            records.append(Record(content: content, parent: open.last ?? -1, end: slot + 1))
            if open.isEmpty {
                if rootIndex == nil { prolog.append(slot) } else { epilog.append(slot) }
            }
        }

        private mutating func flushText() {
            guard !pendingText.isEmpty else { return }
            let slot = records.count
            records.append(Record(content: .text(pendingText), parent: open.last ?? -1, end: slot + 1))
            pendingText = ""
        }

        mutating func finish() throws(SerializationError) -> XMLTree {
            flushText()
            if let slot = open.last, case .element(let record) = records[slot].content {
                throw Self.failure(
                    "The element <\(record.name.qualifiedName)> is never closed (\(open.count) element(s) open at "
                        + "the end).")
            }
            guard let rootIndex else {
                throw Self.failure("The document has no root element.")
            }
            return XMLTree(
                storage: Storage(
                    records: records, declaration: declaration, documentType: documentType,
                    documentTypePosition: documentTypePosition, internalSubsetStart: internalSubsetStart,
                    rootIndex: rootIndex, prolog: prolog, epilog: epilog))
        }

        private static func quote(_ text: String) -> String {
            let trimmed = text.count > 40 ? String(text.prefix(40)) + "..." : text
            return "\"" + trimmed + "\""
        }
    }
}

extension Character {
    /// Whether the character is XML whitespace (space, tab, line feed or carriage return).
    var isXMLWhitespace: Bool { self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\r\n" }
}
