public import DecantCore
public import DecantXMLParser

/// Parses XML bodies with Decant's own bounded parser into an ``XMLTree`` (id `xmlDocument`).
///
/// ```swift
/// let tree = try XMLDocumentResponseSerializer().serialize(response)
/// let titles = try tree.strings(at: "/rss/channel/item/title")
/// ```
public struct XMLDocumentResponseSerializer: ResponseSerializer {
    /// Namespace handling and limits.
    public var options: XMLParsingOptions
    /// The media ranges accepted; ``defaultMediaRanges`` unless set.
    public var mediaRanges: [MediaRange]

    /// `application/xml`, `text/xml` and every `+xml` type (`*/*+xml`, such as `application/atom+xml` or
    /// `image/svg+xml`).
    public static let defaultMediaRanges: [MediaRange] = [
        MediaRange(.exact(type: "application", subtype: "xml")),
        MediaRange(.exact(type: "text", subtype: "xml")),
        MediaRange(.suffix(type: nil, suffix: "xml")),
    ]

    /// A serializer with `options`, accepting `mediaRanges`.
    public init(
        options: XMLParsingOptions = XMLParsingOptions(),
        mediaRanges: [MediaRange] = XMLDocumentResponseSerializer.defaultMediaRanges
    ) {
        self.options = options
        self.mediaRanges = mediaRanges
    }

    /// `xmlDocument`.
    public var id: SerializerID { "xmlDocument" }

    /// `true`: XML allows whitespace around its root element, so a body of only whitespace is an empty body.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { true }

    /// Parses the body into a tree; errors carry the response, its media type and this serializer's id.
    ///
    /// - Throws: `SerializationError` from the parser (`invalidBody` with the offset, `limitExceeded`,
    ///   `invalidEncoding`, ...), filled with the response.
    public func serialize(_ response: Response) throws(SerializationError) -> XMLTree {
        do {
            return try XMLTree(parsing: response.body, mediaType: response.contentType, options: options)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}
