/// A notation declared in the internal subset (`<!NOTATION name PUBLIC "..." "...">`).
public struct XMLNotation: Sendable, Hashable {
    /// The notation's name.
    public var name: String
    /// Its public identifier, if any.
    public var publicID: String?
    /// Its system identifier, if any.
    public var systemID: String?

    /// A notation with the given parts.
    public init(name: String, publicID: String? = nil, systemID: String? = nil) {
        self.name = name
        self.publicID = publicID
        self.systemID = systemID
    }
}
