/// A media type reduced to packed tokens for matching against a ``CompiledRange`` table.
struct MediaTypeKey: Sendable, Hashable {
    /// The packed type, or ``PackedToken/unmatchable`` when longer than 16 bytes.
    let type: PackedToken
    /// The packed subtype, or ``PackedToken/unmatchable``.
    let subtype: PackedToken
    /// The packed structured syntax suffix, or ``PackedToken/unmatchable`` when there is none or it is long.
    let suffix: PackedToken

    /// The key of `mediaType`; `nil` when its type or subtype holds a NUL or non-ASCII byte (never the case for
    /// a parsed media type), so that the caller matches the strings instead.
    init?(_ mediaType: MediaType) {
        guard let key = mediaType.key else { return nil }
        self = key
    }

    /// The key of the media type `type/subtype` (both lowercase tokens).
    init?(type typeString: String, subtype subtypeString: String) {
        guard let type = MediaTypeKey.token(typeString), let subtype = MediaTypeKey.token(subtypeString)
        else { return nil }
        self.type = type
        self.subtype = subtype
        // The suffix is what follows the last "+" (see `MediaType.suffix`); the bytes were checked above.
        let suffix = subtypeString.utf8.withContiguousStorageIfAvailable { bytes -> PackedToken in
            guard let plus = bytes.lastIndex(of: UInt8(ascii: "+")) else { return .unmatchable }
            return PackedToken(UnsafeBufferPointer(rebasing: bytes[(plus + 1)...])) ?? .unmatchable
        }
        if let suffix {
            self.suffix = suffix
        } else {
            let plus = subtypeString.utf8.lastIndex(of: UInt8(ascii: "+"))
            let rest = plus.map { String(Substring(subtypeString.utf8[subtypeString.utf8.index(after: $0)...])) }
            self.suffix = rest.flatMap { $0.isEmpty ? nil : PackedToken($0) } ?? .unmatchable
        }
    }

    /// The packed token, ``PackedToken/unmatchable`` when it is ASCII without NUL but long, `nil` otherwise.
    private static func token(_ string: String) -> PackedToken? {
        if let packed = PackedToken(string) { return packed }
        let clean = string.utf8.allSatisfy { $0 != 0 && $0 < 0x80 }
        return clean && !string.isEmpty ? .unmatchable : nil
    }
}
