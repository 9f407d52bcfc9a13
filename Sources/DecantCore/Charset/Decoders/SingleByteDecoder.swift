/// The WHATWG single-byte decoder (Encoding §9.1), also used for x-user-defined (§14.5) and true ISO-8859-1.
///
/// Each encoding has a 128-entry table for bytes 0x80-0xFF holding the UTF-8 form of the code point, so the output
/// string's UTF-8 is written directly: a first pass sizes the output (and finds the first unmapped byte), a second
/// writes it. ASCII-only input (the common case) becomes a string with no table lookups at all.
enum SingleByteDecoder {
    /// The UTF-8 form of one code point: the bytes in the low 24 bits (first byte lowest), the length in the top
    /// 8 bits; 0 for a byte the index does not map (an error).
    typealias Entry = UInt32

    /// One table per single-byte index name, built on first use from `EncodingTables.singleByte`.
    static let tablesByIndex: [String: [Entry]] = {
        let names = EncodingTables.singleByteNames.split(whereSeparator: { $0 == " " || $0 == "\n" })
        let indexes = EncodingTables.singleByte
        var tables: [String: [Entry]] = [:]
        for (position, name) in names.enumerated() {
            var table = [Entry](repeating: 0, count: 128)
            for pointer in 0..<128 {
                let index = position * 128 + pointer
                guard index < indexes.count else { break }
                table[pointer] = entry(for: UInt32(indexes[index]))
            }
            tables[String(name)] = table
        }
        return tables
    }()

    /// x-user-defined (§14.5): byte `b` (0x80-0xFF) is U+F780 + `b` - 0x80.
    static let xUserDefinedTable: [Entry] = (0..<128).map { entry(for: 0xF780 + UInt32($0)) }

    /// True ISO-8859-1: byte `b` is U+00`b`.
    static let isoLatin1Table: [Entry] = (0..<128).map { entry(for: 0x80 + UInt32($0)) }

    /// The table for a WHATWG single-byte index; all-unmapped when the name is unknown (which no encoding uses).
    static func table(forIndex name: String) -> [Entry] {
        tablesByIndex[name] ?? [Entry](repeating: 0, count: 128)
    }

    /// The table entry for `codePoint` (0 stays 0: unmapped).
    static func entry(for codePoint: UInt32) -> Entry {
        switch codePoint {
        case 0: return 0
        case 1..<0x80: return 1 << 24 | codePoint
        case 0x80..<0x800:
            let first = 0xC0 | (codePoint >> 6)
            let second = 0x80 | (codePoint & 0x3F)
            return 2 << 24 | second << 8 | first
        case 0xD800..<0xE000: return 0
        case 0x800..<0x10000:
            let first = 0xE0 | (codePoint >> 12)
            let second = 0x80 | ((codePoint >> 6) & 0x3F)
            let third = 0x80 | (codePoint & 0x3F)
            return 3 << 24 | third << 16 | second << 8 | first
        default: return 0  // no single-byte index maps outside the BMP
        }
    }

    static func decode(
        _ input: UnsafeBufferPointer<UInt8>, table: [Entry], mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        guard table.count == 128, let base = input.baseAddress else {
            return input.isEmpty ? "" : String(decoding: input, as: UTF8.self)
        }
        let count = input.count
        let highBits: UInt64 = 0x8080_8080_8080_8080
        // Pass 1: the output length, the first non-ASCII byte, and the first unmapped byte for strict mode. Eight
        // bytes at a time while they are ASCII; a chunk with a non-ASCII byte is done byte by byte.
        var length = 0
        var firstNonASCII = -1
        var index = 0
        while index < count {
            let end: Int
            if index + 8 <= count {
                if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & highBits == 0 {
                    index += 8
                    length += 8
                    continue
                }
                end = index + 8
            } else {
                end = count
            }
            while index < end {
                let byte = input[index]
                if byte < 0x80 {
                    length += 1
                } else {
                    if firstNonASCII < 0 { firstNonASCII = index }
                    let size = Int(table[Int(byte & 0x7F)] >> 24)
                    if size == 0 {
                        if mode == .strict {
                            throw TextDecodingError(encoding: encoding, offset: index, input: input)
                        }
                        length += 3  // U+FFFD
                    } else {
                        length += size
                    }
                }
                index += 1
            }
        }
        if firstNonASCII < 0 { return String(decoding: input, as: UTF8.self) }
        // Pass 2: write the UTF-8 bytes. ASCII chunks are stored eight bytes at once, and each table entry as four
        // little-endian bytes (the fourth is overwritten by what follows, or lies past `length`), so the buffer
        // has three bytes of slack.
        return table.withUnsafeBufferPointer { entries in
            String.decant_makeUTF8(count: length, capacity: length + 3) { output in
                guard let outputBase = output.baseAddress, output.count >= length + 3 else { return 0 }
                let raw = UnsafeMutableRawPointer(outputBase)
                // The ASCII prefix is copied as it is.
                outputBase.initialize(from: base, count: firstNonASCII)
                var written = firstNonASCII
                var position = firstNonASCII
                while position < count {
                    let end: Int
                    if position + 8 <= count {
                        let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
                        if word & highBits == 0 {
                            guard written + 8 <= length else { return written }
                            raw.storeBytes(of: word, toByteOffset: written, as: UInt64.self)
                            written += 8
                            position += 8
                            continue
                        }
                        end = position + 8
                    } else {
                        end = count
                    }
                    while position < end {
                        let byte = input[position]
                        position += 1
                        var entry = byte < 0x80 ? 1 << 24 | UInt32(byte) : entries[Int(byte & 0x7F)]
                        if entry == 0 { entry = 3 << 24 | 0xBD_BF_EF }  // U+FFFD
                        let size = Int(entry >> 24)
                        guard written + size <= length else { return written }
                        raw.storeBytes(of: entry.littleEndian, toByteOffset: written, as: UInt32.self)
                        written += size
                    }
                }
                return written
            }
        }
    }
}
