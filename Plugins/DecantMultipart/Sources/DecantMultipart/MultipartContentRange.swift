/// The `Content-Range` of a part of a `multipart/byteranges` body (RFC 9110 §14.4): which bytes of the selected
/// representation the part holds, such as `bytes 500-999/8000` or `bytes 500-999/*`.
public struct MultipartContentRange: Sendable, Hashable, CustomStringConvertible {
    /// The range unit, lowercased; `bytes` is the only unit RFC 9110 defines.
    public var unit: String
    /// The position of the first byte (0-based).
    public var first: Int
    /// The position of the last byte, inclusive.
    public var last: Int
    /// The length of the whole representation, or `nil` when the server sent `*` (unknown).
    public var completeLength: Int?

    /// Creates a range.
    public init(unit: String = "bytes", first: Int, last: Int, completeLength: Int? = nil) {
        self.unit = unit
        self.first = first
        self.last = last
        self.completeLength = completeLength
    }

    /// Parses a `Content-Range` field value such as `bytes 0-499/1234`, or returns `nil` when it is not a satisfied
    /// range (`first` after `last`, `last` not below a known complete length, numbers too large, other syntax).
    public init?(parsing text: String) {
        let trimmed = text.utf8.drop { $0 == 0x20 || $0 == 0x09 }
        guard let space = trimmed.firstIndex(of: 0x20) else { return nil }
        let unitBytes = trimmed[..<space]
        guard !unitBytes.isEmpty, unitBytes.allSatisfy(HeaderSyntax.isTokenByte) else { return nil }
        let rest = Array(trimmed[trimmed.index(after: space)...].drop { $0 == 0x20 })
        guard let dash = rest.firstIndex(of: 0x2D), let slash = rest.firstIndex(of: 0x2F), dash < slash else {
            return nil
        }
        var end = rest.count
        while end > slash + 1, rest[end - 1] == 0x20 || rest[end - 1] == 0x09 { end -= 1 }
        guard let first = Self.number(rest[..<dash]), let last = Self.number(rest[(dash + 1)..<slash]),
            first <= last
        else { return nil }
        let lengthBytes = rest[(slash + 1)..<end]
        var completeLength: Int? = nil
        if !(lengthBytes.count == 1 && lengthBytes.first == 0x2A) {
            guard let length = Self.number(lengthBytes), last < length else { return nil }
            completeLength = length
        }
        self.init(
            unit: String(decoding: unitBytes, as: UTF8.self).lowercased(), first: first, last: last,
            completeLength: completeLength)
    }

    /// The number of bytes in the range.
    public var count: Int { last - first + 1 }

    /// `bytes first-last/complete`, with `*` for an unknown complete length.
    public var description: String {
        "\(unit) \(first)-\(last)/" + (completeLength.map(String.init) ?? "*")
    }

    /// A run of 1 to 18 ASCII digits as an integer (no sign, no overflow), or `nil`.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= 0x30 && digit <= 0x39 else { return nil }
            value = value * 10 + Int(digit - 0x30)
        }
        return value
    }
}
