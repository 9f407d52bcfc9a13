/// Adds a `charset` parameter to text responses that have none, so that the charset pipeline uses it instead of its
/// default (a byte order mark still wins, per WHATWG Encoding).
///
/// JSON and XML media types are left alone: their encoding comes from the body (RFC 8259 §8.1, XML 1.0 §4.3.3).
public struct DefaultCharset: ResponseStage, Hashable {
    /// The WHATWG encoding label to add, such as `windows-1252`.
    public var label: String
    /// The media types it applies to; `text/*` by default.
    public var ranges: [MediaRange]

    /// Creates the stage.
    public init(label: String, ranges: [MediaRange] = ["text/*"]) {
        self.label = label
        self.ranges = ranges
    }

    /// The response with `charset=<label>` added when its media type matches and has no charset.
    public func process(_ response: Response) throws -> Response {
        guard let mediaType = response.contentType, mediaType.charset == nil, !mediaType.isJSON, !mediaType.isXML,
            ranges.contains(where: { $0.matches(mediaType) })
        else { return response }
        return response.replacingContentType(mediaType.settingParameter("charset", to: label))
    }
}
