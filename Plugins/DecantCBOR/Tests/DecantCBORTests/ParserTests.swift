import Decant
import DecantCBOR
import DecantConformance
import Foundation
import Testing

@Suite struct ParserTests {
    static func parse(_ hex: String, _ options: CBORParsingOptions = CBORParsingOptions()) throws -> CBORValue {
        try CBORParser(options: options).parse(CBORTestSupport.hex(hex))
    }

    /// Bodies that are not well-formed (RFC 8949 §5.3.1, Appendix F), or not valid, each with the offset of the
    /// offending head, worked out by hand.
    @Test(arguments: [
        ("18", 0, "truncated head"),
        ("1b000000", 0, "truncated 8-byte argument"),
        ("6261", 0, "text string runs past the end"),
        ("8301", 0, "array missing elements"),
        ("a16161", 0, "map missing a value"),
        ("9f01", 0, "indefinite array without a break"),
        ("c0", 0, "tag without content"),
        ("1c", 0, "reserved additional information 28"),
        ("821d01", 1, "reserved additional information 29 inside an array"),
        ("fe", 0, "reserved additional information 30 in major type 7"),
        ("1f", 0, "additional information 31 on an unsigned integer"),
        ("3f", 0, "additional information 31 on a negative integer"),
        ("df00", 0, "additional information 31 on a tag"),
        ("ff", 0, "break at the top level"),
        ("8201ff", 2, "break inside a definite-length array"),
        ("bf6161ff", 3, "break after a key without a value"),
        ("5f6161ff", 1, "text chunk inside an indefinite byte string"),
        ("7f4161ff", 1, "byte chunk inside an indefinite text string"),
        ("5f5f4101ffff", 1, "indefinite chunk inside an indefinite byte string"),
        ("7f01ff", 1, "integer inside an indefinite text string"),
        ("62c328", 0, "invalid UTF-8"),
        ("8163eda080", 1, "a surrogate encoded in UTF-8"),
        ("7f61c361a9ff", 1, "a character split across text chunks"),
        ("f818", 0, "two-byte simple value below 32"),
        ("a2616101616102", 4, "duplicate text key"),
        ("a2010201f5", 3, "duplicate integer key"),
        ("0102", 1, "extra bytes after the item"),
    ])
    func malformed(hex: String, offset: Int, what: String) {
        let error = #expect(throws: SerializationError.self, "\(what)") { try Self.parse(hex) }
        #expect(error?.code == .invalidBody, "\(what)")
        #expect(error?.offset == offset, "\(what): \(error?.message ?? "")")
    }

    @Test func emptyBodyIsNotAnItemButAnEmptySequence() throws {
        let error = #expect(throws: SerializationError.self) { try CBORParser().parse(Data()) }
        #expect(error?.code == .invalidBody)
        #expect(try CBORParser().parseSequence(Data()).isEmpty)
        #expect(
            try CBORParser().parseSequence(CBORTestSupport.hex("01 6161 80")) == [
                .unsignedInteger(1), .text("a"), .array([]),
            ])
    }

    /// Half-precision values worked out by hand from IEEE 754 binary16 (RFC 8949 Appendix D).
    @Test(arguments: [
        ("f90000", 0.0), ("f98000", -0.0), ("f93c00", 1.0), ("f93e00", 1.5), ("f97bff", 65504.0),
        ("f90001", 0x1p-24), ("f903ff", 1023 * 0x1p-24), ("f90400", 0x1p-14), ("f9c400", -4.0),
        ("f97c00", Double.infinity), ("f9fc00", -Double.infinity),
    ])
    func halfPrecision(hex: String, expected: Double) throws {
        guard case .float(let value) = try Self.parse(hex) else {
            Issue.record("not a float")
            return
        }
        #expect(value == expected)
        #expect(value.sign == expected.sign)
    }

    @Test func halfPrecisionNaN() throws {
        for hex in ["f97e00", "f97c01", "f9fe00"] {
            guard case .float(let value) = try Self.parse(hex) else {
                Issue.record("not a float")
                continue
            }
            #expect(value.isNaN)
        }
    }

    @Test func bignumsBecomeIntegers() throws {
        #expect(try Self.parse("c249010000000000000000").integerText == "18446744073709551616")
        #expect(try Self.parse("c349010000000000000000").integerText == "-18446744073709551617")
        #expect(try Self.parse("c2420005") == .unsignedInteger(5))
        #expect(try Self.parse("c340") == .negativeInteger(0))
        #expect(try Self.parse("3bffffffffffffffff").integerText == "-18446744073709551616")
        // A bignum whose content is not a byte string stays a tag.
        #expect(try Self.parse("c201") == .tag(2, .unsignedInteger(1)))
    }

    @Test func duplicateKeysLastWins() throws {
        let value = try Self.parse("a3616101616202616103", CBORParsingOptions(duplicateKeys: .lastWins))
        #expect(
            value
                == .map([
                    .init(key: .text("a"), value: .unsignedInteger(3)),
                    .init(key: .text("b"), value: .unsignedInteger(2)),
                ]))
        // 1 and 1.0 are different keys.
        #expect(try Self.parse("a201f5f93c00f4").mapEntries?.count == 2)
    }

    // MARK: - Limits

    /// 100,000 nested arrays fail at the 513th level, where the head is, without recursion.
    @Test(arguments: ["81", "9f", "a101", "c1", "d818"])
    func deepNestingFailsAtTheLimit(opener: String) throws {
        let head = CBORTestSupport.hex(opener)
        var body = Data()
        for _ in 0..<100_000 { body.append(head) }
        body.append(0x80)
        let error = #expect(throws: SerializationError.self) { try CBORParser().parse(body) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.offset == 512 * head.count)
        #expect(error?.message.contains("maxDepth") == true)
    }

    @Test func depthWithinTheLimitDecodes() throws {
        var body = Data(repeating: 0x81, count: 511)
        body.append(0x80)
        var value = try CBORParser().parse(body)
        var depth = 1
        while case .array(let elements) = value, let first = elements.first {
            value = first
            depth += 1
        }
        #expect(depth == 512)
    }

    /// A raised limit: 10,000 levels decode, and the value is compared and released without exhausting the stack.
    @Test func raisedDepthLimit() throws {
        var body = Data(repeating: 0x81, count: 9_999)
        body.append(0x80)
        let options = CBORParsingOptions(maxDepth: 10_000)
        let value = try CBORParser(options: options).parse(body)
        #expect(try CBORParser(options: options).parse(body) == value)
        #expect(value.canonicalJSONText.count == 20_000)
    }

    /// Heads that declare 2^60 (or 2^64 - 1) items or bytes fail at once: nothing is allocated for them.
    @Test(arguments: [
        "9b1000000000000000", "bb1000000000000000", "5b1000000000000000", "7b1000000000000000",
        "9bffffffffffffffff", "bbffffffffffffffff", "5bffffffffffffffff", "9a7fffffff01020304",
        "819b1000000000000000",
    ])
    func hugeDeclaredLengthsFailFast(hex: String) {
        let error = #expect(throws: SerializationError.self) { try Self.parse(hex + "00000000") }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains("truncated") == true)
    }

    @Test func maxItemsCountsDeclaredLengths() throws {
        // An array declaring 20 elements, with the 20 present: more than maxItems 10 before any is read.
        var body = CBORTestSupport.hex("94")
        body.append(Data(repeating: 0x01, count: 20))
        let error = #expect(throws: SerializationError.self) {
            try CBORParser(options: CBORParsingOptions(maxItems: 10)).parse(body)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.offset == 0)
        #expect(error?.message.contains("maxItems") == true)
        // Indefinite-length arrays count their elements as they come.
        var indefinite = CBORTestSupport.hex("9f")
        indefinite.append(Data(repeating: 0x01, count: 20))
        indefinite.append(0xFF)
        let second = #expect(throws: SerializationError.self) {
            try CBORParser(options: CBORParsingOptions(maxItems: 10)).parse(indefinite)
        }
        #expect(second?.code == .limitExceeded)
        #expect(try CBORParser(options: CBORParsingOptions(maxItems: 21)).parse(indefinite).arrayValue?.count == 20)
    }

    /// Large flat documents: a 1,000,000-element array (one more item than the default maxItems, with the array
    /// itself) and a 100,000-entry map (every key checked for duplicates) decode in one pass; the times are printed,
    /// not asserted.
    @Test func largeDocuments() throws {
        var array = CBORTestSupport.hex("9a000f4240")
        for index in 0..<1_000_000 { array.append(UInt8(index % 24)) }
        let clock = ContinuousClock()
        var elements = 0
        let parser = CBORParser(options: CBORParsingOptions(maxItems: 1_000_001))
        let arrayTime = try clock.measure { elements = try parser.parse(array).arrayValue?.count ?? 0 }
        #expect(elements == 1_000_000)
        // {0: 0, 1: 1, ...} with 4-byte keys (0x1a) and values.
        var map = CBORTestSupport.hex("ba000186a0")
        for index in 0..<100_000 {
            for _ in 0..<2 {
                map.append(0x1A)
                withUnsafeBytes(of: UInt32(index).bigEndian) { map.append(contentsOf: $0) }
            }
        }
        var entries = 0
        let mapTime = try clock.measure { entries = try CBORParser().parse(map).mapEntries?.count ?? 0 }
        #expect(entries == 100_000)
        print(
            "cbor large documents: 1M-element array (\(array.count) bytes) in \(arrayTime), 100k-entry map in \(mapTime)"
        )
    }

    /// Random bytes end in a value or an error, never a crash; values have a canonical form that is valid JSON.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomBytes(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: generator.next()) }
        let data = Data(bytes)
        if let items = try? CBORParser().parseSequence(data) {
            _ = try JSONParser().parse(CBORValue.array(items).canonicalJSONText)
        }
        // Every offset as a start: many short documents.
        var decoded = 0
        for start in stride(from: 0, to: 4096, by: 1) {
            if let value = try? CBORParser().parse(data[start..<start + 9]) {
                decoded += 1
                _ = try JSONParser().parse(value.canonicalJSONText)
            }
        }
        #expect(decoded >= 0)
    }
}
