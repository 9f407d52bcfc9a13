public import DecantCore

/// Decodes `text/event-stream` bodies (server-sent events, the WHATWG HTML Standard §9.2) into events, whole or
/// while the body arrives.
///
/// Its id is `eventStream`. As a ``StreamingResponseSerializer`` it hands out each ``ServerSentEvent`` as it is
/// dispatched (``SerializerRegistry/records(_:body:as:options:statusCodes:maxErrorBodyBytes:)``); as an ordinary
/// serializer it makes ``ServerSentEvents``, the same events. ``EventStreamRecordReader`` has the parsing rules.
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.eventStream)
/// for try await event in try await registry.records(head, body: chunks, as: ServerSentEvent.self) {
///     print(event.type, event.data)
/// }
/// ```
public struct EventStreamResponseSerializer: StreamingResponseSerializer, FormatComponent {
    /// The `eventStream` format.
    public static var format: MediaFormat { .eventStream }

    /// The largest event (its data) of a whole body (a stream takes its limit from its ``StreamOptions``).
    public var maxRecordBytes: Int
    /// The media ranges accepted; the format's media ranges unless set.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    public init(
        maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes,
        mediaRanges: [MediaRange] = MediaFormat.eventStream.mediaRanges
    ) {
        self.maxRecordBytes = maxRecordBytes
        self.mediaRanges = mediaRanges
    }

    /// A parser for one streamed body.
    public func makeRecordReader(for head: Response, options: StreamOptions) -> EventStreamRecordReader {
        EventStreamRecordReader(maxRecordBytes: options.maxRecordBytes)
    }

    /// Every event of the body, and the last `retry`.
    ///
    /// - Throws: `SerializationError` with code `limitExceeded` for an event larger than ``maxRecordBytes``.
    public func serialize(_ response: Response) throws -> ServerSentEvents {
        var reader = EventStreamRecordReader(maxRecordBytes: maxRecordBytes)
        var results: [Result<ServerSentEvent, SerializationError>] = []
        var failure: SerializationError?
        response.body.withUnsafeBytes { raw in
            do throws(SerializationError) {
                try reader.consume(raw, into: &results)
                try reader.finish(into: &results)
            } catch {
                failure = error
            }
        }
        do throws(SerializationError) {
            if let failure { throw failure }
            return ServerSentEvents(
                events: try results.map { result throws(SerializationError) in try result.get() },
                retry: reader.retry)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// No events: an empty stream dispatches nothing.
    public func emptyValue(for response: Response) throws -> ServerSentEvents { ServerSentEvents(events: []) }
}

/// The factory of ``EventStreamResponseSerializer`` (id `eventStream`).
///
/// Configuration options: `maxRecordBytes` (integer, default 16 MiB: the largest event of a whole body) and
/// `mediaRanges` (an array of media ranges).
public struct EventStreamSerializerFactory: SerializerFactory {
    /// The typed options.
    public struct Options: Sendable, Hashable {
        /// The largest event of a whole body.
        public var maxRecordBytes: Int
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Creates options.
        public init(
            maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes,
            mediaRanges: [MediaRange] = MediaFormat.eventStream.mediaRanges
        ) {
            self.maxRecordBytes = maxRecordBytes
            self.mediaRanges = mediaRanges
        }
    }

    /// Creates the factory.
    public init() {}

    /// The options, each said once: the schema and the reading of configuration options are derived from them.
    public var optionKeys: [OptionKey<Options>] {
        [
            .integer(
                "maxRecordBytes", \.maxRecordBytes, in: 1...Int(Int32.max),
                summary: "The largest event of a whole body, in bytes (a stream takes its limit from StreamOptions)."),
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// The defaults.
    public var defaultOptions: Options { Options() }

    /// Builds an ``EventStreamResponseSerializer``.
    public func makeSerializer(options: Options) -> EventStreamResponseSerializer {
        EventStreamResponseSerializer(maxRecordBytes: options.maxRecordBytes, mediaRanges: options.mediaRanges)
    }
}

extension SerializerModule {
    /// The event stream module (`DecantEventStream`): the `eventStream` serializer for `text/event-stream`.
    public static var eventStream: SerializerModule {
        SerializerModule(name: "DecantEventStream", factories: [EventStreamSerializerFactory()])
    }
}

extension MediaFormat {
    /// Server-sent events (WHATWG HTML 9.2): id `eventStream`, `text/event-stream`.
    public static let eventStream = MediaFormat(
        id: "eventStream", mediaRanges: ["text/event-stream"],
        summary: "Decodes server-sent events (text/event-stream, WHATWG HTML 9.2) into events, whole or streamed.")
}
