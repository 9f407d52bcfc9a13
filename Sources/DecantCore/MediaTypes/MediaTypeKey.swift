/// A media type's type, subtype and structured syntax suffix as ``MediaToken``s, derived once when the media type is
/// made, so that ``MediaRange/matches(_:)`` compares words instead of strings.
struct MediaTypeKey: Sendable, Hashable {
    /// The type.
    let type: MediaToken
    /// The subtype.
    let subtype: MediaToken
    /// The structured syntax suffix (see ``MediaType/suffix``), or ``MediaToken/absent``.
    let suffix: MediaToken

    /// The key of the media type `type/subtype`.
    init(type: String, subtype: String) {
        self.type = MediaToken(type)
        self.subtype = MediaToken(subtype)
        // The suffix is what follows the last "+", when something does (see `MediaType.suffix`).
        let utf8 = subtype.utf8
        if let plus = utf8.lastIndex(of: UInt8(ascii: "+")), utf8.index(after: plus) != utf8.endIndex {
            suffix = MediaToken(String(Substring(utf8[utf8.index(after: plus)...])))
        } else {
            suffix = .absent
        }
    }
}
