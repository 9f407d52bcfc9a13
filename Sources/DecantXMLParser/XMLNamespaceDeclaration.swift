/// A namespace declaration (`xmlns="..."` or `xmlns:p="..."`) on a start tag.
public struct XMLNamespaceDeclaration: Sendable, Hashable {
    /// The declared prefix, or `nil` for the default namespace.
    public var prefix: String?
    /// The namespace name; empty when a default namespace declaration undeclares the default namespace.
    public var uri: String

    /// A declaration binding `prefix` (or the default namespace when `nil`) to `uri`.
    public init(prefix: String?, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }
}
