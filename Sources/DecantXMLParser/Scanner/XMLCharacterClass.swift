import DecantBytes
import DecantCore

/// Character classes of XML 1.0 (Fifth Edition) §2.2 (Char) and §2.3 (Name), for ASCII bytes by table and for other
/// scalars by range.
enum XMLCharacterClass {
    /// A NameStartChar.
    static let nameStart: UInt8 = 1
    /// A NameChar.
    static let nameChar: UInt8 = 2
    /// White space (§2.3 [3] S): space, tab, LF, CR.
    static let whitespace: UInt8 = 4
    /// Ends a run of character data: `<`, `&`, CR, `]`, and the C0 controls that are not Char.
    static let textStop: UInt8 = 8
    /// Ends a run of an attribute value: `<`, `&`, tab, LF, CR, both quotes, and C0 controls that are not Char.
    static let attributeStop: UInt8 = 16
    /// A PubidChar (§2.3 [13]).
    static let pubid: UInt8 = 32
    /// A C0 control that is not Char.
    static let invalid: UInt8 = 64

    /// Flags for each ASCII byte (bytes from 0x80 have none: they start multi-byte sequences).
    nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        table.initialize(repeating: 0, count: 256)
        for byte in 0..<0x20 where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            table[byte] = invalid | textStop | attributeStop
        }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] |= nameStart | nameChar | pubid }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] |= nameStart | nameChar | pubid }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] |= nameChar | pubid }
        for byte in [UInt8(ascii: "_"), UInt8(ascii: ":")] { table[Int(byte)] |= nameStart | nameChar }
        for byte in [UInt8(ascii: "-"), UInt8(ascii: ".")] { table[Int(byte)] |= nameChar }
        for byte in [0x20, 0x09, 0x0A, 0x0D] { table[byte] |= whitespace }
        for byte in "<&\r]".utf8 { table[Int(byte)] |= textStop }
        for byte in "<&\t\n\r\"'".utf8 { table[Int(byte)] |= attributeStop }
        for byte in " \r\n-'()+,./:=?;!*#@$_%".utf8 { table[Int(byte)] |= pubid }
        return UnsafePointer(table)
    }()

    /// Each byte 1 in a word of eight.
    static let byteOnes: UInt64 = 0x0101_0101_0101_0101

    /// The high bit of each byte of `word` above ASCII or below 0x20 (for bytes above ASCII, the flag may be set or
    /// not: callers flag those bytes anyway).
    @inline(__always)
    static func controlOrHighBytes(_ word: UInt64) -> UInt64 {
        (word | ~((word & ~ByteRun.highBits) &+ (byteOnes &* 0x60))) & ByteRun.highBits
    }

    /// The high bit of each byte of `word` (eight bytes in memory order, little-endian) that ends a run of character
    /// data (``textStop``) or is above ASCII: what ``table`` says, eight bytes at once.
    @inline(__always)
    static func textStops(_ word: UInt64) -> UInt64 {
        let controls =
            controlOrHighBytes(word) & ~ByteRun.bytes(word, equalTo: 0x09) & ~ByteRun.bytes(word, equalTo: 0x0A)
        return controls | ByteRun.bytes(word, equalTo: UInt8(ascii: "<"))
            | ByteRun.bytes(word, equalTo: UInt8(ascii: "&"))
            | ByteRun.bytes(word, equalTo: UInt8(ascii: "]"))
    }

    /// The high bit of each byte of `word` that ends a run of an attribute value (``attributeStop``: every C0 control
    /// among them) or is above ASCII.
    @inline(__always)
    static func attributeStops(_ word: UInt64) -> UInt64 {
        controlOrHighBytes(word) | ByteRun.bytes(word, equalTo: UInt8(ascii: "<"))
            | ByteRun.bytes(word, equalTo: UInt8(ascii: "&"))
            | ByteRun.bytes(word, equalTo: UInt8(ascii: "\"")) | ByteRun.bytes(word, equalTo: UInt8(ascii: "'"))
    }

    /// Whether a scalar above ASCII is a NameStartChar (§2.3 [4]).
    @inline(__always)
    static func isNameStart(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D,
            0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            return true
        default:
            return false
        }
    }

    /// Whether a scalar above ASCII is a NameChar (§2.3 [4a]).
    @inline(__always)
    static func isNameChar(_ scalar: UInt32) -> Bool {
        isNameStart(scalar) || scalar == 0xB7 || (0x300...0x36F).contains(scalar) || (0x203F...0x2040).contains(scalar)
    }

    /// Whether a scalar is a Char (§2.2 [2]).
    @inline(__always)
    static func isChar(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Decodes the UTF-8 sequence starting at `index` (whose first byte is 0x80 or above), validating it and the
    /// Char production; `nil` when the bytes are not valid UTF-8 or the scalar is not a Char.
    @inline(__always)
    static func decode(_ base: UnsafePointer<UInt8>, _ index: Int, _ end: Int) -> (scalar: UInt32, length: Int)? {
        let b0 = base[index]
        @inline(__always) func cont(_ offset: Int) -> UInt32? {
            guard index + offset < end else { return nil }
            let byte = base[index + offset]
            return byte & 0xC0 == 0x80 ? UInt32(byte & 0x3F) : nil
        }
        switch b0 {
        case 0xC2...0xDF:
            guard let c1 = cont(1) else { return nil }
            return ((UInt32(b0 & 0x1F) << 6) | c1, 2)
        case 0xE0...0xEF:
            guard let c1 = cont(1), let c2 = cont(2) else { return nil }
            let scalar = (UInt32(b0 & 0x0F) << 12) | (c1 << 6) | c2
            guard scalar >= 0x800, !(0xD800...0xDFFF).contains(scalar), scalar != 0xFFFE, scalar != 0xFFFF else {
                return nil
            }
            return (scalar, 3)
        case 0xF0...0xF4:
            guard let c1 = cont(1), let c2 = cont(2), let c3 = cont(3) else { return nil }
            let scalar = (UInt32(b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3
            guard scalar >= 0x10000, scalar <= 0x10FFFF else { return nil }
            return (scalar, 4)
        default:
            return nil
        }
    }

    /// Appends the UTF-8 encoding of `scalar` to `bytes`.
    @inline(__always)
    static func appendUTF8(_ scalar: UInt32, to bytes: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            bytes.append(UInt8(scalar))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (scalar >> 6)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | (scalar >> 12)))
            bytes.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            bytes.append(UInt8(0xF0 | (scalar >> 18)))
            bytes.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
