import DecantCharset
public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes XML bodies from an ``XMLTree``: the `xmlDocument` format's `BodyEncoder`, for `application/xml`, `text/xml`
/// and every `+xml` type.
///
/// The text is ``XMLTree/xmlString()``'s, preceded by an XML declaration that names the encoding of the bytes (the
/// tree's version and standalone declaration are kept). The body is UTF-8 unless the media type's `charset` asks for
/// UTF-16: `utf-16` and `utf-16le` write UTF-16LE, `utf-16be` UTF-16BE, each after a byte order mark (XML 1.0
/// §4.3.3). The `Content-Type` written is the media type with `charset` naming the bytes (`utf-8`, `utf-16le` or
/// `utf-16be`). `EncodingOptions` do not apply: a tree is written as it is.
///
/// Reading the body back gives an equal tree: the same nodes, so the same Canonical XML. A tree parsed from a
/// document can always be written; one built from events that XML cannot carry (a U+0000 in its text, an element
/// name with a space, a comment holding `--`) fails with `encodingFailed` and the path of the node, rather than
/// producing a body no parser accepts. Writing is iterative, so any depth is written.
///
/// ```swift
/// let tree = try XMLTree(parsing: Data("<note><to>Tove</to></note>".utf8))
/// let body = try SerializerRegistry.standard.encode(tree, as: "application/xml")
/// String(decoding: body.body, as: UTF8.self)
/// // <?xml version="1.0" encoding="UTF-8"?>
/// // <note><to>Tove</to></note>
/// ```
///
/// The streaming `xmlParser` format reads bodies into a parser, not a value, and writes none.
public struct XMLDocumentBodyEncoder: BodyEncoder, FormatComponent {
    /// The `xmlDocument` format.
    public static var format: MediaFormat { .xmlDocument }

    /// The charsets written, as the `charset` parameter names them (any WHATWG label of these encodings is
    /// accepted): `utf-8`, `utf-16` (little-endian), `utf-16le` and `utf-16be`.
    public static let supportedCharsets = ["utf-8", "utf-16", "utf-16le", "utf-16be"]

    /// Creates the encoder.
    public init() {}

    /// Whether `value` is an ``XMLTree``.
    public func canEncode(_ value: any Sendable) -> Bool { value is XMLTree }

    /// Whether `value` is an ``XMLTree``, the format's own value type.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is XMLTree }

    /// Writes `value`, an ``XMLTree``, as an XML body of `mediaType` in the encoding its `charset` names (UTF-8 when
    /// it names none).
    ///
    /// - Throws: `SerializationError` with code `unsupportedValue` when `value` is not an ``XMLTree``, and
    ///   `encodingFailed` when `mediaType`'s `charset` is not one of ``supportedCharsets`` (the message lists them)
    ///   or the tree holds what XML cannot write (with the node's path in `codingPath`).
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        guard let tree = value as? XMLTree else { throw unsupportedValue(value, as: mediaType) }
        let encoding = try encoding(for: mediaType)
        if let problem = tree.writingProblem() {
            throw SerializationError(
                code: .encodingFailed,
                message: problem.message + " Only a tree that XML can carry is written: change that node.",
                mediaType: mediaType.withoutParameters, serializerID: id, codingPath: problem.codingPath)
        }
        let isUTF8 = encoding == .utf8
        let text = tree.xmlString(declaringEncoding: isUTF8 ? "UTF-8" : "UTF-16")
        var body: Data
        if isUTF8 {
            body = Data(text.utf8)
        } else {
            // A UTF-16 entity begins with a byte order mark (XML 1.0 §4.3.3, Appendix F.1).
            body = encoding == .utf16BE ? Data([0xFE, 0xFF]) : Data([0xFF, 0xFE])
            do throws(SerializationError) {
                body += try encoding.encode(text)
            } catch {
                throw error.filling(mediaType: mediaType.withoutParameters, serializerID: id)
            }
        }
        let contentType = mediaType.withoutParameters.settingParameter("charset", to: encoding.name.lowercased())
        return EncodedBody(body: body, contentType: contentType, serializerID: id)
    }

    /// The encoding `mediaType`'s `charset` asks for: UTF-8 when it names none.
    private func encoding(for mediaType: MediaType) throws(SerializationError) -> TextEncoding {
        guard let label = mediaType.charset else { return .utf8 }
        if let encoding = TextEncoding(label: label), [.utf8, .utf16LE, .utf16BE].contains(encoding) {
            return encoding
        }
        throw SerializationError(
            code: .encodingFailed,
            message: "The format '\(id)' writes XML in UTF-8 or UTF-16, not in the charset '\(label)'. Ask for one of "
                + Self.supportedCharsets.joined(separator: ", ") + ", or leave out the charset parameter for UTF-8.",
            mediaType: mediaType, serializerID: id)
    }
}

extension XMLDocumentSerializerFactory {
    /// The format's encoder, ``XMLDocumentBodyEncoder``: it writes ``XMLTree``s; the parsing options do not apply.
    public func makeEncoder(options: Options) -> (any BodyEncoder)? {
        XMLDocumentBodyEncoder()
    }
}
