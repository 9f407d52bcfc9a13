public import DecantCore
public import DecantJSON

/// The factory of ``NDJSONResponseSerializer`` (id `ndjson`).
///
/// Configuration options: `maxRecordBytes` (integer, default 16 MiB: the largest record of a whole body),
/// `maxDepth` (integer, default 512: the deepest nesting within a record) and `mediaRanges` (an array of media
/// ranges).
public struct NDJSONSerializerFactory: SerializerFactory {
    /// The typed options.
    public struct Options: Sendable, Hashable {
        /// The largest record of a whole body.
        public var maxRecordBytes: Int
        /// The deepest nesting within a record.
        public var maxDepth: Int
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Creates options.
        public init(
            maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes,
            maxDepth: Int = JSONParsingOptions().maxDepth,
            mediaRanges: [MediaRange] = MediaFormat.ndjson.mediaRanges
        ) {
            self.maxRecordBytes = maxRecordBytes
            self.maxDepth = maxDepth
            self.mediaRanges = mediaRanges
        }

        /// The parser these options make.
        var parser: JSONParser {
            var parsing = JSONParsingOptions()
            parsing.maxDepth = maxDepth
            return JSONParser(options: parsing)
        }
    }

    /// Creates the factory.
    public init() {}

    /// The options, each said once: the schema and the reading of configuration options are derived from them.
    public var optionKeys: [OptionKey<Options>] {
        [
            .integer(
                "maxRecordBytes", \.maxRecordBytes, in: 1...Int(Int32.max),
                summary: "The largest record of a whole body, in bytes (a stream takes its limit from StreamOptions)."),
            .integer(
                "maxDepth", \.maxDepth, in: 1...100_000,
                summary: "The deepest nesting of arrays and objects within a record."),
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// The defaults.
    public var defaultOptions: Options { Options() }

    /// Builds an ``NDJSONResponseSerializer``.
    public func makeSerializer(options: Options) -> NDJSONResponseSerializer {
        NDJSONResponseSerializer(
            parser: options.parser, maxRecordBytes: options.maxRecordBytes, mediaRanges: options.mediaRanges)
    }

    /// A decoder of arrays of `Decodable` records: `registry.decode([Event].self, from: response)`.
    public func makeDecoder(options: Options) -> (any ResponseDecoder)? {
        NDJSONResponseDecoder(serializer: makeSerializer(options: options))
    }
}

/// Decodes a `Decodable` type from a whole NDJSON or JSON text sequence body: an array (or any type decodable from
/// a JSON array) of the records.
public struct NDJSONResponseDecoder: ResponseDecoder, FormatComponent {
    /// The `ndjson` format.
    public static var format: MediaFormat { .ndjson }

    /// The serializer that reads the records.
    public var serializer: NDJSONResponseSerializer
    /// The decoder of the records, with its strategies.
    public var decoder: JSONValueDecoder

    /// Creates the decoder.
    public init(
        serializer: NDJSONResponseSerializer = NDJSONResponseSerializer(),
        decoder: JSONValueDecoder = JSONValueDecoder()
    ) {
        self.serializer = serializer
        self.decoder = decoder
    }

    /// `true`: JSON texts allow whitespace around them, and a sequence of none is empty, so a body of only whitespace
    /// is an empty body.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { true }
    /// Decodes a `T` from the array of every record.
    ///
    /// - Throws: `SerializationError`: the first bad record's error, or `decodingFailed`.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T {
        let records = try serializer.serialize(response)
        do {
            return try decoder.decode(type, from: .array(records.records))
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}

extension SerializerModule {
    /// The NDJSON module (`DecantNDJSON`): the `ndjson` serializer for newline-delimited JSON, JSON Lines and JSON
    /// text sequences, whole or streamed.
    public static var ndjson: SerializerModule {
        SerializerModule(name: "DecantNDJSON", factories: [NDJSONSerializerFactory()])
    }
}
