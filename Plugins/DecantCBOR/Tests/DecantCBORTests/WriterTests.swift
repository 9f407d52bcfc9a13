import Decant
import DecantCBOR
import Foundation
import Testing

/// ``CBORWriter``: preferred serialization and deterministic encoding. Expected bytes come from RFC 8949 Appendix A
/// (the cbor/test-vectors file) and from Python's `cbor2` 6.3 (`cbor2.dumps(value)`, and `cbor2.dumps(value,
/// canonical=True)` for the shortest floats), as the comments say.
@Suite struct WriterTests {
    static let lenient = CBORParser(options: CBORParsingOptions(allowsTwoByteLowSimpleValues: true))

    static func hexString(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    /// Every Appendix A vector marked `"roundtrip": true` re-encodes from its decoded value byte for byte; the others
    /// (indefinite lengths, floats wider than needed) re-encode as `cbor2.dumps(cbor2.loads(bytes))` writes them.
    @Test(.enabled(if: CBORTestSupport.corpora.isAvailable)) func appendixAReencodes() throws {
        let file = try #require(CBORTestSupport.corpora.root)
            .appendingPathComponent("cbor/test-vectors/appendix_a.json")
        let vectors = try #require(try JSONParser().parse(Data(contentsOf: file)).arrayValue)
        // cbor2.dumps(cbor2.loads(bytes)).hex() for each vector whose "roundtrip" is false.
        let preferred: [String: String] = [
            "fa7f800000": "f97c00", "fa7fc00000": "f97e00", "faff800000": "f9fc00", "fb7ff0000000000000": "f97c00",
            "fb7ff8000000000000": "f97e00", "fbfff0000000000000": "f9fc00", "5f42010243030405ff": "450102030405",
            "7f657374726561646d696e67ff": "6973747265616d696e67", "9fff": "80",
            "9f018202039f0405ffff": "8301820203820405", "9f01820203820405ff": "8301820203820405",
            "83018202039f0405ff": "8301820203820405", "83019f0203ff820405": "8301820203820405",
            "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff":
                "98190102030405060708090a0b0c0d0e0f101112131415161718181819",
            "bf61610161629f0203ffff": "a26161016162820203", "826161bf61626163ff": "826161a161626163",
            "bf6346756ef563416d7421ff": "a26346756ef563416d7421",
        ]
        var roundTrips = 0
        var others = 0
        for vector in vectors {
            let hex = try #require(vector["hex"]?.stringValue)
            let value = try Self.lenient.parse(CBORTestSupport.hex(hex))
            let written = Self.hexString(try CBORWriter().write(value))
            if vector["roundtrip"]?.boolValue == true {
                #expect(written == hex, "\(hex)")
                roundTrips += 1
            } else {
                #expect(written == preferred[hex], "\(hex)")
                others += 1
            }
        }
        #expect(roundTrips == 65)
        #expect(others == 17)
    }

    /// `cbor2.dumps(x, canonical=True)`: the shortest float that holds the value (half-precision normals and
    /// subnormals, single precision, double), NaN as `f97e00`, the sign of zero kept.
    @Test(arguments: [
        (0.0, "f90000"), (-0.0, "f98000"), (1.0, "f93c00"), (1.5, "f93e00"), (-4.0, "f9c400"), (65504.0, "f97bff"),
        (65505.0, "fa477fe100"), (65520.0, "fa477ff000"), (100000.0, "fa47c35000"), (0.1, "fb3fb999999999999a"),
        (1.1, "fb3ff199999999999a"), (3.4028234663852886e+38, "fa7f7fffff"),
        (3.4028235677973366e+38, "fb47effffff0000000"), (1e300, "fb7e37e43c8800759c"),
        (5.960464477539063e-08, "f90001"), (6.097555160522461e-05, "f903ff"), (6.103515625e-05, "f90400"),
        (2.9802322387695312e-08, "fa33000000"), (1.7881393432617188e-07, "f90003"),
        (8.940696716308594e-08, "fa33c00000"), (1.401298464324817e-45, "fa00000001"),
        (Double.leastNonzeroMagnitude, "fb0000000000000001"),
        (Double.infinity, "f97c00"), (-Double.infinity, "f9fc00"), (Double.nan, "f97e00"),
        (-Double.nan, "f97e00"), (0.5, "f93800"), (0.333251953125, "f93555"), (16777216.0, "fa4b800000"),
        (16777217.0, "fb4170000010000000"), (-5.960464477539063e-08, "f98001"),
    ])
    func shortestFloat(value: Double, hex: String) throws {
        #expect(Self.hexString(try CBORWriter().write(.float(value))) == hex)
    }

    /// `cbor2.dumps(n)`: the shortest head; bignums (tags 2 and 3) beyond 64 bits.
    @Test(arguments: [
        ("0", "00"), ("23", "17"), ("24", "1818"), ("255", "18ff"), ("256", "190100"), ("65535", "19ffff"),
        ("65536", "1a00010000"), ("4294967295", "1affffffff"), ("4294967296", "1b0000000100000000"),
        ("18446744073709551615", "1bffffffffffffffff"), ("-1", "20"), ("-24", "37"), ("-25", "3818"),
        ("-256", "38ff"), ("-257", "390100"), ("-65536", "39ffff"), ("-65537", "3a00010000"),
        ("-4294967296", "3affffffff"), ("-4294967297", "3b0000000100000000"),
        ("-18446744073709551616", "3bffffffffffffffff"), ("18446744073709551616", "c249010000000000000000"),
        ("-18446744073709551617", "c349010000000000000000"),
        ("1267650600228229401496703205376", "c24d10000000000000000000000000"),
        ("-1267650600228229401496703205376", "c34d0fffffffffffffffffffffffff"),
    ])
    func shortestInteger(text: String, hex: String) throws {
        let value = try CBORValue(conformanceValue: try #require(JSONNumber(text)).jsonValue)
        #expect(value.integerText == text)
        #expect(Self.hexString(try CBORWriter().write(value)) == hex)
    }

    /// A bignum with leading zero bytes, or one that fits 64 bits, is written the preferred way (RFC 8949 §3.4.3).
    @Test func bignumsArePreferred() throws {
        let small = CBORValue.bignum(negative: false, magnitude: [0, 0, 1, 0])
        #expect(Self.hexString(try CBORWriter().write(small)) == "190100")
        let large = CBORValue.bignum(negative: true, magnitude: [0] + [1] + Array(repeating: 0, count: 8))
        #expect(Self.hexString(try CBORWriter().write(large)) == "c349010000000000000000")
    }

    static let mixedKeys: [(CBORValue, Int)] = [
        (.unsignedInteger(100), 0), (.negativeInteger(0), 1), (.text("z"), 2), (.text("aa"), 3), (.bytes(Data([0])), 4),
        (.array([.unsignedInteger(1)]), 5), (.bool(false), 6), (.unsignedInteger(10), 7), (.float(1.5), 8),
    ]

    static var mixedMap: CBORValue {
        .map(mixedKeys.map { CBORValue.MapEntry(key: $0.0, value: .unsignedInteger(UInt64($0.1))) })
    }

    /// Preferred serialization keeps the map's order; deterministic encoding sorts the entries by the bytes of their
    /// keys (RFC 8949 §4.2.1), not length first: `100` (`1864`) before `-1` (`20`), `"z"` before `"aa"`. Expected:
    /// the keys' `cbor2.dumps(k, canonical=True)` sorted by Python's `bytes` order.
    @Test func deterministicSortsKeysBytewise() throws {
        let preferred = try CBORWriter().write(Self.mixedMap)
        #expect(Self.hexString(preferred) == "a91864002001617a0262616103410004810105f4060a07f93e0008")
        let deterministic = try CBORWriter(options: CBORWritingOptions(deterministic: true)).write(Self.mixedMap)
        #expect(Self.hexString(deterministic) == "a90a071864002001410004617a0262616103810105f406f93e0008")
    }

    /// Maps inside maps and arrays are sorted too, and a key that is itself a map is compared in its sorted form.
    /// Expected: `cbor2.dumps(..., canonical=True)` (its length-first order agrees here: equal-length keys).
    @Test func deterministicSortsNestedMaps() throws {
        func map(_ pairs: [(String, CBORValue)]) -> CBORValue {
            .map(pairs.map { CBORValue.MapEntry(key: .text($0.0), value: $0.1) })
        }
        // {"x": {"b": 1, "a": 2}, "a": [{"d": 1, "c": 2}]}
        let value = map([
            ("x", map([("b", .unsignedInteger(1)), ("a", .unsignedInteger(2))])),
            ("a", .array([map([("d", .unsignedInteger(1)), ("c", .unsignedInteger(2))])])),
        ])
        let bytes = try CBORWriter(options: CBORWritingOptions(deterministic: true)).write(value)
        #expect(Self.hexString(bytes) == "a2616181a26163026164016178a2616102616201")
        // {{"b": 1, "a": 2}: 1, {"a": 1}: 2}: the keys compare as a2616102616201 and a1616101.
        let keyed = CBORValue.map([
            .init(key: map([("b", .unsignedInteger(1)), ("a", .unsignedInteger(2))]), value: .unsignedInteger(1)),
            .init(key: map([("a", .unsignedInteger(1))]), value: .unsignedInteger(2)),
        ])
        let sorted = try CBORWriter(options: CBORWritingOptions(deterministic: true)).write(keyed)
        #expect(Self.hexString(sorted) == "a2a161610102a261610261620101")
    }

    /// A map with a repeated key has no deterministic encoding: `encodingFailed`, with the path to the map. Preferred
    /// serialization writes it as it is.
    @Test func deterministicRejectsRepeatedKeys() throws {
        let repeated = CBORValue.map([
            .init(key: .text("a"), value: .unsignedInteger(1)), .init(key: .text("a"), value: .unsignedInteger(2)),
        ])
        let value = CBORValue.array([.null, .map([.init(key: .text("list"), value: repeated)])])
        let error = #expect(throws: SerializationError.self) {
            try CBORWriter(options: CBORWritingOptions(deterministic: true)).write(value)
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.codingPath == ["1", "list"])
        #expect(Self.hexString(try CBORWriter().write(repeated)) == "a2616101616102")
    }

    /// Tags, simple values, byte and text strings as Appendix A writes them, `simple(24)` in its only form.
    @Test func otherItems() throws {
        let value = CBORValue.array([
            .tag(1, .unsignedInteger(1_363_896_240)), .simple(16), .simple(24), .simple(255), .undefined, .null,
            .bytes(Data([1, 2, 3, 4])), .text("水"), .bool(true),
        ])
        #expect(
            Self.hexString(try CBORWriter().write(value))
                == "89c11a514b67b0f0f818f8fff7f64401020304" + "63e6b0b4f5")
    }

    /// Values 10,000 levels deep (arrays, maps with array keys, tags) are written without recursion, and read back.
    @Test(arguments: ["array", "mapKey", "tag"]) func deepValues(kind: String) throws {
        let depth = 10_000
        var value = CBORValue.null
        for _ in 0..<depth {
            switch kind {
            case "array": value = .array([value])
            case "mapKey": value = .map([.init(key: value, value: .null)])
            default: value = .tag(7, value)
            }
        }
        let bytes = try CBORWriter(options: CBORWritingOptions(deterministic: kind == "mapKey")).write(value)
        let opener: [UInt8] = kind == "array" ? [0x81] : kind == "mapKey" ? [0xA1] : [0xC7]
        var expected: [UInt8] = Array(repeating: opener, count: depth).flatMap { $0 } + [0xF6]
        if kind == "mapKey" { expected += Array(repeating: 0xF6, count: depth) }
        #expect(Array(bytes) == expected)
        let parsed = try CBORParser(options: CBORParsingOptions(maxDepth: 10_001)).parse(bytes)
        #expect(parsed == value)
    }
}

extension JSONNumber {
    fileprivate var jsonValue: JSONValue { JSONValue(self) }
}
