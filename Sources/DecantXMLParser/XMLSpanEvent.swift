public import DecantCore

/// One step of an XML document as bytes borrowed from the parse, for callers who want the scanner's speed: text is
/// not made into a `String` and no line and column is counted unless asked for.
///
/// The event is non-copyable and is only ever lent to the closure of ``XMLStreamParser/forEachSpanEvent(_:)``, so
/// it cannot be stored or outlive the parse; its bytes are reachable only inside ``withUnsafeBytes(_:)``, whose
/// pointer must not escape the closure it is given to (as for any `withUnsafe...` method). For the same reason it is
/// not `Sendable`: it is a view of the parse in progress, never a value to hand to another task. Copy what you need
/// out of it (``text``, ``elementStart``, ``stringEvent``): those are ordinary `Sendable` values.
///
/// The events, their order, every check and every limit are those of ``XMLStreamParser/forEachEvent(_:)``: both are
/// the same scanner, the `String` events a layer over these.
public struct XMLSpanEvent: ~Copyable {
    /// What an event is.
    public enum Kind: Sendable, Hashable {
        /// The XML declaration.
        case xmlDeclaration
        /// The document type declaration.
        case documentType
        /// A start tag or empty-element tag.
        case startElement
        /// An end tag, or the end of an empty-element tag.
        case endElement
        /// A run of character data.
        case characters
        /// A CDATA section's contents.
        case cdata
        /// A comment's text.
        case comment
        /// A processing instruction (its bytes are the data; ``target`` is the target).
        case processingInstruction
    }

    /// The scanner's event, borrowed for the call the span event is lent to.
    let pointer: UnsafePointer<XMLScanEvent>
    /// The scanner's event.
    var event: XMLScanEvent {
        @inline(__always) _read { yield pointer.pointee }
    }
    /// The byte offset in the body (after any transcoding to UTF-8) where the event starts.
    public let offset: Int
    /// The document the offset is in, for ``position``.
    let document: UnsafeBufferPointer<UInt8>
    let documentStart: Int

    init(
        _ pointer: UnsafePointer<XMLScanEvent>, offset: Int, document: UnsafeBufferPointer<UInt8>, documentStart: Int
    ) {
        self.pointer = pointer
        self.offset = offset
        self.document = document
        self.documentStart = documentStart
    }

    /// The line and column of ``offset``, counted from the start of the document: a pass over the bytes before the
    /// event, meant for messages (the `String` events of ``XMLStreamParser/forEachEvent(_:)`` carry it instead,
    /// counted forward from event to event).
    public var position: XMLPosition {
        guard let base = document.baseAddress else { return XMLPosition(line: 1, column: 1, offset: offset) }
        var tracker = XMLPositionTracker(start: documentStart)
        return tracker.position(of: offset, in: base, end: document.count)
    }

    /// The event as ``XMLStreamParser/forEachEvent(_:)`` reports it, its text decoded into `String`s.
    public var stringEvent: XMLEvent { event.stringEvent() }

    /// What the event is.
    public var kind: Kind {
        switch event {
        case .xmlDeclaration: .xmlDeclaration
        case .documentType: .documentType
        case .startElement: .startElement
        case .endElement: .endElement
        case .characters: .characters
        case .cdata: .cdata
        case .comment: .comment
        case .processingInstruction: .processingInstruction
        }
    }

    /// The event's text bytes (valid UTF-8): character data, a CDATA section's or comment's text, a processing
    /// instruction's data; empty for other events.
    private var bytes: UnsafeBufferPointer<UInt8> {
        switch event {
        case .characters(let bytes), .cdata(let bytes), .comment(let bytes): bytes
        case .processingInstruction(_, let data): data
        default: UnsafeBufferPointer(start: nil, count: 0)
        }
    }

    /// How many bytes of text the event has (see ``withUnsafeBytes(_:)``).
    public var byteCount: Int { bytes.count }

    /// Calls `body` with the event's text bytes, valid UTF-8, borrowed: valid only during the call.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(bytes)
    }

    /// The event's text decoded into a `String` (a copy).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A processing instruction's target; `nil` for other events.
    public var target: String? {
        guard case .processingInstruction(let target, _) = event else { return nil }
        return String(decoding: target, as: UTF8.self)
    }

    /// A start tag's name, attributes and namespace declarations; `nil` for other events.
    public var elementStart: XMLElementStart? {
        guard case .startElement(let start) = event else { return nil }
        return start.pointee
    }

    /// The element's name for a start or end tag; `nil` for other events.
    public var name: XMLName? {
        switch event {
        case .startElement(let start): start.pointee.name
        case .endElement(let name): name
        default: nil
        }
    }
}

/// A span event is a view of the parse in progress (see ``XMLSpanEvent``), never sent to another task.
@available(*, unavailable)
extension XMLSpanEvent: Sendable {}

/// Lends span events to a closure.
struct SpanClosureSink: XMLSpanSink {
    let body: (borrowing XMLSpanEvent) throws -> Void
    var document = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    var documentStart = 0

    init(body: @escaping (borrowing XMLSpanEvent) throws -> Void) { self.body = body }

    mutating func begin(document base: UnsafePointer<UInt8>, start: Int, end: Int) {
        document = UnsafeBufferPointer(start: base, count: end)
        documentStart = start
    }

    mutating func receive(_ event: borrowing XMLScanEvent, at offset: Int) throws {
        try withUnsafePointer(to: event) { pointer in
            try body(XMLSpanEvent(pointer, offset: offset, document: document, documentStart: documentStart))
        }
    }
    mutating func skippedEntity(_ name: String, at offset: Int) throws {}
}

extension XMLStreamParser {
    /// Parses the body, lending every event to `body` as bytes borrowed from the parse, in document order: the same
    /// events, checks and limits as ``forEachEvent(_:)``, without building a `String` or a line and column for each.
    ///
    /// Text written as is in the body is lent from the body itself; text with a reference or a line end to expand or
    /// normalize is lent from the parser's scratch space, which the next event reuses. Like ``forEachEvent(_:)``,
    /// a reference to an external or undeclared entity produces no event.
    ///
    /// - Throws: `SerializationError` (see ``XMLStreamParser``). An error `body` throws stops parsing and is
    ///   rethrown: as it is when it is a `SerializationError`, else wrapped with code `serializerFailed` and the
    ///   error as `underlying`.
    public func forEachSpanEvent(_ body: (borrowing XMLSpanEvent) throws -> Void) throws(SerializationError) {
        do {
            try withoutActuallyEscaping(body) { escapable in
                var sink = SpanClosureSink(body: escapable)
                try XMLDriver.run(data, mediaType: mediaType, options: options, spans: &sink)
            }
        } catch {
            throw XMLDriver.wrap(error, mediaType: mediaType)
        }
    }
}
