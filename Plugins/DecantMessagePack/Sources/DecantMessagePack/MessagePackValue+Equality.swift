public import DecantValueTree

/// Equality and hashing without recursion, so that deeply nested values compare and hash on any thread's stack:
/// ``MessagePackValue`` is a `TreeValue`, whose walks visit the two trees (or the one) in the same order with an
/// explicit stack.
///
/// The semantics are structural, as synthesized conformances would be: the same case with equal payloads, floats
/// compared as `Float`s and `Double`s (`NaN` is not equal to itself, `0.0 == -0.0`), maps entry by entry in order.
extension MessagePackValue: TreeValue {
    /// Whether `lhs` and `rhs` are the same value (structurally; floats compare as `Float`s and `Double`s do).
    public static func == (lhs: MessagePackValue, rhs: MessagePackValue) -> Bool { lhs.treeEquals(rhs) }

    /// Feeds the value's case and payload, and those of everything it contains, into `hasher`.
    public func hash(into hasher: inout Hasher) { hashTree(into: &hasher) }

    /// Whether two values are equal leaves, or arrays or maps with as many children.
    public func shallowEquals(_ other: MessagePackValue) -> Bool {
        switch (self, other) {
        case (.nil, .nil): return true
        case (.bool(let one), .bool(let two)): return one == two
        case (.int(let one), .int(let two)): return one == two
        case (.uint(let one), .uint(let two)): return one == two
        case (.float32(let one), .float32(let two)): return one == two
        case (.float64(let one), .float64(let two)): return one == two
        case (.string(let one), .string(let two)): return one == two
        case (.binary(let one), .binary(let two)): return one == two
        case (.ext(let type, let data), .ext(let otherType, let otherData)):
            return type == otherType && data == otherData
        case (.timestamp(let seconds, let nanoseconds), .timestamp(let otherSeconds, let otherNanoseconds)):
            return seconds == otherSeconds && nanoseconds == otherNanoseconds
        case (.array(let one), .array(let two)): return one.count == two.count
        case (.map(let one), .map(let two)): return one.count == two.count
        default: return false
        }
    }

    /// Appends an array's elements, or a map's keys and values alternating, last first.
    public func appendChildren(to stack: inout [MessagePackValue]) {
        switch self {
        case .array(let elements): stack.append(contentsOf: elements.reversed())
        case .map(let entries): stack.appendChildren(of: entries)
        default: break
        }
    }

    /// Feeds the value's case and payload (for an array or a map, its count) into `hasher`.
    public func hashNode(into hasher: inout Hasher) {
        switch self {
        case .nil:
            hasher.combine(0 as UInt8)
        case .bool(let flag):
            hasher.combine(1 as UInt8)
            hasher.combine(flag)
        case .int(let integer):
            hasher.combine(2 as UInt8)
            hasher.combine(integer)
        case .uint(let integer):
            hasher.combine(3 as UInt8)
            hasher.combine(integer)
        case .float32(let float):
            hasher.combine(4 as UInt8)
            hasher.combine(float)
        case .float64(let double):
            hasher.combine(5 as UInt8)
            hasher.combine(double)
        case .string(let string):
            hasher.combine(6 as UInt8)
            hasher.combine(string)
        case .binary(let bytes):
            hasher.combine(7 as UInt8)
            hasher.combine(bytes)
        case .array(let elements):
            hasher.combine(8 as UInt8)
            hasher.combine(elements.count)
        case .map(let entries):
            hasher.combine(9 as UInt8)
            hasher.combine(entries.count)
        case .ext(let type, let data):
            hasher.combine(10 as UInt8)
            hasher.combine(type)
            hasher.combine(data)
        case .timestamp(let seconds, let nanoseconds):
            hasher.combine(11 as UInt8)
            hasher.combine(seconds)
            hasher.combine(nanoseconds)
        }
    }
}

extension MessagePackValue.Entry: TreeMapEntry {}
