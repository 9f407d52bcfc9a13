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
        builder.reserve(forBodyBytes: data.count)
        let parser = XMLStreamParser(data: data, mediaType: mediaType, options: options)
        // Built from the span events: text goes from the body (or the parser's scratch space) into the arena
        // without a `String` in between, and a line and column is computed only for an error.
        try parser.forEachSpanEvent { event in
            do throws(SerializationError) {
                try builder.append(span: event)
            } catch {
                var located = error
                located.offset = located.offset ?? event.offset
                located.message += " (at \(event.position))"
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
        private var arena = ArenaBuilder()
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
        private var sawEvent = false

        init() {}

        /// Reserves room for the nodes and text a body of `count` bytes can hold without entities (a node takes at
        /// least two bytes, its text at most the body), so a large document is built without copying the arrays
        /// as they grow; pages that are never written are never resident.
        mutating func reserve(forBodyBytes count: Int) {
            arena.reserve(slots: count / 2, textBytes: count)
        }

        private static func failure(_ message: String) -> SerializationError {
            SerializationError(code: .invalidBody, message: message)
        }

        /// Appends a span event of a parse: text, CDATA sections, comments and processing instructions from their
        /// bytes, the other events as for ``append(_:offset:)``.
        mutating func append(span event: borrowing XMLSpanEvent) throws(SerializationError) {
            switch event.kind {
            case .characters:
                try event.withUnsafeBytes { bytes throws(SerializationError) in try appendCharacters(bytes) }
            case .cdata:
                try event.withUnsafeBytes { bytes throws(SerializationError) in try appendCDATA(bytes) }
            case .comment:
                let offset = event.offset
                try event.withUnsafeBytes { bytes throws(SerializationError) in
                    try appendComment(bytes, offset: offset)
                }
            case .processingInstruction:
                var target = event.target ?? ""
                let offset = event.offset
                try target.withUTF8Bytes { target throws(SerializationError) in
                    try event.withUnsafeBytes { data throws(SerializationError) in
                        try appendProcessingInstruction(target: target, data: data, offset: offset)
                    }
                }
            case .startElement:
                guard let start = event.elementStart else { return }
                defer { sawEvent = true }
                try flushText()
                try appendStart(start)
            case .endElement:
                guard let name = event.name else { return }
                defer { sawEvent = true }
                try flushText()
                try appendEnd(name)
            case .xmlDeclaration, .documentType:
                try appendMarkup(event.stringEvent, offset: event.offset)
            }
        }

        /// Appends an event that starts at byte `offset` of the body (`nil`: not from a parse). The document type
        /// event comes after its internal subset, so prolog nodes from its offset on were inside the internal subset.
        mutating func append(_ event: XMLEvent, offset: Int? = nil) throws(SerializationError) {
            switch event {
            case .characters(var text):
                try text.withUTF8Bytes { bytes throws(SerializationError) in try appendCharacters(bytes) }
            case .cdata(var text):
                try text.withUTF8Bytes { bytes throws(SerializationError) in try appendCDATA(bytes) }
            case .comment(var text):
                try text.withUTF8Bytes { bytes throws(SerializationError) in try appendComment(bytes, offset: offset) }
            case .processingInstruction(var target, var data):
                try target.withUTF8Bytes { target throws(SerializationError) in
                    try data.withUTF8Bytes { data throws(SerializationError) in
                        try appendProcessingInstruction(target: target, data: data, offset: offset)
                    }
                }
            case .xmlDeclaration, .documentType, .startElement, .endElement:
                try appendMarkup(event, offset: offset)
            }
        }

        /// Appends character data: gathered into the pending text node inside the root element; outside it, only
        /// whitespace is allowed (and ignored).
        private mutating func appendCharacters(_ bytes: UnsafeBufferPointer<UInt8>) throws(SerializationError) {
            defer { sawEvent = true }
            if open.isEmpty {
                guard bytes.allSatisfy(Self.isXMLWhitespace) else {
                    throw Self.failure(
                        "Text outside the root element: \(Self.quote(String(decoding: bytes, as: UTF8.self))). A "
                            + "document holds its text inside the root element.")
                }
            } else {
                // Straight into the arena; adjacent `characters` events merge into the one open text node.
                try arena.appendTextBytes(bytes)
            }
        }

        private mutating func appendCDATA(_ bytes: UnsafeBufferPointer<UInt8>) throws(SerializationError) {
            defer { sawEvent = true }
            try flushText()
            guard !open.isEmpty else {
                throw Self.failure("A CDATA section outside the root element; it belongs inside an element.")
            }
            _ = try arena.appendString(.cdata, bytes, parent: open.last ?? -1)
        }

        private mutating func appendComment(
            _ bytes: UnsafeBufferPointer<UInt8>, offset: Int?
        ) throws(SerializationError) {
            defer { sawEvent = true }
            try flushText()
            try appendTopLevel(arena.appendString(.comment, bytes, parent: open.last ?? -1), offset: offset)
        }

        private mutating func appendProcessingInstruction(
            target: UnsafeBufferPointer<UInt8>, data: UnsafeBufferPointer<UInt8>, offset: Int?
        ) throws(SerializationError) {
            defer { sawEvent = true }
            try flushText()
            try appendTopLevel(
                arena.appendProcessingInstruction(target: target, data: data, parent: open.last ?? -1),
                offset: offset)
        }

        /// Appends the XML declaration, the document type, or an element's start or end.
        private mutating func appendMarkup(_ event: XMLEvent, offset: Int?) throws(SerializationError) {
            defer { sawEvent = true }
            try flushText()
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
                if let offset { internalSubsetStart = prologOffsets.firstIndex { $0 >= offset } ?? prolog.count }
            case .startElement(let start):
                try appendStart(start)
            case .endElement(let name):
                try appendEnd(name)
            case .characters, .cdata, .comment, .processingInstruction:
                break
            }
        }

        /// Appends an element's start tag (after any pending text was flushed).
        private mutating func appendStart(_ start: XMLElementStart) throws(SerializationError) {
            if open.isEmpty, rootIndex != nil {
                throw Self.failure(
                    "A second root element <\(start.name.qualifiedName)> follows the root element; a document "
                        + "has exactly one.")
            }
            let slot = try arena.appendElement(start, parent: open.last ?? -1)
            if open.isEmpty { rootIndex = slot }
            open.append(slot)
        }

        /// Appends an element's end tag (after any pending text was flushed), which must close the open element.
        private mutating func appendEnd(_ name: XMLName) throws(SerializationError) {
            guard let slot = open.popLast() else {
                throw Self.failure("The end tag </\(name.qualifiedName)> has no matching start tag.")
            }
            let startName = arena.arena.name(slot)
            // The parser hands out the start tag's name itself, which compares by pointer.
            guard startName == name || startName.qualifiedName == name.qualifiedName else {
                throw Self.failure(
                    "The end tag </\(name.qualifiedName)> does not match the start tag "
                        + "<\(startName.qualifiedName)>.")
            }
            arena.close(slot)
        }

        /// Records a comment or processing instruction outside the root element in the prolog (with its offset in
        /// the body when it has one) or the epilog.
        private mutating func appendTopLevel(_ slot: Int, offset: Int?) {
            guard open.isEmpty else { return }
            if rootIndex == nil {
                prolog.append(slot)
                if let offset { prologOffsets.append(offset) }
            } else {
                epilog.append(slot)
            }
        }

        private mutating func flushText() throws(SerializationError) {
            _ = try arena.closeText(parent: open.last ?? -1)
        }

        mutating func finish() throws(SerializationError) -> XMLTree {
            try flushText()
            if let slot = open.last {
                throw Self.failure(
                    "The element <\(arena.arena.name(slot).qualifiedName)> is never closed (\(open.count) element(s) open at "
                        + "the end).")
            }
            guard let rootIndex else {
                throw Self.failure("The document has no root element.")
            }
            return XMLTree(
                storage: Storage(
                    arena: arena.arena, declaration: declaration, documentType: documentType,
                    documentTypePosition: documentTypePosition, internalSubsetStart: internalSubsetStart,
                    rootIndex: rootIndex, prolog: prolog, epilog: epilog))
        }

        /// Whether a byte is XML whitespace (space, tab, line feed or carriage return).
        private static func isXMLWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        private static func quote(_ text: String) -> String {
            let trimmed = text.count > 40 ? String(text.prefix(40)) + "..." : text
            return "\"" + trimmed + "\""
        }
    }
}
