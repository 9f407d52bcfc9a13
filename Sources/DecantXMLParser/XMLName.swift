/// An element or attribute name, split per Namespaces in XML 1.0 when the parser is namespace-aware.
public struct XMLName: Sendable, Hashable, CustomStringConvertible {
    /// The name as written, such as `xs:element`.
    public var qualifiedName: String
    /// The prefix, such as `xs`, or `nil` when the name has none (or the parser is not namespace-aware).
    public var prefix: String?
    /// The local part, such as `element`; the whole name when the parser is not namespace-aware.
    public var localName: String
    /// The namespace the prefix (or the default namespace, for elements) is bound to, or `nil` for no namespace.
    public var namespaceURI: String?

    /// A name with the given parts.
    public init(qualifiedName: String, prefix: String? = nil, localName: String? = nil, namespaceURI: String? = nil) {
        self.qualifiedName = qualifiedName
        self.prefix = prefix
        self.localName = localName ?? qualifiedName
        self.namespaceURI = namespaceURI
    }

    /// The qualified name.
    public var description: String { qualifiedName }
}
