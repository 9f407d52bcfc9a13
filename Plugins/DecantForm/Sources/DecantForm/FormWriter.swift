#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The WHATWG URL Standard's `application/x-www-form-urlencoded` serializer
/// (https://url.spec.whatwg.org/#concept-urlencoded-serializer): ``FormData`` to body bytes, the inverse of
/// ``FormParser``.
///
/// Pairs are written in order as `name=value`, joined by `&`. Names and values are encoded as UTF-8, and every byte
/// outside the *application/x-www-form-urlencoded percent-encode set*'s complement (ASCII letters and digits, `*`,
/// `-`, `.` and `_`) is written as `%XX` with uppercase hex digits, except the space, which is written as `+`. So
/// `~`, `!`, `'`, `(` and `)` are escaped (as `URLSearchParams` does), while `*` is not. The output is pure ASCII, and
/// parsing it with ``FormParser`` gives the same pairs back for every `String` (Swift strings hold only Unicode scalar
/// values, so the standard's lone-surrogate replacement never applies).
///
/// Writing cannot fail: every string has an encoding. The output is at most three bytes per UTF-8 byte of the names
/// and values, plus one `=` per pair and one `&` between pairs.
///
/// ```swift
/// let body = FormWriter().write(FormData([("q", "café au lait"), ("tag", "a&b"), ("empty", "")]))
/// String(decoding: body, as: UTF8.self)   // "q=caf%C3%A9+au+lait&tag=a%26b&empty="
/// ```
public struct FormWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// Writes `form` as `application/x-www-form-urlencoded` bytes.
    ///
    /// - Parameter form: The pairs, written in order (repeated names included).
    /// - Returns: The body: ASCII bytes, empty when `form` has no pairs.
    public func write(_ form: FormData) -> Data {
        let pairs = form.pairs
        guard !pairs.isEmpty else { return Data() }
        // Two passes: the exact size first, so that the second writes into memory allocated once.
        var size = 2 * pairs.count - 1
        for pair in pairs {
            size += Self.encodedCount(pair.name) + Self.encodedCount(pair.value)
        }
        var output = Data(count: size)
        output.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            var position = 0
            for (index, pair) in pairs.enumerated() {
                if index > 0 {
                    buffer[position] = UInt8(ascii: "&")
                    position &+= 1
                }
                Self.encode(pair.name, into: buffer, at: &position)
                buffer[position] = UInt8(ascii: "=")
                position &+= 1
                Self.encode(pair.value, into: buffer, at: &position)
            }
        }
        return output
    }

    /// Whether `byte` is written as it is: an ASCII letter or digit, `*`, `-`, `.` or `_`. The standard's set is
    /// stated as the bytes it escapes (the component set plus `!`, `'`, `(`, `)` and `~`); these are what is left.
    @inline(__always)
    private static func isKept(_ byte: UInt8) -> Bool {
        // One bit per ASCII byte: bits 0-63 in the low word, 64-127 in the high word.
        let low: UInt64 = 0x03FF_6400_0000_0000  // 0-9, `*` (0x2A), `-` (0x2D), `.` (0x2E)
        let high: UInt64 = 0x07FF_FFFE_87FF_FFFE  // A-Z, `_` (0x5F), a-z
        let word = byte < 64 ? low : high
        return byte < 128 && (word >> UInt64(byte & 63)) & 1 == 1
    }

    /// The number of bytes `text` takes once encoded.
    private static func encodedCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var count = bytes.count
            for byte in bytes where !isKept(byte) && byte != UInt8(ascii: " ") {
                count &+= 2
            }
            return count
        }
    }

    /// Writes `text` encoded into `buffer` at `position`, advancing it; the caller sized `buffer` with
    /// ``encodedCount(_:)``.
    private static func encode(_ text: String, into buffer: UnsafeMutableRawBufferPointer, at position: inout Int) {
        var text = text
        text.withUTF8 { bytes in
            var index = position
            for byte in bytes {
                if isKept(byte) {
                    buffer[index] = byte
                    index &+= 1
                } else if byte == UInt8(ascii: " ") {
                    buffer[index] = UInt8(ascii: "+")
                    index &+= 1
                } else {
                    buffer[index] = UInt8(ascii: "%")
                    buffer[index &+ 1] = hexDigit(byte >> 4)
                    buffer[index &+ 2] = hexDigit(byte & 0x0F)
                    index &+= 3
                }
            }
            position = index
        }
    }

    /// The uppercase hex digit of a value 0...15.
    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? value &+ UInt8(ascii: "0") : value &+ (UInt8(ascii: "A") &- 10)
    }
}
