/// The document type declaration. The external subset is never fetched.
public struct XMLDocumentType: Sendable, Hashable {
    /// The declared root element name.
    public var name: String
    /// The external subset's public identifier, if any.
    public var publicID: String?
    /// The external subset's system identifier, if any (never fetched).
    public var systemID: String?
    /// The internal subset's text as written, without the brackets, or `nil` when there is none.
    public var internalSubset: String?
    /// The notations the internal subset declares, in declaration order.
    public var notations: [XMLNotation]

    /// A document type declaration with the given parts.
    public init(
        name: String, publicID: String? = nil, systemID: String? = nil, internalSubset: String? = nil,
        notations: [XMLNotation] = []
    ) {
        self.name = name
        self.publicID = publicID
        self.systemID = systemID
        self.internalSubset = internalSubset
        self.notations = notations
    }
}
