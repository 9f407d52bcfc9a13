/// An ASCII token of 1 to 16 bytes packed into two words, zero-padded, so that two tokens compare with two integer
/// comparisons instead of a `String` comparison.
///
/// Only tokens without NUL and non-ASCII bytes are packed: for those, equal words mean equal bytes, and equal bytes
/// mean equal strings (`String` equality is canonical equivalence, which for ASCII is byte equality).
struct PackedToken: Sendable, Hashable {
    let low: UInt64
    let high: UInt64

    /// A value no packed token has (0xFF is never a byte of UTF-8 text): what a longer token packs to on the media
    /// type side, where it can equal no packed range token.
    static let unmatchable = PackedToken(low: .max, high: .max)

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// Packs `bytes`; `nil` when they are empty, longer than 16 bytes, or hold NUL or a non-ASCII byte.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        var low: UInt64 = 0
        var high: UInt64 = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte != 0, byte < 0x80 else { return nil }
            if index < 8 {
                low |= UInt64(byte) << (8 * UInt64(index))
            } else {
                high |= UInt64(byte) << (8 * UInt64(index - 8))
            }
        }
        self.init(low: low, high: high)
    }

    /// Packs `string` (see ``init(_:)-(UnsafeBufferPointer<UInt8>)``).
    init?(_ string: String) {
        let packed = string.utf8.withContiguousStorageIfAvailable { PackedToken($0) }
        if let packed {
            guard let packed else { return nil }
            self = packed
        } else {
            guard let packed = Array(string.utf8).withUnsafeBufferPointer({ PackedToken($0) }) else { return nil }
            self = packed
        }
    }
}

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

/// One installed media range, compiled at installation into plain integers so that choosing a serializer compares
/// words instead of strings and copies nothing that is reference counted.
struct CompiledRange: Sendable {
    /// The range's pattern.
    enum Kind: UInt8, Sendable {
        case any, type, anySuffix, typedSuffix, exact
    }

    let kind: Kind
    /// The packed type (`.type`, `.typedSuffix`, `.exact`).
    let type: PackedToken
    /// The packed subtype (`.exact`) or suffix (`.anySuffix`, `.typedSuffix`).
    let name: PackedToken
    /// Whether the range must be matched with ``MediaRange/matches(_:suffix:)``: it has parameter constraints, or a
    /// token that could not be packed.
    let needsFullMatch: Bool
    /// ``MediaRange/Specificity`` as one integer with the same order.
    let score: Int
    /// The entry's position in the registry.
    let entry: Int
    /// The range's position in the entry's ranges.
    let rangeIndex: Int

    /// Compiles `range`, the `rangeIndex`th range of entry `entry`.
    init(_ range: MediaRange, entry: Int, rangeIndex: Int) {
        self.entry = entry
        self.rangeIndex = rangeIndex
        let specificity = range.specificity
        score = specificity.rank.rawValue << 40 | Swift.min(specificity.parameterCount, 1 << 39)
        var packed = true
        func pack(_ string: String) -> PackedToken {
            guard let token = PackedToken(string) else {
                packed = false
                return .unmatchable
            }
            return token
        }
        switch range.pattern {
        case .any:
            (kind, type, name) = (.any, .unmatchable, .unmatchable)
        case .type(let type):
            (kind, self.type, name) = (.type, pack(type), .unmatchable)
        case .suffix(nil, let suffix):
            (kind, type, name) = (.anySuffix, .unmatchable, pack(suffix))
        case .suffix(let type?, let suffix):
            (kind, self.type, name) = (.typedSuffix, pack(type), pack(suffix))
        case .exact(let type, let subtype):
            (kind, self.type, name) = (.exact, pack(type), pack(subtype))
        }
        needsFullMatch = !packed || !range.parameters.isEmpty
    }

    /// Whether the range's pattern matches `key` (only meaningful when not ``needsFullMatch``).
    @inline(__always)
    func matches(_ key: MediaTypeKey) -> Bool {
        switch kind {
        case .any: true
        case .type: key.type == type
        case .anySuffix: key.suffix == name
        case .typedSuffix: key.type == type && key.suffix == name
        case .exact: key.type == type && key.subtype == name
        }
    }
}
