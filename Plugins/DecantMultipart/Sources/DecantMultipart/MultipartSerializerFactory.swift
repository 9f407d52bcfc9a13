public import DecantCore

/// The factory of ``MultipartResponseSerializer`` (id `multipart`).
///
/// The registry for parts is the factory's (given to ``init(decodingPartsWith:options:)``); configuration options
/// are `maxParts` (integer, default 10,000), `maxPartHeaderBytes` (integer, default 16384), `maxDepth` (integer,
/// default 4), `failsOnPartError` (boolean, default `false`) and `mediaRanges` (an array of media ranges); see
/// ``MultipartParsingOptions``.
public struct MultipartSerializerFactory: SerializerFactory {
    /// The typed options: limits, part-error policy and accepted media ranges.
    public struct Options: Sendable, Hashable {
        /// The limits and part-error policy.
        public var parsing: MultipartParsingOptions
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Creates options.
        public init(
            parsing: MultipartParsingOptions = MultipartParsingOptions(),
            mediaRanges: [MediaRange] = MediaFormat.multipart.mediaRanges
        ) {
            self.parsing = parsing
            self.mediaRanges = mediaRanges
        }
    }

    /// The registry every serializer built here decodes parts with.
    public let partRegistry: SerializerRegistry
    /// The options used when a configuration gives none.
    public let defaultOptions: Options

    /// Creates the factory.
    ///
    /// - Parameters:
    ///   - partRegistry: The registry that decodes each part by its media type.
    ///   - options: The options used when a configuration gives none.
    public init(decodingPartsWith partRegistry: SerializerRegistry, options: Options = Options()) {
        self.partRegistry = partRegistry
        self.defaultOptions = options
    }

    /// The options, each said once: the schema and the reading of configuration options are derived from them.
    public var optionKeys: [OptionKey<Options>] {
        [
            .integer(
                "maxParts", \.parsing.maxParts, in: 1...Int(Int32.max),
                summary: "The most body parts a response may hold, over every nesting level."),
            .integer(
                "maxPartHeaderBytes", \.parsing.maxPartHeaderBytes, in: 1...Int(Int32.max),
                summary: "The most bytes of one part's header block."),
            .integer(
                "maxDepth", \.parsing.maxDepth, in: 1...64,
                summary: "The deepest nesting of multipart bodies (1: no multipart parts)."),
            .bool(
                "failsOnPartError", \.parsing.failsOnPartError,
                summary: "Fails the whole body when one part cannot be decoded."),
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// Builds a ``MultipartResponseSerializer``.
    public func makeSerializer(options: Options) -> MultipartResponseSerializer {
        MultipartResponseSerializer(
            decodingPartsWith: partRegistry, options: options.parsing, mediaRanges: options.mediaRanges)
    }
}

extension SerializerModule {
    /// The multipart module (`DecantMultipart`): the `multipart` serializer for `multipart/mixed`, `alternative`,
    /// `related`, `form-data` and `byteranges`, decoding each part through `partRegistry`.
    ///
    /// ```swift
    /// let registry = SerializerRegistry.standard.installing(
    ///     .multipart(decodingPartsWith: SerializerRegistry.standard.installing(.data)))
    /// ```
    public static func multipart(
        decodingPartsWith partRegistry: SerializerRegistry,
        options: MultipartSerializerFactory.Options = MultipartSerializerFactory.Options()
    ) -> SerializerModule {
        SerializerModule(
            name: "DecantMultipart",
            factories: [MultipartSerializerFactory(decodingPartsWith: partRegistry, options: options)])
    }
}
