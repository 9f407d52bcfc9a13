/// What a start tag carries.
public struct XMLElementStart: Sendable, Hashable {
    /// The element's name.
    public var name: XMLName
    /// The attributes in the order written, then defaulted ones from the internal subset. When the parser is
    /// namespace-aware, namespace declarations are not attributes: they are in ``namespaceDeclarations``.
    public var attributes: [XMLAttribute]
    /// The namespace declarations made on this tag, in the order written (empty when not namespace-aware).
    public var namespaceDeclarations: [XMLNamespaceDeclaration]
    /// Whether the tag was an empty-element tag (`<a/>`).
    public var isEmptyElementTag: Bool

    /// A start tag with the given parts.
    public init(
        name: XMLName, attributes: [XMLAttribute] = [], namespaceDeclarations: [XMLNamespaceDeclaration] = [],
        isEmptyElementTag: Bool = false
    ) {
        self.name = name
        self.attributes = attributes
        self.namespaceDeclarations = namespaceDeclarations
        self.isEmptyElementTag = isEmptyElementTag
    }
}
