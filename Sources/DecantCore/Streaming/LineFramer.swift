/// Splits a body that arrives in chunks into lines, for line-based stream formats (NDJSON, JSON Lines, server-sent
/// events): the framing half of a ``RecordDecoder``.
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
    public private(set) var offset = 0

    /// The beginning of a line cut by a chunk boundary.
    private var carry: [UInt8] = []
    /// The length of the current line so far, kept or not.
    private var lineLength = 0
    /// Whether the current line is longer than the limit (its bytes are dropped).
    private var oversized = false
    /// Whether the last byte consumed was a CR ending a line, so that an LF first in the next chunk belongs to it.
    private var afterCarriageReturn = false
    /// Whether the current line's bytes so far end with a CR (with `lineFeed`, it goes if an LF comes next).
    private var previousChunkEndedWithCarriageReturn = false

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
        var start = 0
        let count = bytes.count
        if afterCarriageReturn, count > 0 {
            afterCarriageReturn = false
            if bytes[0] == 0x0A { start = 1 }
        }
        let base = offset
        var position = start
        let delimiter: UInt8 = lineEnds == .recordSeparator ? 0x1E : 0x0A
        let carriageReturn = lineEnds == .carriageReturnOrLineFeed
        while let end = Self.lineEnd(in: bytes, from: position, delimiter: delimiter, carriageReturn: carriageReturn) {
            var next = end + 1
            var contentEnd = end
            // Where the line began: before a CR carried from the previous chunk is dropped from its end.
            let lineStart = base + position - lineLength
            if carriageReturn, bytes[end] == 0x0D {
                // Only reachable with `carriageReturnOrLineFeed`: CR LF is one line end.
                if next < count {
                    if bytes[next] == 0x0A { next += 1 }
                } else {
                    afterCarriageReturn = true
                }
            } else if lineEnds == .lineFeed {
                if contentEnd > position, bytes[contentEnd - 1] == 0x0D {
                    contentEnd -= 1
                } else if contentEnd == start, lineLength > 0, previousChunkEndedWithCarriageReturn {
                    // The CR was the last byte of the previous chunk.
                    if !oversized { carry.removeLast() }
                    lineLength -= 1
                }
            }
            try emit(UnsafeRawBufferPointer(rebasing: bytes[position..<contentEnd]), lineStart: lineStart, body)
            position = next
        }
        // The rest is the beginning of a line.
        let rest = count - position
        if count > 0 { previousChunkEndedWithCarriageReturn = rest > 0 && bytes[count - 1] == 0x0D }
        if rest > 0 {
            lineLength += rest
            if !oversized, lineLength > maxLineBytes + (lineEnds == .lineFeed ? 1 : 0) {
                // (One byte of slack for a CR that may turn out to be the line's end.)
                oversized = true
                carry = []
            }
            if !oversized { carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position...])) }
        }
        offset = base + count
    }

    /// The body ended: hands out the last line if it has no line end (`terminated` is `false`).
    ///
    /// - Throws: what `body` throws.
    public mutating func finish(_ body: (Piece) throws(SerializationError) -> Void) throws(SerializationError) {
        afterCarriageReturn = false
        guard lineLength > 0 else { return }
        let lineStart = offset - lineLength
        if oversized || lineLength > maxLineBytes {
            let length = lineLength
            reset()
            try body(.oversized(offset: lineStart, length: length))
            return
        }
        let line = carry
        reset()
        try Self.withBytes(of: line) { (raw) throws(SerializationError) in
            try body(.line(raw, offset: lineStart, terminated: false))
        }
    }

    /// Hands out the current line, `tail` being its last bytes (in the current chunk), and starts the next.
    private mutating func emit(
        _ tail: UnsafeRawBufferPointer, lineStart: Int, _ body: (Piece) throws(SerializationError) -> Void
    ) throws(SerializationError) {
        let length = lineLength + tail.count
        if oversized || length > maxLineBytes {
            reset()
            try body(.oversized(offset: lineStart, length: length))
        } else if carry.isEmpty {
            reset()
            try body(.line(tail, offset: lineStart, terminated: true))
        } else {
            var line = carry
            line.append(contentsOf: tail)
            reset()
            try Self.withBytes(of: line) { (raw) throws(SerializationError) in
                try body(.line(raw, offset: lineStart, terminated: true))
            }
        }
    }

    /// `array.withUnsafeBytes` with a typed error.
    private static func withBytes(
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

    private mutating func reset() {
        carry.removeAll(keepingCapacity: true)
        lineLength = 0
        oversized = false
    }

    /// The index of the first `delimiter` (or CR, when `carriageReturn`) at or after `start`.
    @inline(__always)
    private static func lineEnd(
        in bytes: UnsafeRawBufferPointer, from start: Int, delimiter: UInt8, carriageReturn: Bool
    ) -> Int? {
        var index = start
        let count = bytes.count
        let lineFeed = SIMD16<UInt8>(repeating: delimiter)
        let cr = SIMD16<UInt8>(repeating: 0x0D)
        while index + 16 <= count {
            let block = bytes.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            var found = block .== lineFeed
            if carriageReturn { found .|= block .== cr }
            if any(found) {
                for lane in 0..<16 where found[lane] { return index + lane }
            }
            index += 16
        }
        while index < count {
            let byte = bytes[index]
            if byte == delimiter || (carriageReturn && byte == 0x0D) { return index }
            index += 1
        }
        return nil
    }
}
