import DecantBytes
import DecantCore

/// The tape reader: the same checks as ``MessagePackReader/readValue()`` (truncation, the byte 0xc1, UTF-8, ext and
/// timestamp validity, every limit), but instead of values it appends one ``MessagePackTapeEntry`` per value, so
/// that nothing but the entries is allocated while parsing. ``MessagePackItem`` reads values from the tape and the
/// body when asked.
extension MessagePackReader {
    /// Appends the entry of a value whose head is at `offset`, with `count` elements, entries or content bytes
    /// (content begins `headLength` bytes after the head); returns its index.
    @inline(__always)
    mutating func appendEntry(
        _ kind: MessagePackTapeEntry.Kind, offset: Int, count: Int, headLength: Int
    ) -> Int {
        let index = entries.count
        entries.append(
            MessagePackTapeEntry(
                offset: UInt32(truncatingIfNeeded: offset), end: UInt32(truncatingIfNeeded: index + 1),
                count: UInt32(truncatingIfNeeded: count), kind: kind,
                headLength: UInt8(truncatingIfNeeded: headLength)))
        return index
    }

    /// Reads one complete value onto the tape, without recursion.
    mutating func readTapeValue() throws(SerializationError) {
        // An open container's `base` is its entry; `remaining` counts items (a map's keys and values).
        var top = MessagePackFrame.placeholder
        var depth = 0
        while true {
            let start = position
            try require(1, for: "a value", at: start)
            let head = bytes.load(fromByteOffset: position, as: UInt8.self)
            position += 1
            let kind: MessagePackTapeEntry.Kind
            // The content bytes of a str, bin or ext; the elements or entries of an array or map.
            var length = 0
            var isContainer = false
            switch head {
            case 0x00...0x7f, 0xe0...0xff: kind = .int
            case 0x80...0x8f, 0x90...0x9f:
                kind = head < 0x90 ? .map : .array
                length = Int(head & 0x0f)
                isContainer = true
            case 0xa0...0xbf:
                length = Int(head & 0x1f)
                try stepOverText(length, at: start)
                kind = .string
            case 0xc0: kind = .nilValue
            case 0xc1: throw unusedByte(at: start)
            case 0xc2: kind = .falseValue
            case 0xc3: kind = .trueValue
            case 0xc4, 0xc5, 0xc6:
                let declared = try unsigned(1 << Int(head - 0xc4), for: "a bin length", at: start)
                length = try count(declared, for: "a bin", at: start)
                try require(length, for: "a bin", at: start)
                position += length
                kind = .binary
            case 0xc7, 0xc8, 0xc9:
                let declared = try unsigned(1 << Int(head - 0xc7), for: "an ext length", at: start)
                length = try count(declared, for: "an ext", at: start)
                kind = try stepOverExt(length, at: start)
            case 0xca:
                _ = try unsigned(4, for: "a float 32", at: start)
                kind = .float32
            case 0xcb:
                _ = try unsigned(8, for: "a float 64", at: start)
                kind = .float64
            case 0xcc, 0xcd, 0xce:
                _ = try unsigned(1 << Int(head - 0xcc), for: "a uint", at: start)
                kind = .int
            case 0xcf: kind = try unsigned(8, for: "a uint", at: start) > UInt64(Int64.max) ? .uint : .int
            case 0xd0:
                _ = try unsigned(1, for: "an int 8", at: start)
                kind = .int
            case 0xd1:
                _ = try unsigned(2, for: "an int 16", at: start)
                kind = .int
            case 0xd2:
                _ = try unsigned(4, for: "an int 32", at: start)
                kind = .int
            case 0xd3:
                _ = try unsigned(8, for: "an int 64", at: start)
                kind = .int
            case 0xd4...0xd8:
                length = 1 << Int(head - 0xd4)
                kind = try stepOverExt(length, at: start)
            case 0xd9, 0xda, 0xdb:
                let declared = try unsigned(1 << Int(head - 0xd9), for: "a str length", at: start)
                length = try count(declared, for: "a str", at: start)
                try stepOverText(length, at: start)
                kind = .string
            default:
                // 0xdc...0xdf: array 16 and 32, map 16 and 32.
                let isMap = head >= 0xde
                let width = head & 1 == 0 ? 2 : 4
                length = Int(try unsigned(width, for: isMap ? "a map length" : "an array length", at: start))
                kind = isMap ? .map : .array
                isContainer = true
            }
            if isContainer {
                let entry = appendEntry(kind, offset: start, count: length, headLength: position - start)
                if length > 0 {
                    let isMap = kind == .map
                    try checkOpening(isMap: isMap, count: length, depth: depth, at: start)
                    if depth > 0 { frames.append(top) }
                    top = MessagePackFrame(isMap: isMap, remaining: isMap ? length * 2 : length, base: entry)
                    depth += 1
                    continue
                }
            } else {
                _ = appendEntry(kind, offset: start, count: length, headLength: position - start - length)
            }
            // Count the finished value in the open containers, closing those it completes.
            while true {
                guard depth > 0 else { return }
                top.remaining -= 1
                if top.remaining > 0 { break }
                entries[top.base].end = UInt32(truncatingIfNeeded: entries.count)
                depth -= 1
                if depth > 0 { top = frames.removeLast() }
            }
        }
    }

    /// Checks the str of `length` bytes at the position (its head is at `start`) as UTF-8 in place, unless invalid
    /// sequences are to be replaced, and steps over it.
    @inline(__always)
    mutating func stepOverText(_ length: Int, at start: Int) throws(SerializationError) {
        // Written out rather than through `require` and `options`: this runs for every str, and reading them here
        // copied the whole reader.
        guard length <= count &- position else { throw truncated(length, for: "a str", at: start) }
        let pointer = bytes + position
        if checksUTF8 && !ByteRun.isValidUTF8(pointer, count: length) {
            let utf8 = UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: length)
            throw invalidText(utf8, contentStart: position, at: start)
        }
        position += length
    }

    /// Steps over an ext's type and `length` bytes of data, checking a timestamp's; returns which it is.
    @inline(__always)
    mutating func stepOverExt(_ length: Int, at start: Int) throws(SerializationError) -> MessagePackTapeEntry.Kind {
        let (type, data) = try extContent(length: length, at: start)
        guard type == -1 else { return .ext }
        _ = try Self.timestamp(data, at: start)
        return .timestamp
    }
}
