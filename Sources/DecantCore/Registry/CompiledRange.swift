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
