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
    private var data: [UInt8] = []
    private var eventType: [UInt8] = []
    private var lastEventID = ""
    /// The offset of the first line of the current event, for errors.
    private var eventStart: Int?
    private var eventTooLarge = false
    private let maxRecordBytes: Int

    /// The reconnection time, in milliseconds, last set by a valid `retry` field.
    public private(set) var retry: Int?

    /// Creates a parser.
    public init(maxRecordBytes: Int) {
        self.maxRecordBytes = maxRecordBytes
        framer = LineFramer(lineEnds: .carriageReturnOrLineFeed, maxLineBytes: maxRecordBytes)
    }

    /// Feeds bytes; appends each event they dispatch.
    public mutating func consume(
        _ bytes: UnsafeRawBufferPointer, into records: inout [Result<ServerSentEvent, SerializationError>]
    ) throws(SerializationError) {
        var state = State(from: self)
        try framer.consume(bytes) { piece in state.take(piece, into: &records) }
        state.store(into: &self)
    }

    /// The body ended: an event without its empty line is discarded.
    public mutating func finish(
        into records: inout [Result<ServerSentEvent, SerializationError>]
    )
        throws(SerializationError)
    {
        try framer.finish { _ in }
        data = []
        eventType = []
        eventStart = nil
        eventTooLarge = false
    }

    /// The parsing state, moved out of `self` while the framer (also in `self`) calls back.
    private struct State {
        var data: [UInt8]
        var eventType: [UInt8]
        var lastEventID: String
        var eventStart: Int?
        var eventTooLarge: Bool
        var retry: Int?
        let maxRecordBytes: Int

        init(from decoder: EventStreamDecoder) {
            data = decoder.data
            eventType = decoder.eventType
            lastEventID = decoder.lastEventID
            eventStart = decoder.eventStart
            eventTooLarge = decoder.eventTooLarge
            retry = decoder.retry
            maxRecordBytes = decoder.maxRecordBytes
        }

        func store(into decoder: inout EventStreamDecoder) {
            decoder.data = data
            decoder.eventType = eventType
            decoder.lastEventID = lastEventID
            decoder.eventStart = eventStart
            decoder.eventTooLarge = eventTooLarge
            decoder.retry = retry
        }

        mutating func take(_ piece: LineFramer.Piece, into records: inout [Result<ServerSentEvent, SerializationError>])
        {
            switch piece {
            case .oversized(let offset, _):
                if eventStart == nil { eventStart = offset }
                eventTooLarge = true
            case .line(var line, let offset, _):
                if offset == 0, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
                    line = UnsafeRawBufferPointer(rebasing: line[3...])
                }
                if line.isEmpty {
                    dispatch(into: &records)
                    return
                }
                if eventStart == nil { eventStart = offset }
                if line[0] == UInt8(ascii: ":") { return }
                let colon = line.firstIndex(of: UInt8(ascii: ":"))
                let name = UnsafeRawBufferPointer(rebasing: line[..<(colon ?? line.count)])
                var valueStart = colon.map { $0 + 1 } ?? line.count
                if valueStart < line.count, line[valueStart] == 0x20 { valueStart += 1 }
                let value = UnsafeRawBufferPointer(rebasing: line[valueStart...])
                field(name, value)
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

        mutating func field(_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) {
            switch name.count {
            case 4 where Self.isName(name, "data"):
                guard !eventTooLarge else { return }
                if data.count + value.count + 1 > maxRecordBytes + 1 {
                    eventTooLarge = true
                    data = []
                    return
                }
                data.append(contentsOf: value)
                data.append(0x0A)
            case 5 where Self.isName(name, "event"):
                eventType.removeAll(keepingCapacity: true)
                eventType.append(contentsOf: value)
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

        mutating func dispatch(into records: inout [Result<ServerSentEvent, SerializationError>]) {
            defer {
                data.removeAll(keepingCapacity: true)
                eventType.removeAll(keepingCapacity: true)
                eventStart = nil
                eventTooLarge = false
            }
            if eventTooLarge {
                let offset = eventStart ?? 0
                records.append(
                    .failure(
                        SerializationError(
                            code: .limitExceeded,
                            message: "The event at offset \(offset) is larger than the limit of \(maxRecordBytes) "
                                + "bytes. Raise StreamOptions.maxRecordBytes (the option maxRecordBytes) if such "
                                + "events are expected.",
                            offset: offset)))
                return
            }
            guard !data.isEmpty else { return }
            data.removeLast()  // the LF after the last data line
            let type = eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self)
            records.append(
                .success(
                    ServerSentEvent(
                        type: type, data: String(decoding: data, as: UTF8.self), lastEventID: lastEventID,
                        retry: retry)))
        }
    }
}
