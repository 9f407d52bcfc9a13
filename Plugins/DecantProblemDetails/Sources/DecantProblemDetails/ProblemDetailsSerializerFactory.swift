public import DecantCore

/// The factory of ``ProblemDetailsResponseSerializer`` (id `problemDetails`).
///
/// Configuration options: `maxBytes` (integer), `maxDepth` (integer 1...100000) and `mediaRanges` (an array of media
/// ranges); see ``ProblemDetailsOptions``.
public struct ProblemDetailsSerializerFactory: SerializerFactory {
    /// The typed options: parsing options and accepted media ranges.
    public struct Options: Sendable, Hashable {
        /// How bodies are parsed.
        public var parsing: ProblemDetailsOptions
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Creates options.
        public init(
            parsing: ProblemDetailsOptions = ProblemDetailsOptions(),
            mediaRanges: [MediaRange] = MediaFormat.problemDetails.mediaRanges
        ) {
            self.parsing = parsing
            self.mediaRanges = mediaRanges
        }
    }

    /// Creates the factory.
    public init() {}

    /// The options, each said once: the schema and the reading of configuration options are derived from them.
    public var optionKeys: [OptionKey<Options>] {
        [
            .integer(
                "maxBytes", \.parsing.maxBytes, in: 1...Int(UInt32.max) - 64,
                summary: "The largest body parsed, in bytes."),
            .integer(
                "maxDepth", \.parsing.maxDepth, in: 1...100_000,
                summary: "The deepest nesting of JSON arrays and objects or XML elements accepted."),
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// The defaults of ``ProblemDetailsOptions`` and the format's media ranges.
    public var defaultOptions: Options { Options() }

    /// Builds a ``ProblemDetailsResponseSerializer``.
    public func makeSerializer(options: Options) -> ProblemDetailsResponseSerializer {
        ProblemDetailsResponseSerializer(options: options.parsing, mediaRanges: options.mediaRanges)
    }
}

extension SerializerModule {
    /// The problem details module (`DecantProblemDetails`): the `problemDetails` serializer for
    /// `application/problem+json` and `application/problem+xml` (RFC 9457).
    public static var problemDetails: SerializerModule {
        SerializerModule(name: "DecantProblemDetails", factories: [ProblemDetailsSerializerFactory()])
    }
}
