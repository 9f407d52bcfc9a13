/// The XML declaration.
public struct XMLDeclaration: Sendable, Hashable {
    /// The version, such as `1.0`.
    public var version: String
    /// The encoding name as written, if any.
    public var encoding: String?
    /// The standalone document declaration, if any.
    public var standalone: Bool?

    /// A declaration with the given parts.
    public init(version: String, encoding: String? = nil, standalone: Bool? = nil) {
        self.version = version
        self.encoding = encoding
        self.standalone = standalone
    }
}
