public import DecantCore

/// Parses binary, XML and OpenStep property list bodies into a ``PropertyListValue`` (id `propertyList`).
public struct PropertyListResponseSerializer: ResponseSerializer {
    /// The format and limits.
    public var options: PropertyListParsingOptions
    /// The media ranges accepted; ``defaultMediaRanges`` unless set.
    public var mediaRanges: [MediaRange]

    /// `application/x-plist` (AFNetworking's), `application/x-bplist` and `application/plist`.
    public static let defaultMediaRanges: [MediaRange] = [
        MediaRange(.exact(type: "application", subtype: "x-plist")),
        MediaRange(.exact(type: "application", subtype: "x-bplist")),
        MediaRange(.exact(type: "application", subtype: "plist")),
    ]

    /// A serializer with `options`, accepting `mediaRanges`.
    public init(
        options: PropertyListParsingOptions = PropertyListParsingOptions(),
        mediaRanges: [MediaRange] = PropertyListResponseSerializer.defaultMediaRanges
    ) {
        self.options = options
        self.mediaRanges = mediaRanges
    }

    /// `propertyList`.
    public var id: SerializerID { "propertyList" }

    /// `true`: XML and OpenStep property lists allow whitespace around their value, so a body of only whitespace is an
    /// empty body.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { true }

    /// Parses the body; errors carry the response, its media type and this serializer's id.
    public func serialize(_ response: Response) throws(SerializationError) -> PropertyListValue {
        do {
            return try PropertyListParser(options: options).parse(response.body, mediaType: response.contentType)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}
