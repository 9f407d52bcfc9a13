/// An element or attribute name, split per Namespaces in XML 1.0 when the parser is namespace-aware.
///
/// A name is one reference to immutable storage, so passing it along with every event of an element costs one
/// retain rather than four; the parser hands out the same storage for every occurrence of a name while the namespace
/// bindings in scope are unchanged, which makes comparing those occurrences a pointer comparison.
public struct XMLName: Sendable, Hashable, CustomStringConvertible {
    /// The four parts, never changed once made (a setter makes new storage).
    private final class Storage: Sendable {
        let qualifiedName: String
        let prefix: String?
        let localName: String
        let namespaceURI: String?

        init(qualifiedName: String, prefix: String?, localName: String, namespaceURI: String?) {
            self.qualifiedName = qualifiedName
            self.prefix = prefix
            self.localName = localName
            self.namespaceURI = namespaceURI
        }
    }

    private var storage: Storage

    /// The name as written, such as `xs:element`.
    public var qualifiedName: String {
        get { storage.qualifiedName }
        set { replace(qualifiedName: newValue) }
    }
    /// The prefix, such as `xs`, or `nil` when the name has none (or the parser is not namespace-aware).
    public var prefix: String? {
        get { storage.prefix }
        set { replace(prefix: .some(newValue)) }
    }
    /// The local part, such as `element`; the whole name when the parser is not namespace-aware.
    public var localName: String {
        get { storage.localName }
        set { replace(localName: newValue) }
    }
    /// The namespace the prefix (or the default namespace, for elements) is bound to, or `nil` for no namespace.
    public var namespaceURI: String? {
        get { storage.namespaceURI }
        set { replace(namespaceURI: .some(newValue)) }
    }

    /// A name with the given parts.
    public init(qualifiedName: String, prefix: String? = nil, localName: String? = nil, namespaceURI: String? = nil) {
        storage = Storage(
            qualifiedName: qualifiedName, prefix: prefix, localName: localName ?? qualifiedName,
            namespaceURI: namespaceURI)
    }

    /// Identifies the name's storage: equal for copies of one name (the parser hands out one for every occurrence of
    /// a name while the namespace bindings in scope are unchanged), different for names made apart, even if equal.
    /// Valid as a key only while the name is kept alive.
    package var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// The qualified name.
    public var description: String { qualifiedName }

    /// Whether two names have the same four parts (at once when they share storage).
    public static func == (lhs: XMLName, rhs: XMLName) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.qualifiedName == rhs.qualifiedName && lhs.localName == rhs.localName && lhs.prefix == rhs.prefix
            && lhs.namespaceURI == rhs.namespaceURI
    }

    /// Hashes the four parts.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(qualifiedName)
        hasher.combine(prefix)
        hasher.combine(localName)
        hasher.combine(namespaceURI)
    }

    /// New storage with one part changed.
    private mutating func replace(
        qualifiedName: String? = nil, prefix: String?? = nil, localName: String? = nil, namespaceURI: String?? = nil
    ) {
        storage = Storage(
            qualifiedName: qualifiedName ?? storage.qualifiedName, prefix: prefix ?? storage.prefix,
            localName: localName ?? storage.localName, namespaceURI: namespaceURI ?? storage.namespaceURI)
    }
}
