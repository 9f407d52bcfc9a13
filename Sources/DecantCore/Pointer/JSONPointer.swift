/// An RFC 6901 JSON Pointer: the path to one value inside a document, such as `/data/0/name`.
///
/// A pointer is a list of reference tokens. Its text form is empty (the whole document) or a `/` before each token,
/// with `~` written `~0` and `/` written `~1` inside a token; ``description`` writes that form back, so parsing and
/// printing round-trip. The URI fragment form (RFC 6901 §6, `#/a%20b`) is read by ``init(uriFragment:)`` and written
/// by ``uriFragment``.
///
/// ```swift
/// let pointer = try JSONPointer(parsing: "/data/0/name")
/// pointer.tokens                           // ["data", "0", "name"]
/// let name = try registry.decode(String.self, from: response, at: pointer)
/// ```
///
/// A token selects a member of an object (a map, a dictionary) by its exact key, compared code unit by code unit
/// with no Unicode normalisation, or an element of an array when it is an array index: `0`, or digits without a
/// leading zero (``arrayIndex(_:)``). The token `-`, which RFC 6901 reserves for the element after the last, never
/// matches when reading. Formats that decode at a pointer walk their document iteratively, so a pointer of any length
/// costs time linear in its tokens and never stack.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The reference tokens, unescaped: `/a~1b/~0c` has the tokens `a/b` and `~c`.
    public var tokens: [String]

    /// The pointer to the whole document (`""`).
    public static let root = JSONPointer(tokens: [])

    /// A pointer with these reference tokens (unescaped).
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the text form of RFC 6901 §3: empty, or `/` before each token, with `~0` for `~` and `~1` for `/`.
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidPointer`` when `text` is not
    ///   empty and does not start with `/`, or has a `~` not followed by `0` or `1`.
    public init(parsing text: String) throws(SerializationError) {
        self.init(tokens: [])
        guard !text.isEmpty else { return }
        guard text.utf8.first == UInt8(ascii: "/") else {
            throw Self.invalid(
                text, "it must be empty (the whole document) or start with '/'",
                hint: "Write '/\(text)' for the member '\(text)' of the top-level object.")
        }
        var token: [UInt8] = []
        var bytes = text.utf8.dropFirst().makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "/"):
                tokens.append(String(decoding: token, as: UTF8.self))
                token.removeAll(keepingCapacity: true)
            case UInt8(ascii: "~"):
                switch bytes.next() {
                case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
                default:
                    throw Self.invalid(
                        text, "'~' must be followed by '0' (for '~') or '1' (for '/')",
                        hint: "Write '~0' for a '~' in a key.")
                }
            default:
                token.append(byte)
            }
        }
        tokens.append(String(decoding: token, as: UTF8.self))
    }

    /// Parses the URI fragment form of RFC 6901 §6: `#` followed by the text form with its characters
    /// percent-encoded as UTF-8 (`#/a%20b` is the pointer `/a b`).
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidPointer`` when `fragment` does
    ///   not start with `#`, has a `%` not followed by two hexadecimal digits, decodes to bytes that are not UTF-8,
    ///   or is not a pointer once decoded.
    public init(uriFragment fragment: String) throws(SerializationError) {
        guard fragment.utf8.first == UInt8(ascii: "#") else {
            throw Self.invalid(fragment, "a URI fragment starts with '#'", hint: "Write '#\(fragment)'.")
        }
        var decoded: [UInt8] = []
        var bytes = fragment.utf8.dropFirst().makeIterator()
        while let byte = bytes.next() {
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                continue
            }
            guard let high = bytes.next().flatMap(Self.hexValue), let low = bytes.next().flatMap(Self.hexValue) else {
                throw Self.invalid(
                    fragment, "'%' must be followed by two hexadecimal digits", hint: "Write '%25' for a '%'.")
            }
            decoded.append(high << 4 | low)
        }
        let text = String(decoding: decoded, as: UTF8.self)
        guard text.utf8.elementsEqual(decoded) else {
            throw Self.invalid(fragment, "its percent-encoded bytes are not UTF-8", hint: "Encode characters as UTF-8.")
        }
        try self.init(parsing: text)
    }

    /// Creates a pointer from a literal in source code, such as `"/data/0/name"`.
    ///
    /// A literal that is not a pointer (`"data/0"`, `"/a~2"`) stops the program with the reason: it is a mistake in
    /// the code, not in input. Parse text that comes from input with ``init(parsing:)``, which throws.
    public init(stringLiteral value: String) {
        do {
            try self.init(parsing: value)
        } catch {
            fatalError("Invalid JSON Pointer literal: \(error.message)")
        }
    }

    /// Whether this is the pointer to the whole document (no tokens).
    public var isRoot: Bool { tokens.isEmpty }

    /// The text form (RFC 6901 §3): each token after a `/`, with `~` written `~0` and `/` written `~1`.
    public var description: String {
        var text = ""
        for token in tokens {
            text += "/"
            text += Self.escape(token)
        }
        return text
    }

    /// The URI fragment form (RFC 6901 §6): `#` and the text form, with every byte outside RFC 3986's unreserved
    /// characters and `/`, `~` percent-encoded.
    public var uriFragment: String {
        var text = "#"
        for byte in description.utf8 {
            if Self.isFragmentSafe(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return text
    }

    /// The pointer of the first `count` tokens: the parent of the value at `prefix(tokens.count - 1)`.
    public func prefix(_ count: Int) -> JSONPointer {
        JSONPointer(tokens: Array(tokens.prefix(count)))
    }

    /// This pointer with `token` (unescaped) appended.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// The array index a token names (RFC 6901 §4): `0`, or ASCII digits without a leading zero, within `Int`'s
    /// range; `nil` for any other token, `-` included (it names the element after the last, which reading never
    /// finds).
    public static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        guard first != UInt8(ascii: "0") || utf8.count == 1 else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            if overflowA || overflowB { return nil }
            value = sum
        }
        return value
    }

    /// A token in the text form: `~` as `~0`, then `/` as `~1`.
    static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var bytes: [UInt8] = []
        for byte in token.utf8 {
            switch byte {
            case UInt8(ascii: "~"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "0")]
            case UInt8(ascii: "/"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "1")]
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// RFC 3986's unreserved characters, and `/` and `~`, which a pointer's text uses as they are.
    private static func isFragmentSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"): true
        default: false
        }
    }

    private static func invalid(_ text: String, _ reason: String, hint: String) -> SerializationError {
        SerializationError(
            code: .invalidPointer,
            message: "'\(text)' is not a JSON Pointer (RFC 6901): \(reason). \(hint)")
    }
}
