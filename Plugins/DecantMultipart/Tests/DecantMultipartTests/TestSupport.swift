import Decant
import DecantMultipart
import Foundation

/// Helpers of the multipart tests (a plugin's tests do without DecantTestSupport: they use only what a third party
/// has).
enum MultipartTestSupport {
    /// The shared corpora folder: `DECANT_CORPORA`, else `../shared/corpora` beside the folder holding Package.swift.
    static let corporaDirectory: URL? = {
        if let path = ProcessInfo.processInfo.environment["DECANT_CORPORA"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                let corpora = directory.deletingLastPathComponent().appendingPathComponent("shared/corpora")
                return FileManager.default.fileExists(atPath: corpora.path) ? corpora : nil
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// Whether the corpora are present.
    static let corporaAvailable = corporaDirectory != nil

    /// The registry parts are decoded with: the built-ins plus `data` for everything else.
    static let partRegistry = SerializerRegistry.standard.installing(.data)

    /// The registry of the conformance fixtures and of `decant`.
    static let registry = SerializerRegistry.standard.installing(.multipart(decodingPartsWith: partRegistry))

    /// A serializer with `options`.
    static func serializer(
        _ options: MultipartParsingOptions = MultipartParsingOptions()
    )
        -> MultipartResponseSerializer
    {
        MultipartResponseSerializer(decodingPartsWith: partRegistry, options: options)
    }

    /// A response with a multipart body.
    static func response(_ body: Data, contentType: String, status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: body)
    }

    /// Parses `body` (text, `\n` kept as written) as `contentType` with `options`.
    static func parse(
        _ body: String, contentType: String = "multipart/mixed; boundary=b",
        options: MultipartParsingOptions = MultipartParsingOptions()
    ) throws -> MultipartBody {
        try serializer(options).serialize(response(Data(body.utf8), contentType: contentType))
    }

    /// The text of a part decoded by the `string` serializer.
    static func text(_ part: MultipartPart) -> String? { part.value(as: DecodedText.self)?.text }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seeded generator, so that random inputs are the same every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
