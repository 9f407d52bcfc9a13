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
        return Self.table.withUnsafeBufferPointer { table in
            pairs.withUnsafeBufferPointer { pairs in write(pairs, table) }
        }
    }

    /// The two passes over the pairs: the exact size first, so that the second writes into memory allocated once.
    private func write(_ pairs: UnsafeBufferPointer<FormData.Pair>, _ table: UnsafeBufferPointer<UInt32>) -> Data {
        var size = 2 * pairs.count - 1
        for index in pairs.indices {
            size += Self.encodedCount(pairs[index].name, table) + Self.encodedCount(pairs[index].value, table)
        }
        // Three bytes of slack: every input byte is written as one 4-byte store (see `table`).
        var output = Data(count: size + 3)
        output.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var position = 0
            for index in pairs.indices {
                if index > 0 {
                    base.storeBytes(of: UInt8(ascii: "&"), toByteOffset: position, as: UInt8.self)
                    position &+= 1
                }
                Self.encode(pairs[index].name, table, into: base, at: &position)
                base.storeBytes(of: UInt8(ascii: "="), toByteOffset: position, as: UInt8.self)
                position &+= 1
                Self.encode(pairs[index].value, table, into: base, at: &position)
            }
        }
        output.count = size
        return output
    }

    /// Calls `body` with the UTF-8 bytes of `text`, without copying a native string.
    @inline(__always)
    private static func withUTF8<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    /// What each byte is written as, the one statement of the encode set: the bytes to write in the low three bytes
    /// (first byte lowest) and their number in the high byte. ASCII letters and digits, `*`, `-`, `.` and `_` are
    /// written as they are, the space as `+`, and every other byte as `%XX` with uppercase hex digits. (The standard
    /// states the set as what it escapes: the component percent-encode set plus `!`, `'`, `(`, `)` and `~`, which
    /// leaves exactly these bytes.)
    private static let table: [UInt32] = (0...255).map { (byte: Int) -> UInt32 in
        let scalar = Unicode.Scalar(UInt8(byte))
        let kept =
            scalar.properties.isASCIIHexDigit || ("g"..."z").contains(scalar) || ("G"..."Z").contains(scalar)
            || "*-._".unicodeScalars.contains(scalar)
        if kept { return 1 << 24 | UInt32(byte) }
        if scalar == " " { return 1 << 24 | UInt32(UInt8(ascii: "+")) }
        let digits = Array("0123456789ABCDEF".utf8)
        return 3 << 24 | UInt32(digits[byte & 0xF]) << 16 | UInt32(digits[byte >> 4]) << 8 | UInt32(UInt8(ascii: "%"))
    }

    /// The number of bytes `text` takes once encoded.
    private static func encodedCount(_ text: String, _ table: UnsafeBufferPointer<UInt32>) -> Int {
        withUTF8(text) { bytes in
            var count = 0
            for byte in bytes {
                count &+= Int(table[Int(byte)] >> 24)
            }
            return count
        }
    }

    /// Writes `text` encoded at `base + position`, advancing `position`. Each byte is one 4-byte store of its table
    /// entry (whose high byte the next store overwrites), so the caller leaves three bytes of slack after the end.
    private static func encode(
        _ text: String, _ table: UnsafeBufferPointer<UInt32>, into base: UnsafeMutableRawPointer,
        at position: inout Int
    ) {
        withUTF8(text) { bytes in
            var index = position
            for byte in bytes {
                let entry = table[Int(byte)]
                base.storeBytes(of: entry.littleEndian, toByteOffset: index, as: UInt32.self)
                index &+= Int(entry >> 24)
            }
            position = index
        }
    }
}
