public import DecantCore

/// The factory of ``CBORResponseSerializer``, ``CBORResponseDecoder`` and ``CBORBodyEncoder`` (id `cbor`).
///
/// Configuration options: `maxDepth` (integer, default 512), `maxItems` (integer, default 1,000,000),
/// `duplicateKeys` (`"reject"` or `"lastWins"`, default `"reject"`), `allowsTwoByteLowSimpleValues` (boolean, default
/// `false`), see ``CBORParsingOptions``; `deterministic` (boolean, default `false`), see ``CBORWritingOptions``; and
/// `mediaRanges` (an array of media ranges).
public struct CBORSerializerFactory: SerializerFactory {
    /// The typed options: parsing limits, how bodies are written, and the media ranges accepted and written.
    public struct Options: Sendable, Hashable {
        /// The parser's limits and duplicate-key policy.
        public var parsing: CBORParsingOptions
        /// How bodies are written: preferred serialization, or core deterministic encoding.
        public var writing: CBORWritingOptions
        /// The media ranges accepted and written.
        public var mediaRanges: [MediaRange]

        /// Creates options.
        public init(
            parsing: CBORParsingOptions = CBORParsingOptions(),
            writing: CBORWritingOptions = CBORWritingOptions(),
            mediaRanges: [MediaRange] = MediaFormat.cbor.mediaRanges
        ) {
            self.parsing = parsing
            self.writing = writing
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
            .bool(
                "deterministic", \.writing.deterministic,
                summary: "Writes bodies in core deterministic encoding (RFC 8949 §4.2.1): map keys sorted by their "
                    + "encoded bytes."),
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

    /// A ``CBORBodyEncoder`` with the options' writing options, media ranges and depth limit: ``CBORValue`` and
    /// `Encodable` values written as `application/cbor` (or another type the ranges cover).
    public func makeEncoder(options: Options) -> (any BodyEncoder)? {
        CBORBodyEncoder(
            writingOptions: options.writing, maxDepth: options.parsing.maxDepth, mediaRanges: options.mediaRanges)
    }
}

extension SerializerModule {
    /// The CBOR module (`DecantCBOR`): the `cbor` serializer for `application/cbor` and `application/cbor-seq`.
    public static var cbor: SerializerModule {
        SerializerModule(name: "DecantCBOR", factories: [CBORSerializerFactory()])
    }
}
