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
public struct EventStreamDecoder: RecordDecoder {
    private var framer: LineFramer
    private var state: State

    /// The reconnection time, in milliseconds, last set by a valid `retry` field.
    public var retry: Int? { state.retry }

    /// Creates a parser.
    public init(maxRecordBytes: Int) {
        framer = LineFramer(lineEnds: .carriageReturnOrLineFeed, maxLineBytes: maxRecordBytes)
        state = State(maxRecordBytes: maxRecordBytes)
    }

    /// Feeds bytes; appends each event they dispatch.
    public mutating func consume(
        _ bytes: UnsafeRawBufferPointer, into records: inout [Result<ServerSentEvent, SerializationError>]
    ) throws(SerializationError) {
        // The state (with the records) leaves `self` while the framer (also in `self`) hands it lines.
        var state = self.state
        self.state = State(maxRecordBytes: 0)
        swap(&state.records, &records)
        defer {
            swap(&state.records, &records)
            self.state = state
        }
        try framer.consume(bytes, into: &state)
    }

    /// The body ended: an event without its empty line is discarded.
    public mutating func finish(
        into records: inout [Result<ServerSentEvent, SerializationError>]
    )
        throws(SerializationError)
    {
        try framer.finish { _ in }
        state.discardEvent()
    }

    /// The parsing state between lines.
    private struct State: LineSink {
        /// The events dispatched during the current ``consume(_:into:)`` (empty between calls).
        var records: [Result<ServerSentEvent, SerializationError>] = []
        /// The data of the current event when it has one `data` line: its value, decoded.
        var singleData: String?
        /// The data of the current event when it has several `data` lines: their values, each followed by LF.
        var data: [UInt8] = []
        /// The type set by the current event's last `event` field.
        var eventType: String?
        /// The last type decoded, and its bytes: a stream repeats its few types, decoded once.
        var cachedType = ""
        var cachedTypeBytes: [UInt8] = []
        var lastEventID = ""
        /// The offset of the first line of the current event, for errors.
        var eventStart: Int?
        var eventTooLarge = false
        var retry: Int?
        let maxRecordBytes: Int

        init(maxRecordBytes: Int) { self.maxRecordBytes = maxRecordBytes }

        @inline(__always)
        mutating func take(_ piece: LineFramer.Piece) {
            switch piece {
            case .oversized(let offset, _):
                if eventStart == nil { eventStart = offset }
                eventTooLarge = true
            case .line(var line, let offset, _):
                if offset == 0, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
                    line = UnsafeRawBufferPointer(rebasing: line[3...])
                }
                let count = line.count
                if count == 0 {
                    dispatch()
                    return
                }
                if eventStart == nil { eventStart = offset }
                // The two fields of nearly every line, recognised by one load each.
                if count >= 5, line.loadUnaligned(as: UInt32.self) == Self.dataName, line[4] == UInt8(ascii: ":") {
                    let valueStart = count > 5 && line[5] == 0x20 ? 6 : 5
                    return addData(UnsafeRawBufferPointer(rebasing: line[valueStart...]))
                }
                if count >= 6, line.loadUnaligned(as: UInt32.self) == Self.eventName, line[4] == UInt8(ascii: "t"),
                    line[5] == UInt8(ascii: ":")
                {
                    let valueStart = count > 6 && line[6] == 0x20 ? 7 : 6
                    return setType(UnsafeRawBufferPointer(rebasing: line[valueStart...]))
                }
                var colon = 0
                while colon < count, line[colon] != UInt8(ascii: ":") { colon &+= 1 }
                if colon == 0 { return }  // a comment
                var valueStart = colon < count ? colon &+ 1 : count
                if valueStart < count, line[valueStart] == 0x20 { valueStart &+= 1 }
                field(
                    UnsafeRawBufferPointer(rebasing: line[..<colon]),
                    UnsafeRawBufferPointer(rebasing: line[valueStart...]))
            }
        }

        /// `data` and `even` as the first four bytes of a line, loaded as one integer in this machine's order.
        static let dataName = UInt32(littleEndian: 0x6174_6164)
        static let eventName = UInt32(littleEndian: 0x6E65_7665)

        /// Whether `bytes` and `array` hold the same bytes: eight at a time, then four, then one.
        @inline(__always)
        static func equal(_ bytes: UnsafeRawBufferPointer, _ array: [UInt8]) -> Bool {
            guard bytes.count == array.count else { return false }
            return array.withUnsafeBytes { stored in
                var index = 0
                let count = stored.count
                while index &+ 8 <= count {
                    if stored.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        != bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    {
                        return false
                    }
                    index &+= 8
                }
                if index &+ 4 <= count {
                    if stored.loadUnaligned(fromByteOffset: index, as: UInt32.self)
                        != bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)
                    {
                        return false
                    }
                    index &+= 4
                }
                while index < count {
                    if stored[index] != bytes[index] { return false }
                    index &+= 1
                }
                return true
            }
        }

        /// Whether `name` is the ASCII field name `literal` (exact bytes: field names are case-sensitive).
        @inline(__always)
        static func isName(_ name: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
            guard name.count == literal.utf8CodeUnitCount else { return false }
            let expected = literal.utf8Start
            for index in 0..<name.count where name[index] != expected[index] { return false }
            return true
        }

        @inline(__always)
        mutating func field(_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) {
            switch name.count {
            case 4 where Self.isName(name, "data"):
                addData(value)
            case 5 where Self.isName(name, "event"):
                setType(value)
            case 2 where Self.isName(name, "id"):
                if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
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

        /// A `data` field: its value is appended to the data.
        @inline(__always)
        mutating func addData(_ value: UnsafeRawBufferPointer) {
            guard !eventTooLarge else { return }
            if data.isEmpty {
                if singleData == nil {
                    guard value.count <= maxRecordBytes else { return tooLarge() }
                    singleData = String(decoding: value, as: UTF8.self)
                    return
                }
                // A second line: the data becomes bytes, joined with LF.
                data.append(contentsOf: singleData.take()!.utf8)
                data.append(0x0A)
            }
            guard data.count + value.count <= maxRecordBytes else { return tooLarge() }
            data.append(contentsOf: value)
            data.append(0x0A)
        }

        /// An `event` field: the type of the current event.
        @inline(__always)
        mutating func setType(_ value: UnsafeRawBufferPointer) {
            if value.isEmpty {
                eventType = nil  // an empty type dispatches as `message`
            } else if Self.equal(value, cachedTypeBytes) {
                eventType = cachedType
            } else {
                cachedTypeBytes.removeAll(keepingCapacity: true)
                cachedTypeBytes.append(contentsOf: value)
                cachedType = String(decoding: value, as: UTF8.self)
                eventType = cachedType
            }
        }

        /// The current event's data is over the limit: its bytes are dropped and it becomes an error.
        mutating func tooLarge() {
            eventTooLarge = true
            singleData = nil
            data = []
        }

        /// Forgets the current event (its type and data), keeping the last event ID and the retry time.
        @inline(__always)
        mutating func discardEvent() {
            singleData = nil
            if !data.isEmpty { data.removeAll(keepingCapacity: true) }
            eventType = nil
            eventStart = nil
            eventTooLarge = false
        }

        @inline(__always)
        mutating func dispatch() {
            defer { discardEvent() }
            if eventTooLarge {
                records.append(.failure(tooLargeError()))
                return
            }
            let text: String
            if let single = singleData.take() {
                text = single
            } else if !data.isEmpty {
                text = data.withUnsafeBufferPointer { String(decoding: $0.dropLast(), as: UTF8.self) }
            } else {
                return
            }
            records.append(
                .success(
                    ServerSentEvent(
                        type: eventType.take() ?? "message", data: text, lastEventID: lastEventID, retry: retry)))
        }

        func tooLargeError() -> SerializationError {
            let offset = eventStart ?? 0
            return SerializationError(
                code: .limitExceeded,
                message: "The event at offset \(offset) is larger than the limit of \(maxRecordBytes) bytes. Raise "
                    + "StreamOptions.maxRecordBytes (the option maxRecordBytes) if such events are expected.",
                offset: offset)
        }
    }
}
