public import DecantValueTree

/// Equality and hashing without recursion, so that values nested thousands of levels deep compare and hash on any
/// thread's stack: ``CBORValue`` is a `TreeValue`, whose walks visit the two trees (or the one) in the same order with
/// an explicit stack.
///
/// The semantics are structural, as synthesized conformances would be: the same case with equal payloads, floats
/// compared as `Double`s (`NaN` is not equal to itself, `0.0 == -0.0`), maps entry by entry in order.
extension CBORValue: TreeValue {
    /// Whether `lhs` and `rhs` are the same value (structurally; floats compare as `Double`s do).
    public static func == (lhs: CBORValue, rhs: CBORValue) -> Bool { lhs.treeEquals(rhs) }

    /// Feeds the value's case and payload, and those of everything it contains, into `hasher`.
    public func hash(into hasher: inout Hasher) { hashTree(into: &hasher) }

    /// Whether two values are equal leaves, or arrays, maps or tags (of the same number) with as many children.
    public func shallowEquals(_ other: CBORValue) -> Bool {
        switch (self, other) {
        case (.unsignedInteger(let one), .unsignedInteger(let two)): return one == two
        case (.negativeInteger(let one), .negativeInteger(let two)): return one == two
        case (.bignum(let negative, let magnitude), .bignum(let otherNegative, let otherMagnitude)):
            return negative == otherNegative && magnitude == otherMagnitude
        case (.bytes(let one), .bytes(let two)): return one == two
        case (.text(let one), .text(let two)): return one == two
        case (.simple(let one), .simple(let two)): return one == two
        case (.bool(let one), .bool(let two)): return one == two
        case (.null, .null), (.undefined, .undefined): return true
        case (.float(let one), .float(let two)): return one == two
        case (.array(let one), .array(let two)): return one.count == two.count
        case (.map(let one), .map(let two)): return one.count == two.count
        case (.tag(let number, _), .tag(let otherNumber, _)): return number == otherNumber
        default: return false
        }
    }

    /// Appends an array's elements, a map's keys and values alternating, or a tag's content, last first.
    public func appendChildren(to stack: inout [CBORValue]) {
        switch self {
        case .array(let elements): stack.append(contentsOf: elements.reversed())
        case .map(let entries): stack.appendChildren(of: entries)
        case .tag(_, let content): stack.append(content)
        default: break
        }
    }

    /// Feeds the value's case and payload (for an array or a map, its count; for a tag, its number) into `hasher`.
    public func hashNode(into hasher: inout Hasher) {
        switch self {
        case .unsignedInteger(let integer):
            hasher.combine(0 as UInt8)
            hasher.combine(integer)
        case .negativeInteger(let integer):
            hasher.combine(1 as UInt8)
            hasher.combine(integer)
        case .bignum(let negative, let magnitude):
            hasher.combine(2 as UInt8)
            hasher.combine(negative)
            hasher.combine(magnitude)
        case .bytes(let data):
            hasher.combine(3 as UInt8)
            hasher.combine(data)
        case .text(let text):
            hasher.combine(4 as UInt8)
            hasher.combine(text)
        case .array(let elements):
            hasher.combine(5 as UInt8)
            hasher.combine(elements.count)
        case .map(let entries):
            hasher.combine(6 as UInt8)
            hasher.combine(entries.count)
        case .tag(let number, _):
            hasher.combine(7 as UInt8)
            hasher.combine(number)
        case .simple(let number):
            hasher.combine(8 as UInt8)
            hasher.combine(number)
        case .bool(let flag):
            hasher.combine(9 as UInt8)
            hasher.combine(flag)
        case .null:
            hasher.combine(10 as UInt8)
        case .undefined:
            hasher.combine(11 as UInt8)
        case .float(let double):
            hasher.combine(12 as UInt8)
            hasher.combine(double)
        }
    }
}

extension CBORValue.MapEntry: TreeMapEntry {}
