import Decant
import DecantMessagePack
import Foundation
import Testing

/// The reader's fast paths: the ASCII str path and the cache of repeated strs (bodies of 4 KB or more), with
/// integers of every family around them. Every body is encoded by hand here; the replaced texts are Python's
/// `bytes.decode("utf-8", "replace")` of the same bytes.
@Suite struct MessagePackFastPathTests {
    /// A str of `bytes`, in the shortest family.
    static func str(_ bytes: [UInt8]) -> [UInt8] {
        switch bytes.count {
        case 0..<32: return [0xA0 | UInt8(bytes.count)] + bytes
        case 32..<256: return [0xD9, UInt8(bytes.count)] + bytes
        default: return [0xDA, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
        }
    }

    /// A bin 16 of `count` zero bytes: padding that makes a body large enough for the str cache.
    static func padding(_ count: Int) -> [UInt8] {
        [0xC5, UInt8(count >> 8), UInt8(count & 0xFF)] + [UInt8](repeating: 0, count: count)
    }

    /// Invalid UTF-8 sequences, and what Python's `decode("utf-8", "replace")` makes of each.
    static let invalidSequences: [(String, String)] = [
        ("80", "\u{FFFD}"), ("c3", "\u{FFFD}"), ("e282", "\u{FFFD}"), ("eda080", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ("c0af", "\u{FFFD}\u{FFFD}"), ("f4908080", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"), ("ff", "\u{FFFD}"),
        ("f09f98", "\u{FFFD}"),
    ]

    /// Invalid UTF-8 after an ASCII prefix of 0 to 40 bytes, in a value and in a key, in small and large bodies:
    /// `invalidEncoding` at the first bad byte, or the replaced text with
    /// ``MessagePackParsingOptions/replacesInvalidUTF8``.
    @Test(arguments: invalidSequences, [false, true])
    func invalidUTF8AfterAnASCIIPrefix(sequence: (String, String), largeBody: Bool) throws {
        let bad = MessagePackTestSupport.hex(sequence.0)
        let replacing = MessagePackParser(options: MessagePackParsingOptions(replacesInvalidUTF8: true))
        for prefix in 0...40 {
            for suffix in [0, 3] {
                let bytes = [UInt8](repeating: 0x61, count: prefix) + bad + [UInt8](repeating: 0x7A, count: suffix)
                let encoded = Self.str(bytes)
                for asKey in [false, true] {
                    var body: [UInt8] = largeBody ? [0x92] + Self.padding(5000) : []
                    body += [0x81]
                    if !asKey { body += [0xA1, 0x6B] }
                    // The bad byte: after the str's head and the ASCII prefix.
                    let offset = body.count + (encoded.count - bytes.count) + prefix
                    body += encoded
                    if asKey { body += [0xC0] }
                    let what = "\(sequence.0) after \(prefix) bytes, key \(asKey), large \(largeBody)"
                    let error = #expect(throws: SerializationError.self, "\(what)") {
                        try MessagePackParser().parse(Data(body))
                    }
                    #expect(error?.code == .invalidEncoding, "\(what)")
                    #expect(error?.offset == offset, "\(what): \(error?.message ?? "")")
                    let expected =
                        String(repeating: "a", count: prefix) + sequence.1 + String(repeating: "z", count: suffix)
                    guard !largeBody else { continue }
                    let value = try replacing.parse(Data(body))
                    guard case .map(let entries) = value, let entry = entries.first else {
                        Issue.record("not a map: \(what)")
                        continue
                    }
                    #expect((asKey ? entry.key : entry.value) == .string(expected), "\(what)")
                }
            }
        }
    }

    /// Valid strs of 0 to 40 bytes, ASCII or not, each twice and next to strs that differ in one byte, in a body
    /// large enough for the str cache, as values and as keys: each decodes to itself.
    @Test func repeatedStrsDecodeToThemselves() throws {
        var texts: [String] = []
        for length in 0...40 {
            let ascii = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            texts.append(ascii)
            if length > 0 { texts.append(String(ascii.dropLast()) + "!") }
            texts.append(ascii + "é")
            texts.append("€" + ascii + "😀")
        }
        let all = texts + texts.reversed()
        var body: [UInt8] = [0xDC, UInt8((all.count + 2) >> 8), UInt8((all.count + 2) & 0xFF)] + Self.padding(5000)
        for text in all { body += Self.str(Array(text.utf8)) }
        // The same strs as the keys of one map (duplicates kept), each with the value nil.
        body += [0xDE, UInt8(all.count >> 8), UInt8(all.count & 0xFF)]
        for text in all { body += Self.str(Array(text.utf8)) + [0xC0] }
        guard case .array(let elements) = try MessagePackParser().parse(Data(body)) else {
            Issue.record("not an array")
            return
        }
        #expect(elements.dropFirst().dropLast().map { $0.stringValue } == all.map { Optional($0) })
        guard case .map(let entries) = elements.last else {
            Issue.record("not a map")
            return
        }
        #expect(entries.map { $0.key.stringValue } == all.map { Optional($0) })
    }

    /// Integers from -40 to 300 in every family that holds them, with booleans, nil and empty containers, in a
    /// body large enough for the str cache: each decodes to itself.
    @Test func integersAndConstantsInALargeBody() throws {
        var encodings: [([UInt8], MessagePackValue)] = []
        for integer in -40...300 {
            let value = MessagePackValue.int(Int64(integer))
            if integer >= -32 && integer < 128 { encodings.append(([UInt8(bitPattern: Int8(integer))], value)) }
            if integer >= 0 && integer < 256 { encodings.append(([0xCC, UInt8(integer)], value)) }
            if integer >= 0 { encodings.append(([0xCD, UInt8(integer >> 8), UInt8(integer & 0xFF)], value)) }
            if integer >= -128 && integer < 128 { encodings.append(([0xD0, UInt8(bitPattern: Int8(integer))], value)) }
            let bits = UInt16(bitPattern: Int16(integer))
            encodings.append(([0xD1, UInt8(bits >> 8), UInt8(bits & 0xFF)], value))
            let wide = UInt64(bitPattern: Int64(integer))
            encodings.append(([0xD3] + (0..<8).map { UInt8(truncatingIfNeeded: wide >> (56 - 8 * UInt64($0))) }, value))
        }
        encodings += [
            ([0xC2], .bool(false)), ([0xC3], .bool(true)), ([0xC0], .nil), ([0x90], .array([])), ([0x80], .map([])),
            ([0xC2], .bool(false)), ([0x90], .array([])), ([0x80], .map([])),
        ]
        var body: [UInt8] = [0xDC, UInt8((encodings.count + 1) >> 8), UInt8((encodings.count + 1) & 0xFF)]
        body += Self.padding(5000)
        for (bytes, _) in encodings { body += bytes }
        guard case .array(let elements) = try MessagePackParser().parse(Data(body)) else {
            Issue.record("not an array")
            return
        }
        #expect(Array(elements.dropFirst()) == encodings.map { $0.1 })
    }
}

/// Values 10,000 levels deep (arrays, maps, and maps whose keys are arrays holding the next map): they decode at a
/// raised limit, compare equal to themselves and unequal to a copy that differs at the bottom, hash alike, and are
/// released, all on a test thread's stack.
@Suite struct MessagePackDeepValueTests {
    static let depth = 10_000

    /// Openers (each `levels` deep) around the leaf, up to `depth` levels, each followed at the end by `closer`.
    @Test(arguments: [
        ("91", "", 1), ("81 a1 61", "", 1),
        // A map whose key is an array holding the next map; each map's value (nil) follows its key.
        ("81 91", "c0", 2),
    ])
    func deepValuesCompareHashAndRelease(opener: String, closer: String, levels: Int) throws {
        let parser = MessagePackParser(options: MessagePackParsingOptions(maxDepth: Self.depth))
        let count = (Self.depth - 1) / levels
        func body(leaf: UInt8) -> Data {
            var bytes: [UInt8] = []
            for _ in 0..<count { bytes += MessagePackTestSupport.hex(opener) }
            bytes.append(leaf)
            for _ in 0..<count { bytes += MessagePackTestSupport.hex(closer) }
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
