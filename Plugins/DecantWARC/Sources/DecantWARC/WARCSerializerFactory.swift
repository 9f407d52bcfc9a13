public import DecantCore

/// The factory of ``WARCResponseSerializer`` (id `warc`).
///
/// Configuration options: `maxRecordBytes` (integer, default 16 MiB: the largest record of a whole body),
/// `maxHeadBytes` (integer, default 64 KiB: the largest head of a record) and `mediaRanges` (an array of media
/// ranges).
public struct WARCSerializerFactory: SerializerFactory {
    /// The typed options.
    public struct Options: Sendable, Hashable {
        /// The largest record of a whole body.
        public var maxRecordBytes: Int
        /// The largest head of a record.
        public var maxHeadBytes: Int
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Creates options.
        public init(
            maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes,
            maxHeadBytes: Int = WARCRecordReader.defaultMaxHeadBytes,
            mediaRanges: [MediaRange] = MediaFormat.warc.mediaRanges
        ) {
            self.maxRecordBytes = maxRecordBytes
            self.maxHeadBytes = maxHeadBytes
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
                summary: "The largest record of a whole body, in bytes (a stream takes its limit from StreamOptions)."),
            .integer(
                "maxHeadBytes", \.maxHeadBytes, in: 1...Int(Int32.max),
                summary: "The largest head of a record (its version line and named fields), in bytes."),
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// The defaults.
    public var defaultOptions: Options { Options() }

    /// Builds a ``WARCResponseSerializer``.
    public func makeSerializer(options: Options) -> WARCResponseSerializer {
        WARCResponseSerializer(
            maxRecordBytes: options.maxRecordBytes, maxHeadBytes: options.maxHeadBytes,
            mediaRanges: options.mediaRanges)
    }
}

extension SerializerModule {
    /// The WARC module (`DecantWARC`): the `warc` serializer, which reads the HTTP responses of WARC web archives,
    /// whole or streamed.
    public static var warc: SerializerModule {
        SerializerModule(name: "DecantWARC", factories: [WARCSerializerFactory()])
    }
}
