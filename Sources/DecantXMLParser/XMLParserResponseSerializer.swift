public import DecantCore

/// Returns a ready-to-run ``XMLStreamParser`` over the body (id `xmlParser`), as AFNetworking's
/// `AFXMLParserResponseSerializer` returned an `NSXMLParser`.
///
/// By default nothing is parsed in ``serialize(_:)``: the caller runs the parser. With ``parsesEagerly`` the body is
/// parsed once during ``serialize(_:)``, so a malformed body fails in the chain, with the response attached to the
/// error, instead of later.
public struct XMLParserResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `xmlParser` format.
    public static var format: MediaFormat { .xmlParser }

    /// Limits and namespace handling of the parsers this serializer returns.
    public var options: XMLParsingOptions
    /// Whether ``serialize(_:)`` parses the body once to surface errors. Defaults to `false`.
    public var parsesEagerly: Bool
    /// The media ranges accepted; the format's unless set.
    public var mediaRanges: [MediaRange]

    /// A serializer with `options`, accepting `mediaRanges`.
    public init(
        options: XMLParsingOptions = XMLParsingOptions(), parsesEagerly: Bool = false,
        mediaRanges: [MediaRange] = MediaFormat.xmlParser.mediaRanges
    ) {
        self.options = options
        self.parsesEagerly = parsesEagerly
        self.mediaRanges = mediaRanges
    }

    /// `true`: XML allows whitespace around its root element, so a body of only whitespace is an empty body.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { true }

    /// `true` unless ``parsesEagerly``: the returned parser has not read the body yet, so a registry never falls back
    /// to this serializer after another one (such as `xmlDocument`) rejected the body.
    public var defersParsing: Bool { !parsesEagerly }

    /// A parser over the body, with the response's media type (for its `charset`).
    ///
    /// - Throws: With ``parsesEagerly``, the parse error, carrying the response, its media type and this
    ///   serializer's id.
    public func serialize(_ response: Response) throws(SerializationError) -> XMLStreamParser {
        let parser = XMLStreamParser(data: response.body, mediaType: response.contentType, options: options)
        if parsesEagerly {
            do {
                try parser.forEachEvent { _, _ in }
            } catch {
                throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
            }
        }
        return parser
    }
}

extension MediaFormat {
    /// XML returned as a ready-to-run streaming parser: id `xmlParser`; `application/xml`, `text/xml` and every `+xml`
    /// type (RFC 7303 §4.1, RFC 6839).
    public static let xmlParser = MediaFormat(
        id: "xmlParser", mediaRanges: ["application/xml", "text/xml", "*/*+xml"],
        summary:
            "Returns a ready-to-run streaming XML parser (Decant's own, bounded, never fetching external entities).")
}
