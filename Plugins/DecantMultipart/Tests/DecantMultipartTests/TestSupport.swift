import Decant
import DecantConformance
import DecantMultipart
import Foundation

/// Helpers of the multipart tests (a plugin's tests do without DecantTestSupport: they use only what a third party
/// has).
enum MultipartTestSupport {
    /// The shared corpora (`../shared/corpora`), when present.
    static let corpora = TestCorpora()

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
