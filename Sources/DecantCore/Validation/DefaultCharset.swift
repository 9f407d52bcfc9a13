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
    public init(label: String, ranges: [MediaRange] = [MediaRange(.type("text"))]) {
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

/// Rewrites a response's media type by ``ChainConfiguration/MediaTypeAlias``es: the first that applies wins.
public struct MediaTypeAliasing: ResponseStage, Hashable {
    /// The aliases, in order.
    public var aliases: [ChainConfiguration.MediaTypeAlias]

    /// Creates the stage.
    public init(_ aliases: [ChainConfiguration.MediaTypeAlias]) { self.aliases = aliases }

    /// The response with `Content-Type` replaced by the first applying alias's `treatAs`; a `charset` of the
    /// original type is kept when the alias's type has none.
    public func process(_ response: Response) throws -> Response {
        guard let alias = aliases.first(where: { $0.applies(to: response) }), let original = response.contentType
        else { return response }
        var target = alias.treatAs
        if target.charset == nil, let charset = original.charset {
            target = target.settingParameter("charset", to: charset)
        }
        return response.replacingContentType(target)
    }
}
