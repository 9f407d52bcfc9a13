#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finds where a value of the tape starts in the JSON text it was parsed from, for error offsets.
///
/// The tape keeps no positions for containers and literals, so the value is found again on the error path: its
/// ancestry on the tape (member keys and element numbers from the root) is followed through the text. Keys are
/// compared unescaped, and a key that appears twice leads to its last occurrence, whose value the tape keeps.
enum JSONSourceLocator {
    /// One step from a container to a child.
    enum Step {
        case member([UInt8])
        case element(Int)
    }

    /// The byte offset in `data` of the value whose route from the root is `steps`, or `nil` when the text does not
    /// have it (it is not the text the tape was parsed from).
    static func offset(of steps: [Step], in data: Data) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            let (encoding, bomLength) = JSONTextEncoding.detect(raw)
            let body = UnsafeRawBufferPointer(rebasing: raw[bomLength...])
            if encoding == .utf8 {
                let text = body.assumingMemoryBound(to: UInt8.self)
                return find(steps, in: text).map { bomLength + $0 }
            }
            guard let text = try? encoding.transcodeToUTF8(body, padding: 0),
                let offset = text.withUnsafeBufferPointer({ find(steps, in: $0) })
            else { return nil }
            return bomLength + encoding.originalOffset(ofUTF8Offset: offset, in: text)
        }
    }

    /// The offset in UTF-8 `text` of the value reached by `steps`.
    static func find(_ steps: [Step], in text: UnsafeBufferPointer<UInt8>) -> Int? {
        var cursor = Cursor(text: text)
        cursor.skipWhitespace()
        for step in steps {
            switch step {
            case .member(let key):
                guard cursor.consume(UInt8(ascii: "{")) else { return nil }
                var match: Int?
                cursor.skipWhitespace()
                if cursor.peek == UInt8(ascii: "}") { return nil }
                while true {
                    cursor.skipWhitespace()
                    guard let name = cursor.readString() else { return nil }
                    cursor.skipWhitespace()
                    guard cursor.consume(UInt8(ascii: ":")) else { return nil }
                    cursor.skipWhitespace()
                    if name == key { match = cursor.position }
                    guard cursor.skipValue() else { return nil }
                    cursor.skipWhitespace()
                    if cursor.consume(UInt8(ascii: ",")) { continue }
                    guard cursor.consume(UInt8(ascii: "}")) else { return nil }
                    break
                }
                guard let match else { return nil }
                cursor.position = match
            case .element(let number):
                guard cursor.consume(UInt8(ascii: "[")) else { return nil }
                cursor.skipWhitespace()
                for _ in 0..<number {
                    guard cursor.skipValue() else { return nil }
                    cursor.skipWhitespace()
                    guard cursor.consume(UInt8(ascii: ",")) else { return nil }
                    cursor.skipWhitespace()
                }
            }
        }
        return cursor.position < text.count ? cursor.position : nil
    }

    /// A position in JSON text, with just enough scanning to skip values and read keys.
    struct Cursor {
        let text: UnsafeBufferPointer<UInt8>
        var position = 0

        init(text: UnsafeBufferPointer<UInt8>) { self.text = text }

        var peek: UInt8? { position < text.count ? text[position] : nil }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            position += 1
            return true
        }

        /// Skips a string, a container or a literal; `false` at the end of the text.
        mutating func skipValue() -> Bool {
            guard let first = peek else { return false }
            if first == UInt8(ascii: "\"") { return skipString() }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                var depth = 0
                while let byte = peek {
                    if byte == UInt8(ascii: "\"") {
                        guard skipString() else { return false }
                        continue
                    }
                    position += 1
                    if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                        depth += 1
                    } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                        depth -= 1
                        if depth == 0 { return true }
                    }
                }
                return false
            }
            while let byte = peek, !Self.ends(byte) { position += 1 }
            return true
        }

        private static func ends(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20
                || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        mutating func skipString() -> Bool {
            position += 1
            while let byte = peek {
                position += 1
                if byte == UInt8(ascii: "\\") {
                    position += 1
                } else if byte == UInt8(ascii: "\"") {
                    return true
                }
            }
            return false
        }

        /// Reads a string and returns its unescaped UTF-8.
        mutating func readString() -> [UInt8]? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            var result: [UInt8] = []
            while let byte = peek {
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return result
                case UInt8(ascii: "\\"):
                    guard let escape = peek else { return nil }
                    position += 1
                    switch escape {
                    case UInt8(ascii: "b"): result.append(0x08)
                    case UInt8(ascii: "f"): result.append(0x0C)
                    case UInt8(ascii: "n"): result.append(0x0A)
                    case UInt8(ascii: "r"): result.append(0x0D)
                    case UInt8(ascii: "t"): result.append(0x09)
                    case UInt8(ascii: "u"):
                        guard var scalar = readHex() else { return nil }
                        if scalar & 0xFC00 == 0xD800, peek == UInt8(ascii: "\\"),
                            position + 1 < text.count, text[position + 1] == UInt8(ascii: "u")
                        {
                            position += 2
                            guard let low = readHex() else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low & 0x3FF)
                        }
                        JSONTextEncoding.appendUTF8(scalar, to: &result)
                    default: result.append(escape)
                    }
                default:
                    result.append(byte)
                }
            }
            return nil
        }

        private mutating func readHex() -> UInt32? {
            guard position + 4 <= text.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = text[position]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x57)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x37)
                default: return nil
                }
                value = value << 4 | digit
                position += 1
            }
            return value
        }
    }
}

extension TapeDecoder {
    /// The byte offset in `data` (the text this decoder's tape was parsed from) of the value at `target`.
    func sourceOffset(of target: Int, in data: Data) -> Int? {
        guard let steps = steps(to: target) else { return nil }
        return JSONSourceLocator.offset(of: steps, in: data)
    }

    /// The route from the root to the value at `target`.
    func steps(to target: Int) -> [JSONSourceLocator.Step]? {
        var steps: [JSONSourceLocator.Step] = []
        var current = root
        while current != target {
            let end = self.end(of: current)
            guard target > current && target < end else { return nil }
            switch kind(current) {
            case Tape.arrayKind:
                var position = current + 1
                var number = 0
                while self.end(of: position) <= target {
                    position = self.end(of: position)
                    number += 1
                }
                steps.append(.element(number))
                current = position
            case Tape.objectKind:
                var position = current + 1
                while nextMember(position) <= target { position = nextMember(position) }
                steps.append(.member(Array(span(position))))
                current = position + 1
                // A key itself is located at its member's value.
                if target == position { return steps }
            default:
                return nil
            }
        }
        return steps
    }
}
