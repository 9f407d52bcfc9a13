public import DecantCore
public import DecantXMLParser

/// Parses XML bodies with Decant's own bounded parser into an ``XMLTree`` (id `xmlDocument`).
///
/// ```swift
/// let tree = try XMLDocumentResponseSerializer().serialize(response)
/// let titles = try tree.strings(at: "/rss/channel/item/title")
/// ```
public struct XMLDocumentResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `xmlDocument` format.
    public static var format: MediaFormat { .xmlDocument }

    /// Namespace handling and limits.
    public var options: XMLParsingOptions
    /// The media ranges accepted; the format's unless set.
    public var mediaRanges: [MediaRange]

    /// A serializer with `options`, accepting `mediaRanges`.
    public init(
        options: XMLParsingOptions = XMLParsingOptions(),
        mediaRanges: [MediaRange] = MediaFormat.xmlDocument.mediaRanges
    ) {
        self.options = options
        self.mediaRanges = mediaRanges
    }

    /// `true`: XML allows whitespace around its root element, so a body of only whitespace is an empty body.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { true }

    /// Parses the body into a tree; errors carry the response, its media type and this serializer's id.
    ///
    /// - Throws: `SerializationError` from the parser (`invalidBody` with the offset, `limitExceeded`,
    ///   `invalidEncoding`, ...), filled with the response.
    ///
    /// `XMLParsingOptions.maxOutputBytes` is capped to what the response's `DecodingBudget` has left (the budget a
    /// container such as multipart binds for its parts, or a default one), and the tree kept is charged to it.
    public func serialize(_ response: Response) throws(SerializationError) -> XMLTree {
        var effective = options
        let budget = DecodingBudget.current ?? DecodingBudget()
        let cap = budget.capping(effective.maxOutputBytes)
        effective.maxOutputBytes = cap.limit
        do {
            let tree = try XMLTree(parsing: response.body, mediaType: response.contentType, options: effective)
            try budget.charge(tree.keptBytes, for: "an XML tree of \(tree.nodeCount) nodes")
            return tree
        } catch {
            var error = error
            // The parser names `maxOutputBytes` when the output outgrows it: when the budget set it, say so.
            if cap.budgetBinds, error.code == .limitExceeded, error.message.contains("maxOutputBytes") {
                error = budget.refusal(for: "the XML document")
            }
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}

extension MediaFormat {
    /// XML parsed into an ``XMLTree``: id `xmlDocument`; the media ranges of the `xmlParser` format it is built on
    /// (`application/xml`, `text/xml` and every `+xml` type, such as `application/atom+xml` or `image/svg+xml`).
    public static let xmlDocument = MediaFormat(
        id: "xmlDocument", mediaRanges: MediaFormat.xmlParser.mediaRanges,
        summary:
            "Parses XML with Decant's own bounded parser into an immutable tree with path queries and Canonical XML.")
}
