public import DecantCore

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
