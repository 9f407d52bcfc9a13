/// An attribute of a start tag.
public struct XMLAttribute: Sendable, Hashable {
    /// The attribute's name.
    public var name: XMLName
    /// The normalized value (XML 1.0 §3.3.3): references expanded, whitespace characters turned into spaces, and for
    /// attributes the internal subset declares with a type other than CDATA, spaces collapsed and trimmed.
    public var value: String
    /// `false` when the value is a default from an `<!ATTLIST>` declaration rather than written in the tag.
    public var isSpecified: Bool

    /// An attribute with the given name and value.
    public init(name: XMLName, value: String, isSpecified: Bool = true) {
        self.name = name
        self.value = value
        self.isSpecified = isSpecified
    }
}
