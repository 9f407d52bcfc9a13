public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The writing capability of the `eventStream` format: events to `text/event-stream` bodies, so that
/// `SerializerRegistry.encode(_:as:options:)` and content negotiation write them.
///
/// It writes ``ServerSentEvents`` (every event, then its final `retry`), a single ``ServerSentEvent`` and an array of
/// them, through one ``EventStreamRecordWriter`` per body (its rules: which fields are written, and what cannot be).
/// `EncodingOptions` do not apply. The `Content-Type` written is `text/event-stream` without parameters: the format is
/// always UTF-8, and the HTML Standard's registration says a `charset` parameter "serves no purpose", so a requested
/// one is not echoed.
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.eventStream)
/// let body = try registry.encode(ServerSentEvent(type: "done", data: "[DONE]"), as: "text/event-stream")
/// String(decoding: body.body, as: UTF8.self)   // "event: done\ndata: [DONE]\n\n"
/// ```
public struct EventStreamBodyEncoder: BodyEncoder, FormatComponent {
    /// The `eventStream` format.
    public static var format: MediaFormat { .eventStream }

    /// Creates the encoder.
    public init() {}

    /// Whether `value` is ``ServerSentEvents``, a ``ServerSentEvent`` or `[ServerSentEvent]`.
    public func canEncode(_ value: any Sendable) -> Bool {
        value is ServerSentEvents || value is ServerSentEvent || value is [ServerSentEvent]
    }

    /// Whether `value` is events: every value this format writes is its own.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { canEncode(value) }

    /// Writes `value`'s events as a `text/event-stream` body.
    ///
    /// - Throws: `SerializationError`: `unsupportedValue` for a value ``canEncode(_:)`` refuses; `encodingFailed`
    ///   for an event ``EventStreamRecordWriter`` cannot write (an ID with a line end, say), with the event's index
    ///   and field in the coding path, and the media type filled in.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        let contentType = mediaType.withoutParameters
        let events: ServerSentEvents
        if let all = value as? ServerSentEvents {
            events = all
        } else if let event = value as? ServerSentEvent {
            events = ServerSentEvents(events: [event])
        } else if let list = value as? [ServerSentEvent] {
            events = ServerSentEvents(events: list)
        } else {
            throw unsupportedValue(value, as: mediaType)
        }
        var writer = EventStreamRecordWriter()
        do {
            return EncodedBody(body: try writer.write(events), contentType: contentType, serializerID: id)
        } catch {
            throw error.filling(mediaType: contentType, serializerID: id)
        }
    }
}

extension EventStreamSerializerFactory {
    /// The format's encoder, ``EventStreamBodyEncoder``.
    public func makeEncoder(options: Options) -> (any BodyEncoder)? {
        EventStreamBodyEncoder()
    }
}
