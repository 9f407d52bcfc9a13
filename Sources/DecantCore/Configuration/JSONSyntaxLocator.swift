/// Finds the first syntax error of a JSON document (RFC 8259) and says where it is and what was expected, for
/// configuration errors: Foundation's decoders only say "The given data was not valid JSON".
///
/// A linear scan with an explicit stack (no recursion), so any document, however deep, is checked in one pass.
enum JSONSyntaxLocator {
    /// The first error: a sentence with its line and column (both from 1), or `nil` when the syntax is valid.
    static func firstError(in bytes: [UInt8]) -> String? {
        var scanner = Scanner(bytes: bytes)
        guard let (offset, expected) = scanner.firstError() else { return nil }
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        let found: String
        if offset >= bytes.count {
            found = "the end of the document"
        } else if bytes[offset] >= 0x21 && bytes[offset] < 0x7F {
            found = "'\(Character(Unicode.Scalar(bytes[offset])))'"
        } else {
            found = "the byte 0x" + String(bytes[offset], radix: 16, uppercase: true)
        }
        return "JSON syntax error at line \(line), column \(column): expected \(expected), found \(found)"
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            // A UTF-8 byte order mark is allowed before the document.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }

        mutating func skipWhitespace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        /// The offset of the first error and what was expected there.
        mutating func firstError() -> (Int, String)? {
            // Each open container: `true` for an object.
            var stack: [Bool] = []
            skipWhitespace()
            while true {
                // A value.
                if let error = value(&stack) { return error }
                // After a value: close containers or continue with a comma.
                while true {
                    skipWhitespace()
                    guard let isObject = stack.last else {
                        return peek() == nil ? nil : (position, "the end of the document after the top-level value")
                    }
                    let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if peek() == close {
                        position += 1
                        stack.removeLast()
                        continue
                    }
                    guard peek() == UInt8(ascii: ",") else {
                        return (position, isObject ? "',' or '}'" : "',' or ']'")
                    }
                    position += 1
                    skipWhitespace()
                    if isObject, let error = member() { return error }
                    break
                }
            }
        }

        /// An object member's name and colon.
        mutating func member() -> (Int, String)? {
            guard peek() == UInt8(ascii: "\"") else { return (position, "a member name in double quotes") }
            if let error = string() { return error }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { return (position, "':' after the member name") }
            position += 1
            skipWhitespace()
            return nil
        }

        /// One value; an opened container is pushed and its first member or element begins.
        mutating func value(_ stack: inout [Bool]) -> (Int, String)? {
            while true {
                guard let byte = peek() else { return (position, "a value") }
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = byte == UInt8(ascii: "{")
                    position += 1
                    skipWhitespace()
                    if peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        position += 1
                        return nil
                    }
                    stack.append(isObject)
                    if isObject {
                        if let error = member() { return error }
                    }
                    continue
                case UInt8(ascii: "\""):
                    return string()
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return number()
                default:
                    for literal in ["true", "false", "null"] where bytes[position...].starts(with: literal.utf8) {
                        position += literal.utf8.count
                        return nil
                    }
                    return (position, "a value (an object, array, string, number, true, false or null)")
                }
            }
        }

        mutating func string() -> (Int, String)? {
            position += 1
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return nil
                case UInt8(ascii: "\\"):
                    position += 1
                    guard let escaped = peek(), Array("\"\\/bfnrtu".utf8).contains(escaped) else {
                        return (position, "an escape character (one of \" \\ / b f n r t u)")
                    }
                    position += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let hex = peek(), hex.isHexDigit else { return (position, "a hexadecimal digit") }
                            position += 1
                        }
                    }
                case 0..<0x20:
                    return (position, "'\"' (control characters must be escaped in strings)")
                default:
                    position += 1
                }
            }
            return (position, "'\"' to end the string")
        }

        mutating func number() -> (Int, String)? {
            if peek() == UInt8(ascii: "-") { position += 1 }
            guard let first = peek(), first.isDigit else { return (position, "a digit") }
            position += 1
            if first != UInt8(ascii: "0") { while peek()?.isDigit == true { position += 1 } }
            if peek() == UInt8(ascii: ".") {
                position += 1
                guard peek()?.isDigit == true else { return (position, "a digit after the decimal point") }
                while peek()?.isDigit == true { position += 1 }
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                position += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
                guard peek()?.isDigit == true else { return (position, "a digit in the exponent") }
                while peek()?.isDigit == true { position += 1 }
            }
            return nil
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self | 0x20 >= UInt8(ascii: "a") && self | 0x20 <= UInt8(ascii: "f"))
    }
}
