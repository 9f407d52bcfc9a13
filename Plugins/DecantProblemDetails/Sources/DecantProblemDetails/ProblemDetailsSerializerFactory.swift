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
            mediaRanges: [MediaRange] = ProblemDetailsResponseSerializer.defaultMediaRanges
        ) {
            self.parsing = parsing
            self.mediaRanges = mediaRanges
        }
    }

    /// Creates the factory.
    public init() {}

    /// `problemDetails`.
    public var id: SerializerID { ProblemDetailsResponseSerializer.id }

    /// What the serializer does.
    public var summary: String {
        "Parses RFC 9457 problem details (application/problem+json and application/problem+xml) into ProblemDetails."
    }

    /// `application/problem+json` and `application/problem+xml`.
    public var mediaRanges: [MediaRange] { ProblemDetailsResponseSerializer.defaultMediaRanges }

    /// The options the factory understands.
    public var optionSchema: [SerializerOption] {
        [
            SerializerOption(
                "maxBytes", .integer(1...Int(UInt32.max) - 64),
                default: .integer(ProblemDetailsOptions.defaultMaxBytes),
                summary: "The largest body parsed, in bytes."),
            SerializerOption(
                "maxDepth", .integer(1...100_000), default: .integer(ProblemDetailsOptions.defaultMaxDepth),
                summary: "The deepest nesting of JSON arrays and objects or XML elements accepted."),
            SerializerOption(
                "mediaRanges", .mediaRangeArray,
                default: .array(ProblemDetailsResponseSerializer.defaultMediaRanges.map { .string($0.description) }),
                summary: "The media ranges the serializer accepts."),
        ]
    }

    /// The defaults of ``ProblemDetailsOptions`` and ``ProblemDetailsResponseSerializer/defaultMediaRanges``.
    public var defaultOptions: Options { Options() }

    /// Builds a ``ProblemDetailsResponseSerializer``.
    public func makeSerializer(options: Options) -> ProblemDetailsResponseSerializer {
        ProblemDetailsResponseSerializer(options: options.parsing, acceptedMediaRanges: options.mediaRanges)
    }

    /// Converts configuration options (already checked against ``optionSchema``).
    public func options(from configuration: ConfigurationOptions) throws -> Options {
        var options = Options()
        switch configuration["maxBytes"] {
        case .integer(let value)?: options.parsing.maxBytes = value
        case .number(let value)?: options.parsing.maxBytes = Int(value)
        default: break
        }
        switch configuration["maxDepth"] {
        case .integer(let value)?: options.parsing.maxDepth = value
        case .number(let value)?: options.parsing.maxDepth = Int(value)
        default: break
        }
        if let ranges = try configuration.mediaRangesOption(for: id, example: "application/problem+json") {
            options.mediaRanges = ranges
        }
        return options
    }
}

extension SerializerModule {
    /// The problem details module (`DecantProblemDetails`): the `problemDetails` serializer for
    /// `application/problem+json` and `application/problem+xml` (RFC 9457).
    public static var problemDetails: SerializerModule {
        SerializerModule(name: "DecantProblemDetails", factories: [ProblemDetailsSerializerFactory()])
    }
}
