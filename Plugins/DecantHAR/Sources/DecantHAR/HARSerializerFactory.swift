public import DecantCore

/// The factory of ``HARResponseSerializer`` (id `har`).
///
/// Configuration options: `maxRecordBytes` (integer, default 16 MiB: the largest entry of a whole body), `maxDepth`
/// (integer, default 512: the deepest nesting in the file) and `mediaRanges` (an array of media ranges).
public struct HARSerializerFactory: SerializerFactory {
    /// The typed options.
    public struct Options: Sendable, Hashable {
        /// The largest entry of a whole body, in bytes.
        public var maxRecordBytes: Int
        /// The deepest nesting of objects and arrays in the file.
        public var maxDepth: Int
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Creates options.
        public init(
            maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes,
            maxDepth: Int = HARRecordReader.defaultMaxDepth,
            mediaRanges: [MediaRange] = MediaFormat.har.mediaRanges
        ) {
            self.maxRecordBytes = maxRecordBytes
            self.maxDepth = maxDepth
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
                summary: "The largest entry of a whole body, in bytes (a stream takes its limit from StreamOptions)."),
            .integer(
                "maxDepth", \.maxDepth, in: 3...100_000,
                summary: "The deepest nesting of objects and arrays in the file, the top-level object being 1."),
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// The defaults.
    public var defaultOptions: Options { Options() }

    /// Builds a ``HARResponseSerializer``.
    public func makeSerializer(options: Options) -> HARResponseSerializer {
        HARResponseSerializer(
            maxRecordBytes: options.maxRecordBytes, maxDepth: options.maxDepth, mediaRanges: options.mediaRanges)
    }
}

extension SerializerModule {
    /// The HAR module (`DecantHAR`): the `har` serializer for HAR 1.2 files (`application/har+json`), whole or
    /// streamed, whose records are the archived responses.
    public static var har: SerializerModule {
        SerializerModule(name: "DecantHAR", factories: [HARSerializerFactory()])
    }
}
