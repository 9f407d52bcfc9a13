import Decant
import DecantCBOR
import Foundation
import Testing

/// The reader's fast paths: duplicate keys compared by their bytes or as values, maps large enough for a hash table,
/// crafted hash collisions, the ASCII text path and the cache of repeated texts (bodies of 4 KB or more). Every body
/// is encoded by hand here, and the expected values and offsets follow from that encoding.
@Suite struct FastPathTests {
    /// How a map under test is laid out: alone, after enough other keys for a hash table, or also inside a body
    /// large enough for the text cache.
    enum Layout: CaseIterable, CustomStringConvertible {
        case small
        case manyKeys
        case manyKeysLargeBody

        var description: String {
            switch self {
            case .small: "small map"
            case .manyKeys: "map of 20 keys"
            case .manyKeysLargeBody: "map of 20 keys in a 6 KB body"
            }
        }
    }

    /// A head of major type `major` with argument `argument`, in the shortest form.
    static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24..<256: return [type | 24, UInt8(argument)]
        case 256..<65_536: return [type | 25, UInt8(argument >> 8), UInt8(argument & 0xFF)]
        default: return [type | 26] + (0..<4).map { UInt8(truncatingIfNeeded: argument >> (24 - 8 * $0)) }
        }
    }

    /// A definite-length text string of `bytes`.
    static func text(_ bytes: [UInt8]) -> [UInt8] { head(3, UInt64(bytes.count)) + bytes }

    /// A body holding a map of `first` -> 1 and `second` -> 2 (raw encodings), laid out as `layout` says; the byte
    /// offset of `second` in it.
    static func mapBody(_ first: [UInt8], _ second: [UInt8], _ layout: Layout) -> (body: Data, offset: Int) {
        var prefix: [UInt8] = []
        var filler: [[UInt8]] = []
        if layout != .small {
            // 18 other text keys: 9 before the two under test, 9 after.
            filler = (0..<18).map { text(Array("filler key \($0)".utf8)) + [0x00] }
        }
        if layout == .manyKeysLargeBody {
            // An array of a 6,000-byte byte string and the map.
            prefix = [0x82] + head(2, 6000) + [UInt8](repeating: 0xAB, count: 6000)
        }
        var body = prefix + head(5, UInt64(filler.count + 2))
        body += filler.prefix(9).joined()
        body += first + [0x01]
        let offset = body.count
        body += second + [0x02]
        body += filler.dropFirst(9).joined()
        return (Data(body), offset)
    }

    /// Keys equal as values (RFC 8949 §5.6) however they are encoded: integers with heads of every width, texts
    /// with long heads or in chunks, bignums that are integers, floats of different widths.
    static let equalKeys: [(String, String)] = [
        ("01", "1801"), ("01", "190001"), ("01", "1a00000001"), ("01", "1b0000000000000001"), ("20", "3800"),
        ("6161", "780161"), ("6161", "79000161"), ("6161", "7a00000001 61"), ("6161", "7f6161ff"),
        ("6161", "7f60616160ff"), ("60", "7fff"), ("60", "7800"), ("62c3a9", "7f62c3a9ff"), ("62c3a9", "7802c3a9"),
        ("6fe697a5e69cace8aa9ee381a7e38199", "7f63e697a56ce69cace8aa9ee381a7e38199ff"),
        ("71 6b6579206f6620736576656e7465656e21", "7f 68 6b6579206f662073 69 6576656e7465656e21 ff"),
        ("01", "c24101"), ("f93c00", "fa3f800000"), ("f93c00", "fb3ff0000000000000"), ("4101", "5f4101ff"),
        ("8101", "9f01ff"), ("a1616101", "bf616101ff"),
    ]

    /// Keys that look alike but are different values.
    static let differentKeys: [(String, String)] = [
        ("6161", "6162"), ("01", "21"), ("01", "f93c00"), ("6161", "4161"), ("62c3a9", "6165"), ("60", "40"),
        ("6161", "7f6162ff"), ("70 61616161616161616161616161616161", "70 61616161616161616161616161616162"),
        ("71 6161616161616161616161616161616161", "71 6161616161616161616161616161616162"),
        ("68 6161616161616161", "69 616161616161616100"), ("c16161", "6161"),
    ]

    @Test(arguments: equalKeys, Layout.allCases)
    func equalKeysAreDuplicates(keys: (String, String), layout: Layout) throws {
        let (body, offset) = Self.mapBody(
            Array(CBORTestSupport.hex(keys.0)), Array(CBORTestSupport.hex(keys.1)), layout)
        let error = #expect(throws: SerializationError.self, "\(keys) \(layout)") { try CBORParser().parse(body) }
        #expect(error?.code == .invalidBody)
        #expect(error?.offset == offset, "\(keys) \(layout): \(error?.message ?? "")")
        #expect(error?.message.contains("duplicateKeys") == true)
        // The last value wins, at the first key's position.
        let value = try CBORParser(options: CBORParsingOptions(duplicateKeys: .lastWins)).parse(body)
        let map = try #require(layout == .manyKeysLargeBody ? value.arrayValue?.last : value)
        let entries = try #require(map.mapEntries)
        #expect(entries.count == (layout == .small ? 1 : 19))
        let index = layout == .small ? 0 : 9
        #expect(entries[index].value == .unsignedInteger(2), "\(keys) \(layout)")
    }

    @Test(arguments: differentKeys, Layout.allCases)
    func differentKeysAreKept(keys: (String, String), layout: Layout) throws {
        let (body, _) = Self.mapBody(Array(CBORTestSupport.hex(keys.0)), Array(CBORTestSupport.hex(keys.1)), layout)
        let value = try CBORParser().parse(body)
        let map = try #require(layout == .manyKeysLargeBody ? value.arrayValue?.last : value)
        #expect(map.mapEntries?.count == (layout == .small ? 2 : 20), "\(keys) \(layout)")
    }

    /// A map of 1,000 text keys and 1,000 integer keys, then a repeat of one of each: both are found, far apart.
    @Test(arguments: [false, true])
    func duplicatesInLargeMaps(integerKey: Bool) throws {
        var body = Self.head(5, 2001)
        for index in 0..<1000 {
            body += Self.text(Array("key \(index)".utf8)) + [0x00]
            body += Self.head(0, UInt64(index + 1_000_000)) + [0x00]
        }
        let offset = body.count
        body += integerKey ? [0x1A, 0x00, 0x0F, 0x42, 0x40 + 7] : Self.text(Array("key 7".utf8))
        body += [0x01]
        let error = #expect(throws: SerializationError.self) { try CBORParser().parse(Data(body)) }
        #expect(error?.offset == offset)
        let readError = #expect(throws: SerializationError.self) { try CBORParser().read(Data(body)) }
        #expect(readError?.offset == offset)
        let value = try CBORParser(options: CBORParsingOptions(duplicateKeys: .lastWins)).parse(Data(body))
        let item = try CBORParser(options: CBORParsingOptions(duplicateKeys: .lastWins)).read(Data(body))
        #expect(item.value == value)
        #expect(item.count == 2000)
        let entries = try #require(value.mapEntries)
        #expect(entries.count == 2000)
        #expect(entries[integerKey ? 15 : 14].value == .unsignedInteger(1))
        #expect(entries[integerKey ? 14 : 15].value == .unsignedInteger(0))
    }

    /// The fast hash of a 16-byte text key, as the reader computes it (two little-endian words, folded). If the
    /// reader's hash changes, these keys stop colliding and the test below still passes, but no longer tests the
    /// fallback.
    static func fastHash(_ first: UInt64, _ second: UInt64, count: UInt64) -> UInt64 {
        var hash = (first ^ 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        hash = (hash ^ second ^ count) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 29)
    }

    /// 300 array keys that agree in their first 100 elements (past what the fast hash of a non-text key visits, so
    /// they all collide) and differ in the last: the map switches to the seeded hasher, keeps every key, and still
    /// finds a repeated one; with `lastWins`, the repeat's value replaces the first occurrence's.
    @Test func arrayKeysSharingAPrefixStillFindDuplicates() throws {
        func key(_ index: Int) -> [UInt8] {
            Self.head(4, 101) + Array(repeating: 0, count: 100) + Self.head(0, UInt64(index))
        }
        var body = Self.head(5, 301)
        for index in 0..<300 { body += key(index) + [0x00] }
        let offset = body.count
        body += key(157) + [0x01]
        let error = #expect(throws: SerializationError.self) { try CBORParser().parse(Data(body)) }
        #expect(error?.offset == offset)
        let readError = #expect(throws: SerializationError.self) { try CBORParser().read(Data(body)) }
        #expect(readError?.offset == offset)
        let value = try CBORParser(options: CBORParsingOptions(duplicateKeys: .lastWins)).parse(Data(body))
        let entries = try #require(value.mapEntries)
        #expect(entries.count == 300)
        #expect(entries[157].value == .unsignedInteger(1))
        #expect(entries.filter { $0.value == .unsignedInteger(1) }.count == 1)
    }

    /// 3,000 distinct ASCII keys of 16 bytes with the same fast hash: the map switches to the seeded hasher, keeps
    /// every key, and still finds a repeated one.
    @Test func craftedCollisionsStillFindDuplicates() throws {
        var keys: [[UInt8]] = []
        var candidate: UInt64 = 0
        while keys.count < 3000 {
            candidate += 1
            // The first word: "k" and seven decimal digits (ASCII).
            var first: [UInt8] = Array("k".utf8) + Array(String(format: "%07llu", candidate).utf8)
            first = Array(first.prefix(8))
            let firstWord = first.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            var mixed = (firstWord ^ 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
            mixed ^= mixed >> 31
            // The second word that cancels the first: every key then folds to the same value.
            let secondWord = mixed ^ 16
            let second = (0..<8).map { UInt8(truncatingIfNeeded: secondWord >> (8 * UInt64($0))) }
            guard second.allSatisfy({ $0 < 0x80 }) else { continue }
            keys.append(first + second)
        }
        let hashes = Set(
            keys.map { key in
                let words = [key[0..<8], key[8..<16]].map { half in
                    half.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
                }
                return Self.fastHash(words[0], words[1], count: 16)
            })
        #expect(hashes.count == 1)
        var body = Self.head(5, 3001)
        for (index, key) in keys.enumerated() { body += Self.text(key) + Self.head(0, UInt64(index)) }
        let offset = body.count
        body += Self.text(keys[1234]) + [0x00]
        let error = #expect(throws: SerializationError.self) { try CBORParser().parse(Data(body)) }
        #expect(error?.offset == offset)
        // The tape reader's hash set sees 3,001 equal hashes, gives up probing, sorts, and checks key by key.
        let readError = #expect(throws: SerializationError.self) { try CBORParser().read(Data(body)) }
        #expect(readError?.offset == offset)
        let value = try CBORParser(options: CBORParsingOptions(duplicateKeys: .lastWins)).parse(Data(body))
        #expect(try CBORParser(options: CBORParsingOptions(duplicateKeys: .lastWins)).read(Data(body)).value == value)
        let distinct = Data(Self.head(5, 3000) + body[Self.head(5, 3001).count..<offset])
        #expect(try CBORParser().read(distinct).count == 3000)
        let entries = try #require(value.mapEntries)
        #expect(entries.count == 3000)
        #expect(entries[1234].value == .unsignedInteger(0))
        #expect(entries[1235].key == .text(String(decoding: keys[1235], as: UTF8.self)))
    }

    /// Invalid UTF-8 sequences (a stray continuation byte, a truncated sequence, a surrogate, an overlong form,
    /// above U+10FFFF, 0xFF).
    static let invalidSequences = ["80", "c3", "e282", "eda080", "c0af", "f4908080", "ff", "f0 9f 98"]

    /// Invalid UTF-8 after an ASCII prefix of 0 to 40 bytes, in a value and in a key, in small and large bodies:
    /// the error is at the text's head.
    @Test(arguments: invalidSequences, [false, true])
    func invalidUTF8AfterAnASCIIPrefix(sequence: String, largeBody: Bool) throws {
        let bad = Array(CBORTestSupport.hex(sequence))
        for prefix in 0...40 {
            for suffix in [0, 3] {
                let bytes = [UInt8](repeating: 0x61, count: prefix) + bad + [UInt8](repeating: 0x7A, count: suffix)
                for asKey in [false, true] {
                    var body: [UInt8] = []
                    if largeBody { body += [0x82] + Self.head(2, 5000) + [UInt8](repeating: 0, count: 5000) }
                    body += [0xA1]
                    let offset = asKey ? body.count : body.count + 2
                    body += asKey ? Self.text(bytes) + [0x00] : [0x61, 0x6B] + Self.text(bytes)
                    let error = #expect(throws: SerializationError.self) { try CBORParser().parse(Data(body)) }
                    #expect(error?.code == .invalidBody)
                    #expect(
                        error?.offset == offset, "\(sequence) after \(prefix) bytes, key \(asKey), large \(largeBody)")
                }
            }
        }
    }

    /// Valid texts of 0 to 40 bytes, ASCII or not, each twice and next to texts that differ in one byte, in a body
    /// large enough for the text cache: each decodes to itself.
    @Test func repeatedTextsDecodeToThemselves() throws {
        var texts: [String] = []
        for length in 0...40 {
            let ascii = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            texts.append(ascii)
            if length > 0 { texts.append(String(ascii.dropLast()) + "!") }
            texts.append(ascii + "é")
            texts.append("€" + ascii + "😀")
        }
        var body = Self.head(4, UInt64(texts.count * 2 + 1))
        body += Self.head(2, 5000) + [UInt8](repeating: 0, count: 5000)
        for text in texts + texts.reversed() { body += Self.text(Array(text.utf8)) }
        let value = try CBORParser().parse(Data(body))
        let decoded = try #require(value.arrayValue).dropFirst().map { $0.stringValue }
        #expect(decoded == (texts + texts.reversed()).map { Optional($0) })
    }

    /// Unsigned integers 0-300 (heads of one, two and three bytes) in a large body decode to themselves.
    @Test func smallIntegersInALargeBody() throws {
        var body = Self.head(4, 302) + Self.head(2, 5000) + [UInt8](repeating: 0, count: 5000)
        for integer in 0...300 { body += Self.head(0, UInt64(integer)) }
        let value = try CBORParser().parse(Data(body))
        let integers = try #require(value.arrayValue).dropFirst().map { $0.uint64Value }
        #expect(integers == (0...300).map { Optional(UInt64($0)) })
    }
}

/// Values 10,000 levels deep (arrays, maps, tags, indefinite arrays, and maps whose keys are arrays holding the
/// next map): they decode at a raised limit, compare equal to themselves and unequal to a copy that differs at the
/// bottom, hash alike, and are released, all on a test thread's stack.
@Suite struct DeepValueTests {
    static let depth = 10_000

    /// Openers (each `levels` deep) around the leaf, up to `depth` levels, each followed at the end by `closer`.
    @Test(arguments: [
        ("81", "", 1), ("a16161", "", 1), ("c6", "", 1), ("9f", "ff", 1),
        // A map whose key is an array holding the next map; each map's value (0) follows its key.
        ("a181", "00", 2),
    ])
    func deepValuesCompareHashAndRelease(opener: String, closer: String, levels: Int) throws {
        let parser = CBORParser(options: CBORParsingOptions(maxDepth: Self.depth))
        let count = (Self.depth - 1) / levels
        func body(leaf: UInt8) -> Data {
            var bytes: [UInt8] = []
            for _ in 0..<count { bytes += CBORTestSupport.hex(opener) }
            bytes.append(leaf)
            for _ in 0..<count { bytes += CBORTestSupport.hex(closer) }
            return Data(bytes)
        }
        let first = try parser.parse(body(leaf: 0x01))
        let again = try parser.parse(body(leaf: 0x01))
        let different = try parser.parse(body(leaf: 0x02))
        #expect(first == again)
        #expect(first != different)
        #expect(first.hashValue == again.hashValue)
        #expect(Set([first, again, different]).count == 2)
    }
}
