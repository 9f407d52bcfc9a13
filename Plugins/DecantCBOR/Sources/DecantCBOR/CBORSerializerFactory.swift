public import DecantCore

/// The factory of ``CBORResponseSerializer`` (id `cbor`).
///
/// Configuration options: `maxDepth` (integer, default 512), `maxItems` (integer, default 1,000,000),
/// `duplicateKeys` (`"reject"` or `"lastWins"`, default `"reject"`), `allowsTwoByteLowSimpleValues` (boolean, default
/// `false`) and `mediaRanges` (an array of media ranges); see ``CBORParsingOptions``.
public struct CBORSerializerFactory: SerializerFactory {
    /// The typed options: parsing limits and accepted media ranges.
    public struct Options: Sendable, Hashable {
        /// The parser's limits and duplicate-key policy.
        public var parsing: CBORParsingOptions
        /// The media ranges accepted.
        public var mediaRanges: [MediaRange]

        /// Creates options.
        public init(
            parsing: CBORParsingOptions = CBORParsingOptions(),
            mediaRanges: [MediaRange] = MediaFormat.cbor.mediaRanges
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
                "maxDepth", \.parsing.maxDepth, in: 1...10_000,
                summary: "The deepest nesting of arrays, maps, tags and indefinite-length strings."),
            .integer(
                "maxItems", \.parsing.maxItems, in: 1...Int(Int32.max),
                summary: "The most data items a body may declare."),
            .choice(
                "duplicateKeys", \.parsing.duplicateKeys,
                summary: "What to do when a map repeats a key: reject the body, or let the last value win."),
            .bool(
                "allowsTwoByteLowSimpleValues", \.parsing.allowsTwoByteLowSimpleValues,
                summary: "Accepts the two-byte form of simple values below 32 (f8 00 to f8 1f), as RFC 7049 did."),
            .mediaRanges(\.mediaRanges),
        ]
    }

    /// The defaults of ``CBORParsingOptions`` and the format's media ranges.
    public var defaultOptions: Options { Options() }

    /// Builds a ``CBORResponseSerializer``.
    public func makeSerializer(options: Options) -> CBORResponseSerializer {
        CBORResponseSerializer(options: options.parsing, mediaRanges: options.mediaRanges)
    }

    /// A ``CBORResponseDecoder`` with the options' parsing options and media ranges.
    public func makeDecoder(options: Options) -> (any ResponseDecoder)? {
        CBORResponseDecoder(decoder: CBORDecoder(parsingOptions: options.parsing), mediaRanges: options.mediaRanges)
    }
}

extension SerializerModule {
    /// The CBOR module (`DecantCBOR`): the `cbor` serializer for `application/cbor` and `application/cbor-seq`.
    public static var cbor: SerializerModule {
        SerializerModule(name: "DecantCBOR", factories: [CBORSerializerFactory()])
    }
}
