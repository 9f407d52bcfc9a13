/// One step of a document as the scanner reports it: text as bytes it borrows for the duration of the call (of the
/// body where the text is written as it reads, of the scanner's scratch space where a reference or a line end was
/// expanded or normalized), never a `String`.
///
/// The bytes are valid UTF-8 (the scanner checked them) and are counted against every limit before the event is
/// reported. They must not be kept after ``XMLSpanSink/receive(_:at:)`` returns.
enum XMLScanEvent {
    /// The XML declaration.
    case xmlDeclaration(XMLDeclaration)
    /// The document type declaration, after its internal subset was read.
    case documentType(XMLDocumentType)
    /// A start tag, or an empty-element tag (then followed at once by ``endElement(_:)``), lent like the spans: the
    /// scanner's own value, valid only during the call.
    case startElement(UnsafePointer<XMLElementStart>)
    /// An end tag, or the end of an empty-element tag.
    case endElement(XMLName)
    /// A run of character data, references expanded and line ends normalized.
    case characters(UnsafeBufferPointer<UInt8>)
    /// The contents of a CDATA section.
    case cdata(UnsafeBufferPointer<UInt8>)
    /// The text of a comment.
    case comment(UnsafeBufferPointer<UInt8>)
    /// A processing instruction's target and data.
    case processingInstruction(target: UnsafeBufferPointer<UInt8>, data: UnsafeBufferPointer<UInt8>)
}

extension XMLScanEvent {
    /// The event as the `String` front ends report it, each span decoded into a `String` once.
    @inline(__always)
    consuming func stringEvent() -> XMLEvent {
        @inline(__always) func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
            String(decoding: bytes, as: UTF8.self)
        }
        switch consume self {
        case .xmlDeclaration(let declaration): return .xmlDeclaration(declaration)
        case .documentType(let type): return .documentType(type)
        case .startElement(let start): return .startElement(start.pointee)
        case .endElement(let name): return .endElement(name)
        case .characters(let bytes): return .characters(string(bytes))
        case .cdata(let bytes): return .cdata(string(bytes))
        case .comment(let bytes): return .comment(string(bytes))
        case .processingInstruction(let target, let data):
            return .processingInstruction(target: string(target), data: string(data))
        }
    }
}

/// Where the scanner sends its events: byte spans and byte offsets into the body. Line and column are never computed
/// for an event here; a sink that wants them asks an ``XMLPositionTracker`` over the document it was given in
/// ``begin(document:start:end:)``.
protocol XMLSpanSink {
    /// Called once before the first event with the document's bytes (UTF-8, after any transcoding), where scanning
    /// starts (after a byte order mark), and where they end; the pointer is valid until the scan returns.
    mutating func begin(document base: UnsafePointer<UInt8>, start: Int, end: Int)
    /// Receives one event and the byte offset in the document where it starts (inside entity replacement text, where
    /// the outermost reference starts).
    mutating func receive(_ event: borrowing XMLScanEvent, at offset: Int) throws
    /// Receives a reference to an entity that is declared external (never fetched) or whose declaration was not read.
    mutating func skippedEntity(_ name: String, at offset: Int) throws
}

/// The `String` event layer: turns the scanner's span events into ``XMLEvent``s with their ``XMLPosition`` for an
/// ``XMLEventSink`` (the closure, array, handler and delegate front ends), decoding each span into a `String` once.
struct XMLStringEventLayer<Sink: XMLEventSink>: XMLSpanSink {
    var sink: Sink
    private var tracker = XMLPositionTracker(start: 0)
    private var base: UnsafePointer<UInt8>?
    private var end = 0

    init(sink: Sink) { self.sink = sink }

    mutating func begin(document base: UnsafePointer<UInt8>, start: Int, end: Int) {
        self.base = base
        self.end = end
        tracker = XMLPositionTracker(start: start)
    }

    @inline(__always)
    private mutating func position(_ offset: Int) -> XMLPosition {
        guard let base else { return XMLPosition(line: 1, column: 1, offset: offset) }
        return tracker.position(of: offset, in: base, end: end)
    }

    @inline(__always)
    mutating func receive(_ event: borrowing XMLScanEvent, at offset: Int) throws {
        try sink.receive((copy event).stringEvent(), at: position(offset))
    }

    mutating func skippedEntity(_ name: String, at offset: Int) throws {
        try sink.skippedEntity(name, at: position(offset))
    }
}
