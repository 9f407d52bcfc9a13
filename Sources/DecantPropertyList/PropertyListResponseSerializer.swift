public import DecantCore

/// Parses binary, XML and OpenStep property list bodies into a ``PropertyListValue`` (id `propertyList`).
public struct PropertyListResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `propertyList` format.
    public static var format: MediaFormat { .propertyList }

    /// The format and limits.
    public var options: PropertyListParsingOptions
    /// The media ranges accepted; the format's unless set.
    public var mediaRanges: [MediaRange]

    /// A serializer with `options`, accepting `mediaRanges`.
    public init(
        options: PropertyListParsingOptions = PropertyListParsingOptions(),
        mediaRanges: [MediaRange] = MediaFormat.propertyList.mediaRanges
    ) {
        self.options = options
        self.mediaRanges = mediaRanges
    }

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

extension MediaFormat {
    /// Binary, XML and OpenStep property lists: id `propertyList`; `application/x-plist` (AFNetworking's),
    /// `application/x-bplist` and `application/plist`.
    public static let propertyList = MediaFormat(
        id: "propertyList", mediaRanges: ["application/x-plist", "application/x-bplist", "application/plist"],
        summary: "Parses binary, XML and OpenStep property lists with Decant's own bounded readers.")
}
