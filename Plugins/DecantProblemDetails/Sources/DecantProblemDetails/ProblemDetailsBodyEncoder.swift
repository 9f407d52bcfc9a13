public import DecantCore
import DecantJSON
import DecantXMLDocument
import DecantXMLParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes ``ProblemDetails`` as `application/problem+json` or `application/problem+xml` (RFC 9457): the
/// `problemDetails` format's `BodyEncoder`, the inverse of ``ProblemDetailsResponseSerializer``.
///
/// - `application/problem+json` (RFC 9457 §3): one JSON object, written by DecantJSON's `JSONBodyEncoder` (so
///   `EncodingOptions.outputFormatting`'s `.prettyPrinted` and `.sortedKeys` apply): `type` (always, `about:blank`
///   included), then `title`, `status`, `detail` and `instance` when present, then the extension members in order.
/// - `application/problem+xml` (RFC 9457 Appendix B): `<problem xmlns="urn:ietf:rfc:7807">` with one child element
///   per member in the same order, written by DecantXMLDocument's `XMLDocumentBodyEncoder` (UTF-8, or UTF-16 when the
///   `charset` asks for it). An extension member is an element named after it whose content is its value: a string as
///   text, a number as its JSON text, `true` or `false`, an array as one `<i>` element per item, an object as one
///   element per member, and `null` (or an empty array or object) as an empty element. Everything the XML form reads
///   is strings, `<i>` arrays and objects, so a problem read from XML is written back unchanged, while numbers, booleans
///   and `null` come back as strings, and an empty array or object, or an object whose every member is named `i`, as
///   what the XML form reads them as (an empty string, an array).
///
/// The `Content-Type` written is the requested type without parameters for JSON, with the `charset` of the bytes for
/// XML. Nesting deeper than ``maxDepth`` (counted as the reader counts it, so what is written is read back) fails with
/// `limitExceeded`; an extension member the form cannot carry fails with `encodingFailed` and its coding path.
///
/// ```swift
/// let problem = ProblemDetails(
///     type: URL(string: "https://example.com/probs/out-of-credit")!, title: "You do not have enough credit.",
///     status: 403, extensions: [.init(name: "balance", value: 30)])
/// let registry = SerializerRegistry.standard.installing(.problemDetails)
/// let body = try registry.encode(problem, as: "application/problem+xml")
/// ```
public struct ProblemDetailsBodyEncoder: BodyEncoder, FormatComponent {
    /// The `problemDetails` format.
    public static var format: MediaFormat { .problemDetails }

    /// The deepest nesting written, as ``ProblemDetailsOptions/maxDepth`` counts it when reading: JSON arrays and
    /// objects (the problem object counts one), XML elements (the `problem` root counts one).
    public var maxDepth: Int

    /// Creates the encoder.
    public init(maxDepth: Int = ProblemDetailsOptions.defaultMaxDepth) {
        self.maxDepth = maxDepth
    }

    /// Whether `value` is a ``ProblemDetails``.
    public func canEncode(_ value: any Sendable) -> Bool { value is ProblemDetails }

    /// Whether `value` is a ``ProblemDetails``, the format's own value type.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is ProblemDetails }

    /// Writes `value`, a ``ProblemDetails``, in the form `mediaType` names: XML for an `xml` subtype or `+xml`
    /// suffix, else JSON (as ``ProblemDetails/Format/init(mediaType:body:)`` reads it).
    ///
    /// - Throws: `SerializationError` with code `unsupportedValue` when `value` is not a ``ProblemDetails``;
    ///   `encodingFailed` with the coding path for an extension member named like one of the five standard members
    ///   or named twice, for XML an extension name (or an object key inside a value) that is not an XML NCName, a
    ///   `status` that is not a positive integer, or text XML cannot carry; `limitExceeded` beyond ``maxDepth``; and
    ///   the errors of the JSON and XML body encoders (an unsupported `charset` for XML).
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        guard let problem = value as? ProblemDetails else { throw unsupportedValue(value, as: mediaType) }
        let contentType = mediaType.withoutParameters
        let written: EncodedBody
        do throws(SerializationError) {
            try checkExtensionNames(problem)
            switch ProblemDetails.Format(mediaType: mediaType, body: Data()) {
            case .json:
                let json = try problem.jsonValue()
                try checkDepth(1 + Self.containerDepth(of: problem.extensions), format: "JSON arrays and objects")
                written = try JSONBodyEncoder(maxDepth: maxDepth).encode(json, as: contentType, options: options)
            case .xml:
                try checkDepth(
                    problem.extensions.isEmpty ? 2 : 2 + Self.containerDepth(of: problem.extensions),
                    format: "XML elements")
                let tree = try problem.xmlTree()
                written = try XMLDocumentBodyEncoder().encode(tree, as: mediaType, options: options)
            }
        } catch {
            // The JSON and XML encoders name themselves; the format written is this one.
            var error = error.filling(mediaType: contentType, serializerID: id)
            error.serializerID = id
            throw error
        }
        return EncodedBody(body: written.body, contentType: written.contentType, serializerID: id)
    }

    /// Extension members named like a standard member, or twice, would be read back as something else.
    private func checkExtensionNames(_ problem: ProblemDetails) throws(SerializationError) {
        var seen: Set<String> = []
        for member in problem.extensions {
            if ProblemDetails.standardMemberNames.contains(member.name) {
                throw SerializationError(
                    code: .encodingFailed,
                    message: "The extension member '\(member.name)' has the name of a member RFC 9457 §3.1 defines; "
                        + "set the property \(member.name) instead, or rename the extension.",
                    codingPath: ["extensions", member.name])
            }
            guard seen.insert(member.name).inserted else {
                throw SerializationError(
                    code: .encodingFailed,
                    message: "The extension member '\(member.name)' occurs twice; a problem document holds a member "
                        + "once. Keep one of them.",
                    codingPath: ["extensions", member.name])
            }
        }
    }

    private func checkDepth(_ depth: Int, format: String) throws(SerializationError) {
        guard depth > maxDepth else { return }
        throw SerializationError(
            code: .limitExceeded,
            message: "The problem nests \(depth) levels of \(format), more than the limit of \(maxDepth) that "
                + "reading it back allows. Raise ProblemDetailsOptions.maxDepth (the problemDetails option 'maxDepth'), "
                + "or flatten the extension members.")
    }

    /// The deepest nesting of arrays and objects among the extension values (0 when all are scalars), found
    /// iteratively.
    static func containerDepth(of extensions: [ProblemDetails.Extension]) -> Int {
        var deepest = 0
        var pending: [(value: JSONValue, depth: Int)] = extensions.map { ($0.value, 0) }
        while let (value, depth) = pending.popLast() {
            switch value.kind {
            case .array:
                deepest = max(deepest, depth + 1)
                pending += value.elements.map { ($0, depth + 1) }
            case .object:
                deepest = max(deepest, depth + 1)
                pending += value.members.map { ($0.value, depth + 1) }
            default:
                deepest = max(deepest, depth)
            }
        }
        return deepest
    }
}

extension ProblemDetailsSerializerFactory {
    /// The format's encoder, ``ProblemDetailsBodyEncoder``, nesting up to `options.parsing.maxDepth`, so that what it
    /// writes the format's serializer reads back.
    public func makeEncoder(options: Options) -> (any BodyEncoder)? {
        ProblemDetailsBodyEncoder(maxDepth: options.parsing.maxDepth)
    }
}
