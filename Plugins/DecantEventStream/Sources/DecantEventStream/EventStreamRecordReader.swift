import DecantBytes
public import DecantCore

/// The incremental parser of `text/event-stream`: the WHATWG HTML Standard's "interpreting an event stream"
/// (§9.2.6), fed in chunks.
///
/// - The stream is UTF-8 (invalid sequences become U+FFFD); one byte order mark at its start is dropped.
/// - Lines end with CR LF, LF or CR (also when a CR and its LF arrive in different chunks).
/// - A line starting with `:` is a comment. Otherwise the field name runs to the first `:` (or the whole line, the
///   value then being empty) and one space after the colon is dropped from the value.
/// - `event` sets the type, `data` appends the value and an LF to the data, `id` sets the last event ID unless the
///   value contains NUL, `retry` sets the reconnection time when the value is ASCII digits only; other fields are
///   ignored.
/// - An empty line dispatches the event: none when the data is empty; the data loses its last LF; the type is
///   `message` when none was set. Type and data are reset; the last event ID persists.
/// - At the end of the body, an event without its empty line, and a last line without its end, are discarded.
///
/// The data of one event is bounded by `maxRecordBytes` (and each line by the same limit): a larger event becomes
/// a `limitExceeded` record error, its bytes not kept.
///
/// The parser frames lines itself rather than through `LineFramer`: a line inside one chunk is read in place (its
/// end found eight bytes at a time) and interpreted in the same loop; only a line cut by a chunk boundary is
/// gathered, up to the limit. Short data (up to 15 bytes) stays bytes in the event until it is read.
public struct EventStreamRecordReader: RecordReader {
    private let maxRecordBytes: Int

    // Framing.
    /// The number of bytes consumed so far: the offset of the next byte.
    private var consumed = 0
    /// The beginning of a line cut by a chunk boundary (empty when the line is over the limit).
    private var carry: [UInt8] = []
    /// The length of the line begun in earlier chunks, kept or not.
    private var carriedLength = 0
    /// Whether the last byte consumed was a CR ending a line, so that an LF first in the next chunk belongs to it.
    private var afterCarriageReturn = false

    // Parsing, between lines.
    /// What the current event's data is so far.
    private var dataKind = DataKind.none
    /// The data when it is ``DataKind/short``: its bytes as words, and their count.
    private var shortWords: (UInt64, UInt64) = (0, 0)
    private var shortCount = 0
    /// The data when it is ``DataKind/single``: the value of the one `data` line, decoded.
    private var singleData = ""
    /// The data when it is ``DataKind/joined``: the values of its `data` lines, each followed by LF.
    private var data: [UInt8] = []
    /// Whether the current event has a type: ``cachedType`` (an empty `event` value resets it to `message`).
    private var hasType = false
    /// The last type decoded, and its bytes: a stream repeats its few types, decoded once. Up to 16 bytes are
    /// compared as two words, longer types against `cachedTypeBytes`.
    private var cachedType = ""
    private var cachedTypeWords: (UInt64, UInt64) = (0, 0)
    private var cachedTypeCount = -1
    private var cachedTypeBytes: [UInt8] = []
    /// The last event ID buffer: the last `id` field read, committed to ``lastEventID`` by the next empty line.
    private var lastEventIDBuffer = ""
    /// Whether an `id` field has set the buffer since the last empty line.
    private var lastEventIDChanged = false
    /// The offset of the first line of the current event (negative before it), for errors.
    private var eventStart = -1
    private var eventTooLarge = false

    /// The reconnection time, in milliseconds, last set by a valid `retry` field (it takes effect when the field is
    /// read, even in an event that is never dispatched).
    public private(set) var retry: Int?

    /// The last event ID string, as the WHATWG processing model keeps it: the last `id` field as of the last empty
    /// line (an empty line commits it even when it dispatches nothing, as after `id: 7` alone); an `id` field of an
    /// event cut off by the end of the body is not. The value a client that reconnects sends as `Last-Event-ID`.
    public private(set) var lastEventID: String

    /// What the data of the current event is so far.
    private enum DataKind {
        /// No `data` line yet: nothing is dispatched.
        case none
        /// One `data` line of at most 15 bytes, kept as bytes.
        case short
        /// One longer `data` line, decoded.
        case single
        /// Several `data` lines, joined.
        case joined
    }

    /// Creates a parser.
    public init(maxRecordBytes: Int) {
        self.init(maxRecordBytes: maxRecordBytes, lastEventID: "")
    }

    /// Creates a parser for a stream that continues another (a reconnection): events without an `id` field carry
    /// `lastEventID`, as browsers keep the last event ID across reconnections.
    public init(maxRecordBytes: Int, lastEventID: String) {
        self.maxRecordBytes = max(0, maxRecordBytes)
        self.lastEventID = lastEventID
        self.lastEventIDBuffer = lastEventID
    }

    /// Feeds bytes; appends each event they dispatch.
    public mutating func consume(
        _ bytes: UnsafeRawBufferPointer, into records: inout [Result<ServerSentEvent, SerializationError>]
    ) throws(SerializationError) {
        let count = bytes.count
        guard count > 0 else { return }
        let base = consumed
        consumed = base &+ count
        var position = 0
        if afterCarriageReturn {
            afterCarriageReturn = false
            if bytes[0] == 0x0A { position = 1 }
        }
        if carriedLength > 0 {
            // The end of a line begun in an earlier chunk.
            guard let end = Self.lineEnd(in: bytes, from: position) else {
                return carryOn(UnsafeRawBufferPointer(rebasing: bytes[position...]))
            }
            let lineStart = base &+ position &- carriedLength
            if carriedLength &+ end &- position > maxRecordBytes {
                oversizedLine(at: lineStart)
            } else {
                carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[position..<end]))
                let gathered = carry
                gathered.withUnsafeBytes { raw in
                    separateLine(lineStart == 0 ? Self.droppingBOM(raw) : raw, at: lineStart, into: &records)
                }
            }
            carry.removeAll(keepingCapacity: true)
            carriedLength = 0
            position = next(after: end, in: bytes)
        } else if base == 0, position == 0, let end = Self.lineEnd(in: bytes, from: 0) {
            // The first line of the body, which may start with a byte order mark.
            let first = UnsafeRawBufferPointer(rebasing: bytes[..<end])
            if end > maxRecordBytes {
                oversizedLine(at: 0)
            } else {
                separateLine(Self.droppingBOM(first), at: 0, into: &records)
            }
            position = next(after: end, in: bytes)
        }
        // The lines wholly inside this chunk, read in place; the two fields of nearly every line (`data: ` and
        // `event: `) are recognised here by one load each.
        while position < count {
            guard let end = Self.lineEnd(in: bytes, from: position) else {
                return carryOn(UnsafeRawBufferPointer(rebasing: bytes[position...]))
            }
            let length = end &- position
            if length == 0 {
                if lastEventIDChanged { commitLastEventID() }
                if dataKind == .short, !eventTooLarge {
                    // The usual event: one short `data` line (nothing to reset but the kind, the type, the start).
                    // (A literal for an empty ID: copying the stored one would cost a retain call.)
                    records.append(
                        .success(
                            ServerSentEvent(
                                type: hasType ? cachedType : "message",
                                shortData: ShortBytes(words: shortWords, count: shortCount),
                                lastEventID: lastEventID.isEmpty ? "" : lastEventID, retry: retry)))
                    dataKind = .none
                    hasType = false
                    eventStart = -1
                } else {
                    dispatch(into: &records)
                }
            } else if length > maxRecordBytes {
                oversizedLine(at: base &+ position)
            } else {
                if eventStart < 0 { eventStart = base &+ position }
                let line = UnsafeRawBufferPointer(rebasing: bytes[position..<end])
                let head = line.count >= 5 ? line.loadUnaligned(as: UInt32.self) : 0
                if head == Self.dataName, line[4] == UInt8(ascii: ":") {
                    let value = UnsafeRawBufferPointer(rebasing: line[(length > 5 && line[5] == 0x20 ? 6 : 5)...])
                    if dataKind == .none, value.count <= ShortBytes.capacity, value.count <= maxRecordBytes,
                        !eventTooLarge
                    {
                        // The usual data line: the first of its event, short (kept as words). Written here rather
                        // than left to `addData`'s inlining, which the compiler may decline.
                        shortWords = Self.words(value)
                        shortCount = value.count
                        dataKind = .short
                    } else {
                        addData(value)
                    }
                } else if head == Self.eventName, length >= 6, line[4] == UInt8(ascii: "t"),
                    line[5] == UInt8(ascii: ":")
                {
                    setType(UnsafeRawBufferPointer(rebasing: line[(length > 6 && line[6] == 0x20 ? 7 : 6)...]))
                } else {
                    otherLine(line)
                }
            }
            position = next(after: end, in: bytes)
        }
    }

    /// The body ended: an event without its empty line, and a last line without its end, are discarded.
    public mutating func finish(
        into records: inout [Result<ServerSentEvent, SerializationError>]
    )
        throws(SerializationError)
    {
        afterCarriageReturn = false
        carry.removeAll()
        carriedLength = 0
        discardEvent()
    }

    /// The offset after the line end at `end` (CR LF is one end; a CR last in the chunk may be followed by an LF
    /// first in the next).
    @inline(__always)
    private mutating func next(after end: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        let next = end &+ 1
        guard bytes[end] == 0x0D else { return next }
        if next == bytes.count {
            afterCarriageReturn = true
            return next
        }
        return bytes[next] == 0x0A ? next &+ 1 : next
    }

    /// The rest of the chunk begins a line: kept for the next chunk, up to the limit.
    private mutating func carryOn(_ rest: UnsafeRawBufferPointer) {
        let kept = carriedLength <= maxRecordBytes
        carriedLength &+= rest.count
        if carriedLength > maxRecordBytes {
            if kept { carry = [] }
        } else {
            carry.append(contentsOf: rest)
        }
    }

    /// `line` without a UTF-8 byte order mark at its start.
    private static func droppingBOM(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF else { return line }
        return UnsafeRawBufferPointer(rebasing: line[3...])
    }

    /// The offset of the first CR or LF at or after `start`. Eight bytes at a time: a word's bytes below 0x0E are
    /// flagged (the lowest flag is exact: a borrow only runs upwards from a flagged byte), and the first flagged
    /// byte that is not CR or LF (a tab, say) resumes the search after it.
    @inline(__always)
    private static func lineEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        let count = bytes.count
        while index &+ 8 <= count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let flags = (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080
            if flags != 0 {
                let found = index &+ flags.trailingZeroBitCount &>> 3
                let byte = bytes[found]
                if byte == 0x0A || byte == 0x0D { return found }
                index = found &+ 1
            } else {
                index &+= 8
            }
        }
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D { return index }
            index &+= 1
        }
        return nil
    }

    /// A line longer than the limit: its event becomes a `limitExceeded` error.
    private mutating func oversizedLine(at offset: Int) {
        if eventStart < 0 { eventStart = offset }
        tooLarge()
    }

    /// `data` and `even` as the first four bytes of a line, loaded as one integer in this machine's order.
    private static let dataName = UInt32(littleEndian: 0x6174_6164)
    private static let eventName = UInt32(littleEndian: 0x6E65_7665)

    /// Interprets one line (without its end) that starts at `offset` in the body: the path of the lines the main
    /// loop of ``consume(_:into:)`` does not read in place.
    private mutating func separateLine(
        _ line: UnsafeRawBufferPointer, at offset: Int,
        into records: inout [Result<ServerSentEvent, SerializationError>]
    ) {
        if line.isEmpty { return dispatch(into: &records) }
        if eventStart < 0 { eventStart = offset }
        otherLine(line)
    }

    /// A non-empty line: a comment, or a field split at its first colon.
    private mutating func otherLine(_ line: UnsafeRawBufferPointer) {
        let count = line.count
        var colon = 0
        while colon < count, line[colon] != UInt8(ascii: ":") { colon &+= 1 }
        if colon == 0 { return }  // a comment
        var valueStart = colon < count ? colon &+ 1 : count
        if valueStart < count, line[valueStart] == 0x20 { valueStart &+= 1 }
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        let value = UnsafeRawBufferPointer(rebasing: line[valueStart...])
        switch name.count {
        case 4 where Self.isName(name, "data"):
            addData(value)
        case 5 where Self.isName(name, "event"):
            setType(value)
        case 2 where Self.isName(name, "id"):
            if !value.contains(0) {
                lastEventIDBuffer = String(decoding: value, as: UTF8.self)
                lastEventIDChanged = true
            }
        case 5 where Self.isName(name, "retry"):
            guard !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) else { return }
            var milliseconds = 0
            for digit in value {
                let (times, overflow) = milliseconds.multipliedReportingOverflow(by: 10)
                let (sum, overflowAgain) = times.addingReportingOverflow(Int(digit - 0x30))
                // A value beyond Int.max is still digits only: it saturates.
                milliseconds = overflow || overflowAgain ? Int.max : sum
            }
            retry = milliseconds
        default:
            break
        }
    }

    /// Whether `name` is the ASCII field name `literal` (exact bytes: field names are case-sensitive).
    private static func isName(_ name: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        guard name.count == literal.utf8CodeUnitCount else { return false }
        let expected = literal.utf8Start
        for index in 0..<name.count where name[index] != expected[index] { return false }
        return true
    }

    /// A `data` field: its value is appended to the data.
    @inline(__always)
    private mutating func addData(_ value: UnsafeRawBufferPointer) {
        guard !eventTooLarge else { return }
        let count = value.count
        switch dataKind {
        case .none:
            guard count <= maxRecordBytes else { return tooLarge() }
            if count <= ShortBytes.capacity {
                shortWords = Self.words(value)
                shortCount = count
                dataKind = .short
            } else {
                singleData = String(decoding: value, as: UTF8.self)
                dataKind = .single
            }
        case .short, .single, .joined:
            addAnotherData(value)
        }
    }

    /// A second or later `data` field: the data becomes bytes, joined with LF.
    private mutating func addAnotherData(_ value: UnsafeRawBufferPointer) {
        switch dataKind {
        case .short:
            ShortBytes(words: shortWords, count: shortCount).withBytes { data.append(contentsOf: $0) }
            data.append(0x0A)
        case .single:
            data.append(contentsOf: singleData.utf8)
            data.append(0x0A)
            singleData = ""
        case .none, .joined:
            break
        }
        dataKind = .joined
        guard data.count &+ value.count <= maxRecordBytes else { return tooLarge() }
        data.append(contentsOf: value)
        data.append(0x0A)
    }

    /// An `event` field: the type of the current event.
    @inline(__always)
    private mutating func setType(_ value: UnsafeRawBufferPointer) {
        let count = value.count
        if count == 0 {
            hasType = false  // an empty type dispatches as `message`
            return
        }
        hasType = true
        if count <= 16 {
            let words = Self.words(value)
            if count == cachedTypeCount, words == cachedTypeWords { return }
            cachedTypeWords = words
        } else {
            if count == cachedTypeCount, cachedTypeBytes.elementsEqual(value) { return }
            cachedTypeBytes.removeAll(keepingCapacity: true)
            cachedTypeBytes.append(contentsOf: value)
        }
        cachedTypeCount = count
        cachedType = String(decoding: value, as: UTF8.self)
    }

    /// The bytes of `value` (at most 16) as two little-endian words, zeros after the end.
    @inline(__always)
    private static func words(_ value: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        guard let start = value.baseAddress else { return (0, 0) }
        return ByteRun.shortWords(start, count: value.count)
    }

    /// The current event's data is over the limit: its bytes are dropped and it becomes an error.
    private mutating func tooLarge() {
        eventTooLarge = true
        dataKind = .none
        singleData = ""
        data = []
    }

    /// Forgets the current event (its type and data), keeping the last event ID and the retry time.
    @inline(__always)
    private mutating func discardEvent() {
        switch dataKind {
        case .none, .short: break
        case .single: singleData = ""
        case .joined: data.removeAll(keepingCapacity: true)
        }
        dataKind = .none
        hasType = false
        eventStart = -1
        eventTooLarge = false
    }

    /// An empty line: the last event ID buffer becomes the last event ID string.
    private mutating func commitLastEventID() {
        lastEventID = lastEventIDBuffer
        lastEventIDChanged = false
    }

    /// An empty line: the current event is dispatched, if it has data.
    private mutating func dispatch(into records: inout [Result<ServerSentEvent, SerializationError>]) {
        if lastEventIDChanged { commitLastEventID() }
        if eventTooLarge {
            records.append(.failure(tooLargeError()))
        } else {
            let type = hasType ? cachedType : "message"
            switch dataKind {
            case .none:
                break
            case .short:
                records.append(
                    .success(
                        ServerSentEvent(
                            type: type, shortData: ShortBytes(words: shortWords, count: shortCount),
                            lastEventID: lastEventID, retry: retry)))
            case .single:
                records.append(
                    .success(ServerSentEvent(type: type, data: singleData, lastEventID: lastEventID, retry: retry)))
            case .joined:
                let text = data.withUnsafeBufferPointer { String(decoding: $0.dropLast(), as: UTF8.self) }
                records.append(
                    .success(ServerSentEvent(type: type, data: text, lastEventID: lastEventID, retry: retry)))
            }
        }
        discardEvent()
    }

    private func tooLargeError() -> SerializationError {
        let offset = max(0, eventStart)
        return SerializationError(
            code: .limitExceeded,
            message: "The event at offset \(offset) is larger than the limit of \(maxRecordBytes) bytes. Raise "
                + "StreamOptions.maxRecordBytes (the option maxRecordBytes) if such events are expected.",
            offset: offset)
    }
}
