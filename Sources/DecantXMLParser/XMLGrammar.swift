/// The character and name productions of XML 1.0 (Fifth Edition) and Namespaces in XML 1.0, as the parser applies
/// them: for writers that must produce only what the parser reads back (a name, a character).
///
/// ```swift
/// XMLGrammar.isNCName("balance")   // true
/// XMLGrammar.isNCName("a:b")       // false: a colon separates a prefix
/// XMLGrammar.isCharacter("\u{1}")  // false: XML 1.0 has no way to write U+0001
/// ```
public enum XMLGrammar {
    /// Whether `scalar` is a Char (XML 1.0 §2.2 [2]): a character an XML 1.0 document may contain.
    public static func isCharacter(_ scalar: Unicode.Scalar) -> Bool {
        XMLCharacterClass.isChar(scalar.value)
    }

    /// Whether `text` matches the Name production (XML 1.0 §2.3 [5]), colons allowed.
    public static func isName(_ text: some StringProtocol) -> Bool {
        var scalars = text.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isNameStart(first) else { return false }
        while let scalar = scalars.next() {
            guard isNameCharacter(scalar) else { return false }
        }
        return true
    }

    /// Whether `text` matches the NCName production (Namespaces in XML 1.0 §3 [4]): a Name without a colon, such as
    /// an element's local name or a prefix.
    public static func isNCName(_ text: some StringProtocol) -> Bool {
        !text.unicodeScalars.contains(":") && isName(text)
    }

    /// Whether `text` matches the QName production (Namespaces in XML 1.0 §4 [7]): an NCName, or two joined by one
    /// colon (`prefix:local`).
    public static func isQName(_ text: some StringProtocol) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return (parts.count == 1 || parts.count == 2) && parts.allSatisfy { isNCName($0) }
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            ? XMLCharacterClass.table[Int(scalar.value)] & XMLCharacterClass.nameStart != 0
            : XMLCharacterClass.isNameStart(scalar.value)
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            ? XMLCharacterClass.table[Int(scalar.value)] & XMLCharacterClass.nameChar != 0
            : XMLCharacterClass.isNameChar(scalar.value)
    }
}
