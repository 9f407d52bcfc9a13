/// Builds a ``ResponseStage`` from configuration options: how a chain file names a stage, as a
/// ``SerializerFactory`` is how it names a serializer.
///
/// A module installs its stage factories with its formats (``SerializerModule/stages``); a registry lists them
/// (``SerializerRegistry/stages``) and looks them up by id (``SerializerRegistry/stageFactory(for:)``). Chain files list them under `"preprocessors"`, by id or as
/// `{"id", "options"}`, and the registry checks the options against ``optionSchema`` before it builds the stage. The
/// core's own stages (`xssiPrefix`, `byteOrderMark`, `contentDecoding`) are installed in every registry.
///
/// ```swift
/// struct SignatureStripping: ResponseStage {
///     func process(_ response: Response) throws -> Response { response }
/// }
///
/// struct SignatureStrippingFactory: StageFactory {
///     var id: SerializerID { "acme.signature" }
///     var summary: String { "Removes Acme's signature trailer from bodies." }
///     func makeStage(configuration: ConfigurationOptions) throws(SerializationError) -> any ResponseStage {
///         SignatureStripping()
///     }
/// }
///
/// let module = SerializerModule(name: "AcmeStages", factories: [], stages: [SignatureStrippingFactory()])
/// ```
public protocol StageFactory: Sendable {
    /// The name chain files use, with the syntax of a format's id (``SerializerID``): lowerCamel words, prefixed for
    /// third parties (`acme.signature`).
    var id: SerializerID { get }
    /// One sentence saying what the stage does, for listings.
    var summary: String { get }
    /// The options the stage takes in a chain file; a chain's `limits` of the same name (`maxDecodedBytes`,
    /// `maxExpansionRatio`) are given as options the file does not set. Empty by default.
    var optionSchema: [SerializerOption] { get }
    /// Builds the stage from options already checked against ``optionSchema``.
    ///
    /// - Throws: ``SerializationError`` (``SerializationError/Code/invalidOption``) when the options cannot build it.
    func makeStage(configuration: ConfigurationOptions) throws(SerializationError) -> any ResponseStage
}

extension StageFactory {
    /// No options.
    public var optionSchema: [SerializerOption] { [] }
}

/// The factories of the core's stages, installed in every ``SerializerRegistry``.
enum CoreStageFactories {
    static let all: [any StageFactory] = [XSSIPrefix(), ByteOrderMark(), Decoding()]

    /// ``XSSIPrefixRemoval``.
    struct XSSIPrefix: StageFactory {
        var id: SerializerID { "xssiPrefix" }
        var summary: String { "Removes an anti-XSSI prefix such as )]}' from the start of the body." }
        func makeStage(configuration: ConfigurationOptions) -> any ResponseStage { XSSIPrefixRemoval() }
    }

    /// ``ByteOrderMarkRemoval``.
    struct ByteOrderMark: StageFactory {
        var id: SerializerID { "byteOrderMark" }
        var summary: String { "Removes a byte order mark, setting the charset it names." }
        func makeStage(configuration: ConfigurationOptions) -> any ResponseStage { ByteOrderMarkRemoval() }
    }

    /// ``ContentDecoding`` that always decodes the codings the response declares.
    struct Decoding: StageFactory {
        var id: SerializerID { "contentDecoding" }
        var summary: String { "Decodes the body's gzip, deflate or x-gzip Content-Encoding." }
        var optionSchema: [SerializerOption] {
            [
                SerializerOption(
                    "maxDecodedBytes", .integer(1...BodySizeLimit.maxConfigurableBytes),
                    default: .integer(ContentDecoding.defaultMaxDecodedBytes),
                    summary: "The largest decoded body, in bytes."),
                SerializerOption(
                    "maxExpansionRatio", .integer(1...Int.max),
                    summary: "How many times larger than the encoded body the decoded one may be (no limit by default)."
                ),
            ]
        }
        func makeStage(configuration: ConfigurationOptions) -> any ResponseStage {
            // The values were checked against the schema: integers, or numbers with an integer value.
            func integer(_ name: String) -> Int? {
                switch configuration[name] {
                case .integer(let value)?: value
                case .number(let value)?: Int(exactly: value)
                default: nil
                }
            }
            return ContentDecoding(
                maxDecodedBytes: integer("maxDecodedBytes") ?? ContentDecoding.defaultMaxDecodedBytes,
                maxExpansionRatio: integer("maxExpansionRatio"))
        }
    }
}
