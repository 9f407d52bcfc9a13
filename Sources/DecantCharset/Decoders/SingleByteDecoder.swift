import DecantCore

/// The WHATWG single-byte decoder (Encoding §9.1), also used for x-user-defined (§14.5) and true ISO-8859-1.
///
/// Each encoding has a 128-entry table for bytes 0x80-0xFF holding the UTF-8 form of the code point, so the output's
/// UTF-8 is written in one pass: runs of ASCII bytes eight at a time, every other byte as its table entry, stored as
/// one four-byte word. The bytes are then copied into the string without a second validation (they are well-formed
/// by construction). ASCII-only input (the common case) becomes a string with no table lookups at all.
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

    /// Decodes `input` with `table` (128 entries, for bytes 0x80-0xFF).
    static func decode(
        _ input: UnsafeBufferPointer<UInt8>, table: [Entry], mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        guard let base = input.baseAddress, !input.isEmpty else { return "" }
        let count = input.count
        let asciiPrefix = UTF8Decoder.asciiPrefixLength(input)
        if asciiPrefix == count { return String.decant_fromValidUTF8(input, isASCII: true) }
        // Each byte from the first non-ASCII one becomes at most three bytes; eight more for the word stores, which
        // run up to seven bytes ahead of what they keep.
        let capacity = asciiPrefix + 3 * (count - asciiPrefix) + 8
        let result: Result<String, TextDecodingError> = table.withUnsafeBufferPointer { entries in
            String.decant_withValidUTF8(capacity: capacity) { output in
                guard let outputBase = output.baseAddress, output.count >= capacity, entries.count == 128 else {
                    return .success((0, true))
                }
                let out = UnsafeMutableRawPointer(outputBase)
                let raw = UnsafeRawPointer(base)
                let highBits: UInt64 = 0x8080_8080_8080_8080
                out.copyMemory(from: raw, byteCount: asciiPrefix)
                var written = asciiPrefix
                var position = asciiPrefix
                while position < count {
                    let byte = base[position]
                    if byte < 0x80 {
                        guard position + 8 <= count else {
                            outputBase[written] = byte
                            written += 1
                            position += 1
                            continue
                        }
                        // Store eight bytes, keep the ASCII ones before the first non-ASCII byte (at least one).
                        let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                        out.storeBytes(of: word, toByteOffset: written, as: UInt64.self)
                        let high = UInt64(littleEndian: word) & highBits
                        let run = high == 0 ? 8 : high.trailingZeroBitCount >> 3
                        written += run
                        position += run
                        continue
                    }
                    var entry = entries[Int(byte & 0x7F)]
                    if entry == 0 {
                        if mode == .strict {
                            return .failure(TextDecodingError(encoding: encoding, offset: position, input: input))
                        }
                        entry = 3 << 24 | 0xBD_BF_EF  // U+FFFD
                    }
                    // The entry's bytes, first byte lowest; the fourth (the length) is overwritten by what follows.
                    out.storeBytes(of: entry.littleEndian, toByteOffset: written, as: UInt32.self)
                    written += Int(entry >> 24)
                    position += 1
                }
                return .success((written, false))
            }
        }
        return try result.get()
    }
}
