public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes server-sent events one at a time in the WHATWG HTML Standard's event stream format (§9.2.5,
/// `text/event-stream`): the inverse of ``EventStreamRecordReader``, for a server that streams events as they happen.
///
/// Each event is a block of fields, each on its own line ended by LF, then an empty line that dispatches it:
///
/// - `id: ID` when the event's ``ServerSentEvent/lastEventID`` differs from the one in effect at the client (the last
///   one this writer wrote, `""` at first): an ID persists across events, so it is written only when it changes, and
///   a change to `""` is written as `id:`, which resets it. An ID containing LF, CR or NUL cannot be written (the
///   client would end the line there, or ignore the field): `encodingFailed`.
/// - `retry: N` when the event's ``ServerSentEvent/retry`` is set and differs from the one in effect. A reconnection
///   time cannot be withdrawn, so `nil` writes nothing and the client keeps the time it has; a negative one cannot be
///   written (the field takes ASCII digits only): `encodingFailed`.
/// - `event: TYPE` when the type is not `message` (the client's default); an empty type is written as no field too,
///   which the client reads as `message`. A type containing LF or CR cannot be written: `encodingFailed`.
/// - `data: LINE` for each line of ``ServerSentEvent/data``, which is split at LF, CR and CR LF: the client joins the
///   lines with LF, so data with CR or CR LF reads back with LF in their place. Empty data is one `data:` line (an
///   event without a `data` field is never dispatched).
///
/// A field with an empty value is written as `name:`, any other as `name: value`: the client drops one space after
/// the colon, so a value that starts with a space keeps it. Because the ID and reconnection time in effect carry over
/// from event to event, a writer is used for one stream from its start, in order; ``init(lastEventID:retry:)``
/// continues a stream the client reconnected to (with the `Last-Event-ID` it sent).
///
/// ```swift
/// var writer = EventStreamRecordWriter()
/// try await connection.send(try writer.write(ServerSentEvent(type: "add", data: "{\"id\": 1}", lastEventID: "1")))
/// try await connection.send(writer.comment("keep-alive"))
/// // "id: 1\nevent: add\ndata: {\"id\": 1}\n\n", then ": keep-alive\n"
/// ```
///
/// A stream of events becomes a stream of chunks, one per event, with `encodedChunks(using:)`.
public struct EventStreamRecordWriter: Sendable {
    /// The last event ID in effect at the client: the last one written, or the one the writer was created with.
    public private(set) var lastEventID: String
    /// The reconnection time in effect at the client, in milliseconds: the last one written, or the one the writer
    /// was created with.
    public private(set) var retry: Int?

    /// Creates a writer for a stream the client has just opened, or reopened with `Last-Event-ID: lastEventID`.
    ///
    /// - Parameters:
    ///   - lastEventID: The last event ID the client already has in effect (`""` for a new stream).
    ///   - retry: The reconnection time the client already has in effect, if one was sent before.
    public init(lastEventID: String = "", retry: Int? = nil) {
        self.lastEventID = lastEventID
        self.retry = retry
    }

    /// The bytes of one event, dispatched by the empty line that ends them; the ID and reconnection time in effect
    /// become the event's.
    ///
    /// - Throws: `SerializationError` with code `encodingFailed` (and the field in the coding path) for an ID with
    ///   LF, CR or NUL, a type with LF or CR, or a negative reconnection time; the writer is unchanged then.
    public mutating func write(_ event: ServerSentEvent) throws(SerializationError) -> Data {
        var output: [UInt8] = []
        try append(event, to: &output)
        return Data(output)
    }

    /// The bytes of a whole body: every event in order, then, when ``ServerSentEvents/retry`` is set and differs
    /// from the one in effect after the last event, a `retry` field alone (which dispatches nothing).
    ///
    /// - Throws: As writing one event does, with the event's index first in the coding path.
    public mutating func write(_ events: ServerSentEvents) throws(SerializationError) -> Data {
        var output: [UInt8] = []
        for (index, event) in events.events.enumerated() {
            do {
                try append(event, to: &output)
            } catch {
                var error = error
                error.codingPath.insert(String(index), at: 0)
                error.message = "Event \(index) cannot be written: " + error.message
                throw error
            }
        }
        if let retry = events.retry, retry != self.retry {
            try Self.check(retry: retry, path: ["retry"])
            Self.field("retry", String(retry).utf8, to: &output)
            output.append(0x0A)
            self.retry = retry
        }
        return Data(output)
    }

    /// The bytes of a comment, `: text` (one line per line of `text`, split as data is): ignored by the client, and
    /// what a server sends to keep an idle connection open through proxies.
    ///
    /// ```swift
    /// writer.comment("keep-alive")   // ": keep-alive\n"
    /// ```
    public func comment(_ text: String = "") -> Data {
        var output: [UInt8] = []
        var text = text
        text.withUTF8 { bytes in
            Self.forEachLine(of: UnsafeRawBufferPointer(bytes)) { line in
                output.append(UInt8(ascii: ":"))
                if !line.isEmpty {
                    output.append(UInt8(ascii: " "))
                    output.append(contentsOf: line)
                }
                output.append(0x0A)
            }
        }
        return Data(output)
    }

    /// Appends one event's bytes to `output`, and makes its ID and reconnection time the ones in effect; on error
    /// nothing changes.
    private mutating func append(_ event: ServerSentEvent, to output: inout [UInt8]) throws(SerializationError) {
        let writesID = event.lastEventID != lastEventID
        if writesID {
            if event.lastEventID.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) {
                throw Self.failure(
                    "The event ID \(String(reflecting: event.lastEventID)) contains a line feed, carriage return or "
                        + "NUL, which an event stream cannot carry (the client ends the line there, or ignores an ID "
                        + "with NUL). Use an ID without them.",
                    path: ["lastEventID"])
            }
        }
        let writesRetry = event.retry != nil && event.retry != retry
        if let retry = event.retry, writesRetry { try Self.check(retry: retry, path: ["retry"]) }
        let writesType = event.type != "message" && !event.type.isEmpty
        if writesType, event.type.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            throw Self.failure(
                "The event type \(String(reflecting: event.type)) contains a line feed or carriage return, which an "
                    + "event stream cannot carry (the client ends the line there). Use a type without them.",
                path: ["type"])
        }
        if writesID {
            Self.field("id", event.lastEventID.utf8, to: &output)
            lastEventID = event.lastEventID
        }
        if let retry = event.retry, writesRetry {
            Self.field("retry", String(retry).utf8, to: &output)
            self.retry = retry
        }
        if writesType { Self.field("event", event.type.utf8, to: &output) }
        event.withDataBytes { data in
            Self.forEachLine(of: data) { line in Self.field("data", line, to: &output) }
        }
        output.append(0x0A)
    }

    /// Appends `name: value` and LF (`name:` for an empty value).
    private static func field(_ name: StaticString, _ value: some Collection<UInt8>, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        output.append(UInt8(ascii: ":"))
        if !value.isEmpty {
            output.append(UInt8(ascii: " "))
            output.append(contentsOf: value)
        }
        output.append(0x0A)
    }

    /// Calls `body` with each line of `bytes`, split at LF, CR and CR LF, as the client splits a stream: one call
    /// for empty bytes, and one more after a final line end.
    private static func forEachLine(
        of bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer.SubSequence) -> Void
    ) {
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                body(bytes[start..<index])
                index += byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        body(bytes[start..<bytes.count])
    }

    /// Throws unless `retry` can be written (ASCII digits only: not negative).
    private static func check(retry: Int, path: [String]) throws(SerializationError) {
        guard retry >= 0 else {
            throw failure(
                "The reconnection time \(retry) is negative: the retry field takes ASCII digits only. Use a time of "
                    + "0 or more milliseconds, or none.",
                path: path)
        }
    }

    private static func failure(_ message: String, path: [String]) -> SerializationError {
        SerializationError(
            code: .encodingFailed, message: message, serializerID: MediaFormat.eventStream.id, codingPath: path)
    }
}
