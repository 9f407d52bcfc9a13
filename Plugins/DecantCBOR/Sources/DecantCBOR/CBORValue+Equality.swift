/// Equality and hashing without recursion, so that values nested thousands of levels deep compare and hash on any
/// thread's stack. Both walk the two trees (or the one) in the same order with an explicit stack.
///
/// The semantics are structural, as synthesized conformances would be: the same case with equal payloads, floats
/// compared as `Double`s (`NaN` is not equal to itself, `0.0 == -0.0`), maps entry by entry in order.
extension CBORValue {
    /// Whether `lhs` and `rhs` are the same value (structurally; floats compare as `Double`s do).
    public static func == (lhs: CBORValue, rhs: CBORValue) -> Bool {
        if let same = lhs.leafEquals(rhs) { return same }
        var pending: [(CBORValue, CBORValue)] = [(lhs, rhs)]
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
            case (.tag(let number, let one), .tag(let otherNumber, let other)):
                guard number == otherNumber else { return false }
                pending.append((one, other))
            default:
                return false
            }
        }
        return true
    }

    /// Whether two values are equal when neither is a container (an array, a map or a tag); `false` when only one
    /// is; `nil` when both are containers.
    private func leafEquals(_ other: CBORValue) -> Bool? {
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
        case (.array, .array), (.map, .map), (.tag, .tag): return nil
        default: return false
        }
    }

    /// Feeds the value's case and payload, and those of everything it contains, into `hasher`.
    public func hash(into hasher: inout Hasher) {
        var pending: [CBORValue] = [self]
        while let value = pending.popLast() {
            switch value {
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
                pending.append(contentsOf: elements.reversed())
            case .map(let entries):
                hasher.combine(6 as UInt8)
                hasher.combine(entries.count)
                for entry in entries.reversed() {
                    pending.append(entry.value)
                    pending.append(entry.key)
                }
            case .tag(let number, let content):
                hasher.combine(7 as UInt8)
                hasher.combine(number)
                pending.append(content)
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
}
