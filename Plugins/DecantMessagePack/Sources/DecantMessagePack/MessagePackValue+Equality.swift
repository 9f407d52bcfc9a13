/// Equality and hashing without recursion, so that deeply nested values compare and hash on any thread's stack. Both
/// walk the two trees (or the one) in the same order with an explicit stack.
///
/// The semantics are structural, as synthesized conformances would be: the same case with equal payloads, floats
/// compared as `Float`s and `Double`s (`NaN` is not equal to itself, `0.0 == -0.0`), maps entry by entry in order.
extension MessagePackValue {
    /// Whether `lhs` and `rhs` are the same value (structurally; floats compare as `Float`s and `Double`s do).
    public static func == (lhs: MessagePackValue, rhs: MessagePackValue) -> Bool {
        if let same = lhs.leafEquals(rhs) { return same }
        var pending: [(MessagePackValue, MessagePackValue)] = [(lhs, rhs)]
        while let (left, right) = pending.popLast() {
            if let same = left.leafEquals(right) {
                guard same else { return false }
                continue
            }
            switch (left, right) {
            case (.array(let one), .array(let other)):
                guard one.count == other.count else { return false }
                for index in one.indices.reversed() { pending.append((one[index], other[index])) }
            case (.map(let one), .map(let other)):
                guard one.count == other.count else { return false }
                for index in one.indices.reversed() {
                    pending.append((one[index].value, other[index].value))
                    pending.append((one[index].key, other[index].key))
                }
            default:
                return false
            }
        }
        return true
    }

    /// Whether two values are equal when neither is an array or a map; `false` when only one is; `nil` when both
    /// are.
    private func leafEquals(_ other: MessagePackValue) -> Bool? {
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
        case (.array, .array), (.map, .map): return nil
        default: return false
        }
    }

    /// Feeds the value's case and payload, and those of everything it contains, into `hasher`.
    public func hash(into hasher: inout Hasher) {
        var pending: [MessagePackValue] = [self]
        while let value = pending.popLast() {
            switch value {
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
                pending.append(contentsOf: elements.reversed())
            case .map(let entries):
                hasher.combine(9 as UInt8)
                hasher.combine(entries.count)
                for entry in entries.reversed() {
                    pending.append(entry.value)
                    pending.append(entry.key)
                }
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
}
