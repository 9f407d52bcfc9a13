/// The one way Decant writes a JSON string literal (RFC 8259 §7), shared by the JSON writer, canonical forms and the
/// tool's output: `"` and `\` are escaped, control characters become `\b \f \n \r \t` or `\u00XX` (lower-case hex),
/// and everything else, `/` and non-ASCII included, is kept as UTF-8. This is what Python's
/// `json.dumps(text, ensure_ascii=False)` writes.
///
/// The work is linear and runs at memory-copy speed: runs of bytes that need no escape are appended with one copy
/// each, over the bytes' contiguous storage.
package enum JSONStringEscaping {
    /// Appends the content of the literal for the UTF-8 `bytes` (without the quotes) to `output`.
    package static func appendEscaped<Bytes: Collection<UInt8>>(_ bytes: Bytes, to output: inout [UInt8]) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            appendEscaped(UnsafeRawBufferPointer(buffer), to: &output)
        }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { appendEscaped($0, to: &output) }
        }
    }

    /// Appends the content of the literal for the UTF-8 `bytes` (without the quotes) to `output`: the one function
    /// that states the rule (``needsEscape(_:)`` and ``appendEscape(of:to:)``).
    package static func appendEscaped(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        let count = bytes.count
        var runStart = 0
        var index = 0
        while index < count {
            let byte = bytes[index]
            if needsEscape(byte) {
                if runStart < index {
                    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
                }
                appendEscape(of: byte, to: &output)
                runStart = index + 1
            }
            index += 1
        }
        if runStart < count {
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<count]))
        }
    }

    /// Whether `byte` is written escaped: `"`, `\` and the control characters U+0000 to U+001F.
    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C
    }

    /// Appends the escape of `byte` (one that ``needsEscape(_:)``): `\"`, `\\`, `\b \f \n \r \t`, else `\u00XX`.
    @inline(__always)
    static func appendEscape(of byte: UInt8, to output: inout [UInt8]) {
        let short: UInt8
        switch byte {
        case 0x22: short = 0x22
        case 0x5C: short = 0x5C
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        default: short = 0
        }
        if short != 0 {
            let escape: (UInt8, UInt8) = (UInt8(ascii: "\\"), short)
            withUnsafeBytes(of: escape) { output.append(contentsOf: $0) }
        } else {
            let escape: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
                UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigit(byte >> 4),
                hexDigit(byte & 0xF)
            )
            withUnsafeBytes(of: escape) { output.append(contentsOf: $0) }
        }
    }

    /// `text` as a JSON string literal, quotes included.
    package static func literal(_ text: String) -> String {
        var output: [UInt8] = [UInt8(ascii: "\"")]
        output.reserveCapacity(text.utf8.count + 2)
        appendEscaped(text.utf8, to: &output)
        output.append(UInt8(ascii: "\""))
        return String(decoding: output, as: UTF8.self)
    }

    /// The lower-case hexadecimal digit of `value` (0–15).
    @inline(__always)
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : 0x61 + value - 10
    }
}
