/// Splits a body that arrives in chunks into lines, for line-based stream formats (NDJSON, JSON Lines, server-sent
/// events): the framing half of a ``RecordReader``.
///
/// A line inside one chunk is handed out as a view of that chunk, without a copy; only a line cut by a chunk
/// boundary is gathered (up to ``maxLineBytes``). Lines and offsets are the same for every chunking, and the scan
/// is linear, 16 bytes at a time.
///
/// ```swift
/// var framer = LineFramer(lineEnds: .lineFeed, maxLineBytes: 1 << 20)
/// try framer.consume(chunk) { piece in
///     if case .line(let bytes, let offset, _) = piece { print(offset, bytes.count) }
/// }
/// ```
public struct LineFramer: Sendable {
    /// Which bytes end a line.
    public enum LineEnds: Sendable, Hashable {
        /// LF; a CR right before it is dropped with it (NDJSON, JSON Lines: `\n` and `\r\n`).
        case lineFeed
        /// CR, LF, or the pair CR LF (the WHATWG event stream format).
        case carriageReturnOrLineFeed
        /// RS (U+001E), which starts each text of a JSON text sequence (RFC 7464): the pieces are what lies between
        /// two RS (the first, before any RS, is normally empty), LF included.
        case recordSeparator
    }

    /// What the framer hands out.
    public enum Piece {
        /// A line without its end: its bytes (valid only during the call), the offset of its first byte in the body,
        /// and whether a line end followed it (`false` only from ``finish(_:)``, for a last line without one).
        case line(UnsafeRawBufferPointer, offset: Int, terminated: Bool)
        /// A line longer than ``maxLineBytes``: its offset and length; its bytes were not kept.
        case oversized(offset: Int, length: Int)
    }

    /// Which bytes end a line.
    public let lineEnds: LineEnds
    /// The longest line (without its end) that is handed out; a longer one is ``Piece/oversized(offset:length:)``.
    public let maxLineBytes: Int
    /// The number of bytes consumed so far: the offset of the next byte.
    public var offset: Int { consumed }
    @usableFromInline var consumed = 0

    /// The beginning of a line cut by a chunk boundary.
    @usableFromInline var carry: [UInt8] = []
    /// The length of the current line so far, kept or not.
    @usableFromInline var lineLength = 0
    /// Whether the current line is longer than the limit (its bytes are dropped).
    @usableFromInline var oversized = false
    /// Whether the last byte consumed was a CR ending a line, so that an LF first in the next chunk belongs to it.
    @usableFromInline var afterCarriageReturn = false
    /// Whether the current line's bytes so far end with a CR (with `lineFeed`, it goes if an LF comes next).
    @usableFromInline var previousChunkEndedWithCarriageReturn = false

    /// Creates a framer.
    public init(lineEnds: LineEnds, maxLineBytes: Int) {
        self.lineEnds = lineEnds
        self.maxLineBytes = max(0, maxLineBytes)
    }

    /// Consumes the next bytes, calling `body` for each line they end.
    ///
    /// - Throws: what `body` throws.
    public mutating func consume(
        _ bytes: UnsafeRawBufferPointer, _ body: (Piece) throws(SerializationError) -> Void
    ) throws(SerializationError) {
        var failure: SerializationError?
        withoutActuallyEscaping(body) { body in
            var sink = ClosureSink(body: body)
            do throws(SerializationError) {
                try consume(bytes, into: &sink)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The body ended: hands out the last line if it has no line end (`terminated` is `false`).
    ///
    /// - Throws: what `body` throws.
    public mutating func finish(_ body: (Piece) throws(SerializationError) -> Void) throws(SerializationError) {
        var failure: SerializationError?
        withoutActuallyEscaping(body) { body in
            var sink = ClosureSink(body: body)
            do throws(SerializationError) {
                try finish(into: &sink)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Consumes the next bytes, handing `sink` each line they end. The generic form of ``consume(_:_:)``: it is
    /// specialised for the sink, whose ``LineSink/take(_:)`` is inlined into the scanning loop (the form to use when
    /// lines are short and many).
    ///
    /// - Throws: what the sink throws.
    @inlinable
    public mutating func consume<Sink: LineSink>(
        _ bytes: UnsafeRawBufferPointer, into sink: inout Sink
    ) throws(SerializationError) {
        var start = 0
        let count = bytes.count
        if afterCarriageReturn, count > 0 {
            afterCarriageReturn = false
            if bytes[0] == 0x0A { start = 1 }
        }
        let base = consumed
        var position = start
        let delimiter: UInt8 = lineEnds == .recordSeparator ? 0x1E : 0x0A
        let carriageReturn = lineEnds == .carriageReturnOrLineFeed
        var finder = EndFinder(bytes: bytes, delimiter: delimiter, carriageReturn: carriageReturn)
        while let end = finder.next(from: position) {
            var next = end &+ 1
            var contentEnd = end
            // Where the line began: before a CR carried from the previous chunk is dropped from its end.
            let lineStart = base &+ position &- lineLength
            if carriageReturn, bytes[end] == 0x0D {
                // Only reachable with `carriageReturnOrLineFeed`: CR LF is one line end.
                if next < count {
                    if bytes[next] == 0x0A { next &+= 1 }
                } else {
                    afterCarriageReturn = true
                }
            } else if lineEnds == .lineFeed {
                if contentEnd > position, bytes[contentEnd &- 1] == 0x0D {
                    contentEnd &-= 1
                } else if contentEnd == start, lineLength > 0, previousChunkEndedWithCarriageReturn {
                    // The CR was the last byte of the previous chunk.
                    if !oversized { carry.removeLast() }
                    lineLength -= 1
                }
            }
            let tail = UnsafeRawBufferPointer(rebasing: bytes[position..<contentEnd])
            if lineLength == 0, tail.count <= maxLineBytes {
                // The common case: the whole line is in this chunk.
                try sink.take(.line(tail, offset: lineStart, terminated: true))
            } else {
                try emitLong(tail, lineStart: lineStart, into: &sink)
            }
            position = next
        }
        // The rest is the beginning of a line.
        let rest = count &- position
        if count > 0 { previousChunkEndedWithCarriageReturn = rest > 0 && bytes[count &- 1] == 0x0D }
        if rest > 0 {
            lineLength += rest
            if !oversized, lineLength > maxLineBytes + (lineEnds == .lineFeed ? 1 : 0) {
                // (One byte of slack for a CR that may turn out to be the line's end.)
                oversized = true
                carry = []
            }
            if !oversized { carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position...])) }
        }
        consumed = base &+ count
    }

    /// The body ended: hands `sink` the last line if it has no line end (`terminated` is `false`).
    ///
    /// - Throws: what the sink throws.
    @inlinable
    public mutating func finish<Sink: LineSink>(into sink: inout Sink) throws(SerializationError) {
        afterCarriageReturn = false
        guard lineLength > 0 else { return }
        let lineStart = consumed - lineLength
        if oversized || lineLength > maxLineBytes {
            let length = lineLength
            reset()
            try sink.take(.oversized(offset: lineStart, length: length))
            return
        }
        let line = carry
        reset()
        try Self.withBytes(of: line) { (raw) throws(SerializationError) in
            try sink.take(.line(raw, offset: lineStart, terminated: false))
        }
    }

    /// Hands out a line that began in an earlier chunk or is over the limit, `tail` being its last bytes (in the
    /// current chunk), and starts the next.
    @inlinable
    mutating func emitLong<Sink: LineSink>(
        _ tail: UnsafeRawBufferPointer, lineStart: Int, into sink: inout Sink
    ) throws(SerializationError) {
        let length = lineLength + tail.count
        if oversized || length > maxLineBytes {
            reset()
            try sink.take(.oversized(offset: lineStart, length: length))
        } else if carry.isEmpty {
            reset()
            try sink.take(.line(tail, offset: lineStart, terminated: true))
        } else {
            var line = carry
            line.append(contentsOf: tail)
            reset()
            try Self.withBytes(of: line) { (raw) throws(SerializationError) in
                try sink.take(.line(raw, offset: lineStart, terminated: true))
            }
        }
    }

    /// `array.withUnsafeBytes` with a typed error.
    @usableFromInline
    static func withBytes(
        of array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(SerializationError) -> Void
    ) throws(SerializationError) {
        var failure: SerializationError?
        array.withUnsafeBytes { raw in
            do throws(SerializationError) {
                try body(raw)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    @inlinable @inline(__always)
    mutating func reset() {
        if !carry.isEmpty { carry.removeAll(keepingCapacity: true) }
        lineLength = 0
        oversized = false
    }
}

/// A closure as a ``LineSink``, for ``LineFramer/consume(_:_:)``.
struct ClosureSink: LineSink {
    let body: (LineFramer.Piece) throws(SerializationError) -> Void

    func take(_ piece: LineFramer.Piece) throws(SerializationError) { try body(piece) }
}
