public import DecantCore

/// Parses the body with a fresh ``XMLHandler`` and returns its output: the handler-driven XML serializer.
///
/// ```swift
/// let serializer = XMLHandlerResponseSerializer { TitleCollector() }
/// let titles: [String] = try serializer.serialize(response)
/// ```
public struct XMLHandlerResponseSerializer<Handler: XMLHandler>: ResponseSerializer {
    /// Makes the handler for each response.
    public let makeHandler: @Sendable () -> Handler
    /// Limits and namespace handling.
    public var options: XMLParsingOptions
    /// The media ranges accepted; `MediaFormat.xmlParser.mediaRanges` unless set.
    public var mediaRanges: [MediaRange]
    /// The id used in errors and traces; `xmlHandler` unless set.
    public var id: SerializerID

    /// A serializer that runs a handler from `makeHandler` over each body.
    public init(
        options: XMLParsingOptions = XMLParsingOptions(),
        mediaRanges: [MediaRange] = MediaFormat.xmlParser.mediaRanges,
        id: SerializerID = "xmlHandler",
        makeHandler: @escaping @Sendable () -> Handler
    ) {
        self.makeHandler = makeHandler
        self.options = options
        self.mediaRanges = mediaRanges
        self.id = id
    }

    /// Parses the body with a new handler and returns its output.
    ///
    /// - Throws: The parse error, or the handler's error wrapped (code `serializerFailed`, the handler's error as
    ///   `underlying`), carrying the response, its media type and this serializer's id.
    public func serialize(_ response: Response) throws(SerializationError) -> Handler.Output {
        do {
            return try XMLStreamParser(data: response.body, mediaType: response.contentType, options: options)
                .parse(with: makeHandler())
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}
