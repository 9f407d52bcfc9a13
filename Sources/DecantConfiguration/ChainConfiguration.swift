public import DecantCore

/// A versioned document that composes serializer chains by name, read from JSON or a property list.
///
/// ```json
/// {
///   "version": 1,
///   "aliases": [{"mediaType": "text/html", "treatAs": "application/json", "host": "legacy.example.com"}],
///   "chains": [
///     {
///       "name": "api",
///       "serializers": [{"id": "json", "options": {"maxDepth": 64}}, "string"],
///       "order": "mostSpecificFirst",
///       "acceptableStatusCodes": ["200-299", 304],
///       "emptyBody": {"outcome": "emptyValue", "treatsWhitespaceAsEmpty": true},
///       "defaultCharset": "windows-1252",
///       "sniffing": "sniffWhenGeneric",
///       "limits": {"maxBodyBytes": 1048576, "maxDecodedBytes": 8388608},
///       "preprocessors": ["contentDecoding", "xssiPrefix", "byteOrderMark"],
///       "errorBody": {"serializers": ["json"]},
///       "decoding": {"keyDecodingStrategy": "convertFromSnakeCase", "dateDecodingStrategy": "iso8601"}
///     }
///   ]
/// }
/// ```
///
/// Load one with ``init(data:file:)`` or ``init(contentsOf:)``, check it against a registry with
/// `SerializerRegistry.load(_:)`, and run responses through `LoadedConfiguration.chain(named:)`. Every key is
/// documented on the property it maps to; unknown keys are errors, so typos never pass silently.
public struct ChainConfiguration: Sendable, Hashable {
    /// The document versions this code reads.
    public static let supportedVersions: ClosedRange<Int> = 1...1

    /// `version`: the document format version (required; 1).
    public var version: Int
    /// `aliases`: media-type aliases that apply to every chain.
    public var aliases: [MediaTypeAlias]
    /// `chains`: the named chains (required, at least one, unique names).
    public var chains: [Chain]

    /// Creates a configuration.
    public init(version: Int = 1, aliases: [MediaTypeAlias] = [], chains: [Chain]) {
        self.version = version
        self.aliases = aliases
        self.chains = chains
    }

    /// "Treat this media type as that one", globally or for one host or URL path prefix.
    public struct MediaTypeAlias: Sendable, Hashable {
        /// `mediaType`: the media types the alias applies to (a range, such as `text/html` or `text/*`).
        public var mediaType: MediaRange
        /// `treatAs`: the media type used instead.
        public var treatAs: MediaType
        /// `host`: only for responses from this host (ASCII case-insensitive), when set.
        public var host: String?
        /// `pathPrefix`: only for responses whose URL path starts with this, when set.
        public var pathPrefix: String?

        /// Creates an alias.
        public init(mediaType: MediaRange, treatAs: MediaType, host: String? = nil, pathPrefix: String? = nil) {
            self.mediaType = mediaType
            self.treatAs = treatAs
            self.host = host
            self.pathPrefix = pathPrefix
        }

        /// Whether the alias applies to `response` (its media type, host and path).
        public func applies(to response: Response) -> Bool {
            guard let mediaType = response.contentType, self.mediaType.matches(mediaType) else { return false }
            if let host {
                guard let responseHost = response.url?.host, HTTPBytes.equalsIgnoringASCIICase(responseHost, host)
                else { return false }
            }
            if let pathPrefix {
                guard let path = response.url?.path, path.hasPrefix(pathPrefix) else { return false }
            }
            return true
        }
    }

    /// A serializer in a chain: its id and configuration options.
    public struct SerializerReference: Sendable, Hashable {
        /// `id`: the serializer id, such as `json`.
        public var id: SerializerID
        /// `options`: the serializer's configuration options.
        public var options: ConfigurationOptions

        /// Creates a reference.
        public init(id: SerializerID, options: ConfigurationOptions = [:]) {
            self.id = id
            self.options = options
        }
    }

    /// How the body of an unacceptable-status response is decoded.
    public enum ErrorBodyDecoding: Sendable, Hashable {
        /// `"none"`: kept raw in the error.
        case none
        /// `"sameSerializers"` (the default): by the chain's own serializers, when one accepts its media type.
        case sameSerializers
        /// `{"serializers": [...]}`: by these serializers (a problem+json serializer, say).
        case serializers([SerializerReference])
    }

    /// A stage in a chain's `preprocessors`: a stage factory's id (see `StageFactory`), with its options.
    ///
    /// The id is resolved against the registry when the configuration is loaded, so a plugin's stages can be named
    /// as the core's are. In a document, a reference is the id alone (`"xssiPrefix"`) or `{"id", "options"}`.
    public struct StageReference: Sendable, Hashable {
        /// `id`: the stage factory's id, such as `contentDecoding` or `acme.signature`.
        public var id: SerializerID
        /// `options`: the stage's configuration options. The chain's `limits` fill options of the same name that are
        /// not set here (`maxDecodedBytes`, `maxExpansionRatio` for `contentDecoding`).
        public var options: ConfigurationOptions

        /// Creates a reference.
        public init(id: SerializerID, options: ConfigurationOptions = [:]) {
            self.id = id
            self.options = options
        }

        /// `XSSIPrefixRemoval`.
        public static let xssiPrefix = StageReference(id: "xssiPrefix")
        /// `ByteOrderMarkRemoval`.
        public static let byteOrderMark = StageReference(id: "byteOrderMark")
        /// `ContentDecoding` that always decodes, with the chain's `Chain/maxDecodedBytes` and
        /// `Chain/maxExpansionRatio` unless its options say otherwise.
        public static let contentDecoding = StageReference(id: "contentDecoding")
    }

    /// One named chain: serializers tried as a compound, behind validation stages.
    public struct Chain: Sendable, Hashable {
        /// `name`: how code asks for the chain.
        public var name: String
        /// `serializers`: the serializers, as ids or `{"id", "options"}` objects (required, at least one).
        public var serializers: [SerializerReference]
        /// `order`: `mostSpecificFirst` (default) or `asListed`.
        public var order: SerializerOrdering
        /// `triesNonMatching`: also try serializers whose ranges do not match (default false).
        public var triesNonMatching: Bool
        /// `aliases`: media-type aliases for this chain only, applied after the global ones.
        public var aliases: [MediaTypeAlias]
        /// `acceptableStatusCodes`: codes and `"200-299"` ranges (default 200-299).
        public var acceptableStatusCodes: StatusCodes
        /// `emptyBody`: the empty-body policy (an outcome name, or `{"outcome", "treatsWhitespaceAsEmpty",
        /// "noContentStatuses"}`).
        public var emptyBody: EmptyBodyPolicy
        /// `defaultCharset`: a WHATWG encoding label used for text without a `charset` parameter or BOM.
        public var defaultCharset: String?
        /// `sniffing`: `trustHeader` (default), `sniffWhenMissing` or `sniffWhenGeneric`.
        public var sniffing: SniffingPolicy
        /// `limits.maxBodyBytes`: the body size limit (default 64 MiB, at most
        /// `BodySizeLimit.maxConfigurableBytes`, 1 TiB).
        public var maxBodyBytes: Int
        /// `limits.maxDecodedBytes`: the largest body the `contentDecoding` preprocessor may decode (default 64 MiB,
        /// at most `BodySizeLimit.maxConfigurableBytes`; see `ContentDecoding.maxDecodedBytes`).
        public var maxDecodedBytes: Int
        /// `limits.maxExpansionRatio`: how many times larger than the encoded body the `contentDecoding`
        /// preprocessor may decode it (default: no ratio limit; see `ContentDecoding.maxExpansionRatio`).
        public var maxExpansionRatio: Int?
        /// `preprocessors`: stages run in the order given, after the body size limit: the core's `contentDecoding`,
        /// `xssiPrefix` and `byteOrderMark`, or any stage an installed module provides, by id or as
        /// `{"id", "options"}`.
        public var preprocessors: [StageReference]
        /// `errorBody`: how error bodies are decoded.
        public var errorBody: ErrorBodyDecoding
        /// `decoding`: the `Decodable` options of the chain's typed `decode`
        /// (`ConfiguredChain.decode(_:from:options:)`), with the keys of `DecodingOptions.optionKeys`:
        /// `keyDecodingStrategy`, `dateDecodingStrategy`, `dataDecodingStrategy`, `nonConformingFloatDecodingStrategy`
        /// (default: none, the formats' defaults).
        /// Checked when the document is read.
        public var decoding: ConfigurationOptions

        /// Creates a chain with the same defaults a document has.
        public init(
            name: String,
            serializers: [SerializerReference],
            order: SerializerOrdering = .mostSpecificFirst,
            triesNonMatching: Bool = false,
            aliases: [MediaTypeAlias] = [],
            acceptableStatusCodes: StatusCodes = .success,
            emptyBody: EmptyBodyPolicy = .default,
            defaultCharset: String? = nil,
            sniffing: SniffingPolicy = .trustHeader,
            maxBodyBytes: Int = BodySizeLimit.default.maxBytes,
            maxDecodedBytes: Int = ContentDecoding.defaultMaxDecodedBytes,
            maxExpansionRatio: Int? = nil,
            preprocessors: [StageReference] = [],
            errorBody: ErrorBodyDecoding = .sameSerializers,
            decoding: ConfigurationOptions = [:]
        ) {
            self.name = name
            self.serializers = serializers
            self.order = order
            self.triesNonMatching = triesNonMatching
            self.aliases = aliases
            self.acceptableStatusCodes = acceptableStatusCodes
            self.emptyBody = emptyBody
            self.defaultCharset = defaultCharset
            self.sniffing = sniffing
            self.maxBodyBytes = maxBodyBytes
            self.maxDecodedBytes = maxDecodedBytes
            self.maxExpansionRatio = maxExpansionRatio
            self.preprocessors = preprocessors
            self.errorBody = errorBody
            self.decoding = decoding
        }
    }
}
