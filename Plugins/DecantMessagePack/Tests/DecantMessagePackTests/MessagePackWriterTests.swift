import Decant
import DecantConformance
import DecantMessagePack
import Foundation
import Testing

/// ``MessagePackWriter``, ``MessagePackEncoder``, ``MessagePackBodyEncoder`` and the inverse of the canonical form.
/// Expected bytes come from the msgpack-test-suite corpus and from Python's `msgpack` 1.2 (`msgpack.packb(x,
/// use_bin_type=True)`), as the comments say.
@Suite struct MessagePackWriterTests {
    static func hexString(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func write(_ value: MessagePackValue) throws -> String { hexString(try MessagePackWriter().write(value)) }

    /// Every encoding of every msgpack-test-suite case decodes to a value that is written as one of the case's
    /// listed encodings.
    @Test(.enabled(if: MessagePackCorpusTests.corpusAvailable)) func corpusReencodesToAListedForm() throws {
        let url = try #require(MessagePackTestSupport.suiteFile)
        let suite = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var cases = 0
        var encodings = 0
        for (file, entries) in suite.sorted(by: { $0.key < $1.key }) {
            for entry in try #require(entries as? [[String: Any]]) {
                cases += 1
                let listed = try #require(entry["msgpack"] as? [String]).map {
                    $0.replacingOccurrences(of: "-", with: "")
                }
                for encoding in listed {
                    encodings += 1
                    let value = try MessagePackParser().parse(Data(MessagePackTestSupport.hex(encoding)))
                    let written = try Self.write(value)
                    #expect(listed.contains(written), "\(file): \(encoding) was written as \(written)")
                }
            }
        }
        #expect(cases == 85)
        #expect(encodings == 233)
    }

    /// `msgpack.packb(n)`: fixints, then the smallest uint family for non-negative values and int family for negative.
    @Test(arguments: [
        ("0", "00"), ("127", "7f"), ("128", "cc80"), ("255", "ccff"), ("256", "cd0100"), ("65535", "cdffff"),
        ("65536", "ce00010000"), ("4294967295", "ceffffffff"), ("4294967296", "cf0000000100000000"),
        ("9223372036854775807", "cf7fffffffffffffff"), ("9223372036854775808", "cf8000000000000000"),
        ("18446744073709551615", "cfffffffffffffffff"), ("-1", "ff"), ("-32", "e0"), ("-33", "d0df"), ("-128", "d080"),
        ("-129", "d1ff7f"), ("-32768", "d18000"), ("-32769", "d2ffff7fff"), ("-2147483648", "d280000000"),
        ("-2147483649", "d3ffffffff7fffffff"), ("-9223372036854775808", "d38000000000000000"),
    ])
    func smallestInteger(text: String, hex: String) throws {
        let value = try #require(Int64(text).map(MessagePackValue.int) ?? UInt64(text).map(MessagePackValue.uint))
        #expect(try Self.write(value) == hex)
    }

    /// The heads of `msgpack.packb` for strings, binary, arrays and maps at each size boundary.
    @Test func lengthsTakeTheSmallestHead() throws {
        for (count, string, binary) in [
            (0, "a0", "c400"), (31, "bf", "c41f"), (32, "d920", "c420"), (255, "d9ff", "c4ff"),
            (256, "da0100", "c50100"),
            (65535, "daffff", "c5ffff"), (65536, "db00010000", "c600010000"),
        ] {
            #expect(try Self.write(.string(String(repeating: "a", count: count))).hasPrefix(string))
            #expect(try Self.write(.binary(Array(repeating: 0x61, count: count))).hasPrefix(binary))
        }
        for (count, array, map) in [
            (15, "9fc0", "8f00c0"), (16, "dc0010c0", "de001000c0"), (65535, "dcffffc0", "deffff00c0"),
            (65536, "dd00010000c0", "df0001000000c0"),
        ] {
            #expect(try Self.write(.array(Array(repeating: .nil, count: count))).hasPrefix(array))
            let entries = (0..<count).map { MessagePackValue.Entry(.int(Int64($0)), .nil) }
            #expect(try Self.write(.map(entries)).hasPrefix(map))
        }
    }

    /// Floats keep their width: `packb(1.5)` and `packb(1.5, use_single_float=True)`.
    @Test func floatsKeepTheirWidth() throws {
        #expect(try Self.write(.float64(1.5)) == "cb3ff8000000000000")
        #expect(try Self.write(.float32(1.5)) == "ca3fc00000")
    }

    /// `packb(Timestamp(s, ns))`: timestamp 32, 64 and 96, the smallest that holds the value.
    @Test(arguments: [
        (Int64(0), UInt32(0), "d6ff00000000"), (4_294_967_295, 0, "d6ffffffffff"),
        (4_294_967_296, 0, "d7ff0000000100000000"), (1, 1, "d7ff0000000400000001"),
        (17_179_869_183, 999_999_999, "d7ffee6b27ffffffffff"), (17_179_869_184, 0, "c70cff000000000000000400000000"),
        (-1, 0, "c70cff00000000ffffffffffffffff"), (-1, 999_999_999, "c70cff3b9ac9ffffffffffffffffff"),
        (-62_167_219_200, 0, "c70cff00000000fffffff1868b8400"),
    ])
    func timestamps(seconds: Int64, nanoseconds: UInt32, hex: String) throws {
        #expect(try Self.write(.timestamp(seconds: seconds, nanoseconds: nanoseconds)) == hex)
    }

    /// `packb(ExtType(5, b"x" * n))`: fixext for 1, 2, 4, 8 and 16 bytes, else ext 8, 16, 32.
    @Test(arguments: [
        (0, "c70005"), (1, "d40578"), (2, "d5057878"), (3, "c70305787878"), (4, "d60578787878"), (8, "d7057878787878"),
        (16, "d8057878787878"), (17, "c7110578787878"), (256, "c8010005787878"), (65536, "c9000100000578"),
    ])
    func extensions(count: Int, prefix: String) throws {
        #expect(try Self.write(.ext(type: 5, data: Array(repeating: 0x78, count: count))).hasPrefix(prefix))
    }

    /// What MessagePack cannot hold is `encodingFailed`, with the path.
    @Test func invalidTimestampFails() throws {
        let value = MessagePackValue.map([.init(.string("at"), .timestamp(seconds: 0, nanoseconds: 1_000_000_000))])
        let error = #expect(throws: SerializationError.self) { try MessagePackWriter().write(value) }
        #expect(error?.code == .encodingFailed)
        #expect(error?.codingPath == ["at"])
    }

    /// Values 10,000 levels deep are written without recursion.
    @Test func deepValues() throws {
        var value = MessagePackValue.nil
        for index in 0..<10_000 { value = index.isMultiple(of: 2) ? .array([value]) : .map([.init(value, .nil)]) }
        let bytes = try MessagePackWriter().write(value)
        #expect(bytes.count == 10_000 + 1 + 5_000)
        #expect(try MessagePackParser(options: MessagePackParsingOptions(maxDepth: 10_001)).parse(bytes) == value)
    }

    struct Record: Codable, Equatable {
        var id = 7
        var name = "Ada"
        var scores = [1.5, 0.1]
        var active = true
        var data = Data([1, 2])
        var created = Date(timeIntervalSince1970: 1_363_896_240)
        var updated = Date(timeIntervalSince1970: 1_363_896_240.5)
        var big = UInt64.max
        var neg = Int64.min
        var nothing: Int?
        var f = 1.5

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(scores, forKey: .scores)
            try container.encode(active, forKey: .active)
            try container.encode(data, forKey: .data)
            try container.encode(created, forKey: .created)
            try container.encode(updated, forKey: .updated)
            try container.encode(big, forKey: .big)
            try container.encode(neg, forKey: .neg)
            try container.encode(nothing, forKey: .nothing)
            try container.encode(f, forKey: .f)
        }
    }

    /// `packb` of the same dict, dates as `Timestamp`s, `Data` as bytes; a `Float` is a float 32
    /// (`packb(1.5, use_single_float=True)`).
    @Test func encoderWritesLikePythonMsgpack() throws {
        let bytes = try MessagePackEncoder().encode(Record())
        #expect(
            Self.hexString(bytes)
                == "8ba2696407a46e616d65a3416461a673636f72657392cb3ff8000000000000cb3fb999999999999aa6616374697665c3a4"
                + "64617461c4020102a763726561746564d6ff514b67b0a775706461746564d7ff77359400514b67b0a3626967cfffffff"
                + "ffffffffffa36e6567d38000000000000000a76e6f7468696e67c0a166cb3ff8000000000000")
        #expect(try MessagePackDecoder().decode(Record.self, from: bytes) == Record())
        #expect(Self.hexString(try MessagePackEncoder().encode(Float(1.5))) == "ca3fc00000")
        let base64 = MessagePackEncoder(dataEncodingStrategy: .base64)
        #expect(try base64.encodeValue(Data([0xFF, 0])) == .string("/wA="))
        let snake = MessagePackEncoder(options: EncodingOptions(keyEncodingStrategy: .convertToSnakeCase))
        struct Keys: Encodable { var userID = 1 }
        #expect(try snake.encodeValue(Keys()) == .map([.init(.string("user_id"), .int(1))]))
    }

    indirect enum Chain: Codable, Equatable {
        case end
        case link(Chain)
    }

    /// Nesting past ``MessagePackEncoder/maxDepth`` is `limitExceeded`.
    @Test func depthIsBounded() throws {
        var chain = Chain.end
        for _ in 0..<2_000 { chain = .link(chain) }
        let error = #expect(throws: SerializationError.self) { try MessagePackEncoder().encode(chain) }
        #expect(error?.code == .limitExceeded)
    }

    struct Generated: Codable, Equatable {
        var int: Int
        var uint64: UInt64
        var int8: Int8
        var double: Double
        var float: Float
        var text: String
        var optional: Int16?
        var bytes: Data
        var date: Date
        var table: [String: [UInt32]]
        var children: [Generated]
    }

    /// SplitMix64, so that failures reproduce.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func generate(_ random: inout Seeded, depth: Int) -> Generated {
        let alphabet = Array("aZ09 é水𐅑\u{0}")
        func text() -> String {
            String((0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        var double = Double(bitPattern: random.next())
        if double.isNaN { double = -0.0 }
        var float = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
        if float.isNaN { float = .infinity }
        return Generated(
            int: Int.random(in: .min ... .max, using: &random) >> Int.random(in: 0...63, using: &random),
            uint64: UInt64.random(in: .min ... .max, using: &random) >> UInt64.random(in: 0...63, using: &random),
            int8: Int8.random(in: .min ... .max, using: &random), double: double, float: float, text: text(),
            optional: Bool.random(using: &random) ? Int16.random(in: .min ... .max, using: &random) : nil,
            bytes: Data(
                (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }),
            date: Date(
                timeIntervalSince1970: Double(Int64.random(in: -20_000_000_000...20_000_000_000, using: &random))),
            table: Dictionary(
                uniqueKeysWithValues: (0..<Int.random(in: 0...20, using: &random)).map { index in
                    (
                        "k\(index)",
                        (0..<Int.random(in: 0...3, using: &random)).map { _ in
                            UInt32.random(in: 0...UInt32.max, using: &random)
                        }
                    )
                }),
            children: depth > 2
                ? [] : (0..<Int.random(in: 0...3, using: &random)).map { _ in generate(&random, depth: depth + 1) })
    }

    /// Seeded generated values decode back equal, directly and through a registry.
    @Test(arguments: [1, 7, 99, 2024, 31337]) func generatedValuesRoundTrip(seed: UInt64) throws {
        var random = Seeded(state: seed)
        let registry = SerializerRegistry().installing(.msgpack)
        for _ in 0..<40 {
            let value = Self.generate(&random, depth: 0)
            #expect(try MessagePackDecoder().decode(Generated.self, from: MessagePackEncoder().encode(value)) == value)
            let body = try registry.encode(value, as: "application/msgpack")
            #expect(try registry.decode(Generated.self, from: body.response()) == value)
        }
    }

    /// A registry with `.msgpack` writes a `MessagePackValue` as `application/msgpack` (its first range) and reads
    /// the body back as the value; `Accept` negotiation picks it.
    @Test func registryRoundTripsValues() throws {
        let registry = SerializerRegistry.standard.installing(.msgpack)
        let value = MessagePackValue.map([
            .init(
                .string("a"), .array([.int(-33), .uint(.max), .float32(0.5), .binary([1]), .ext(type: 3, data: [9])])),
            .init(.int(1), .timestamp(seconds: 1, nanoseconds: 1)),
        ])
        let body = try registry.encode(value, accepting: AcceptHeader(parsing: "application/msgpack, */*;q=0.1"))
        #expect(body.serializerID == "msgpack")
        #expect(body.contentType == MediaType(type: "application", subtype: "msgpack"))
        #expect(try registry.serialize(body.response(), as: MessagePackValue.self) == value)
        let other = try registry.encode(value, as: "application/x-msgpack")
        #expect(other.contentType.essence == "application/x-msgpack")
        let factory = MessagePackSerializerFactory()
        let encoder = try #require(factory.makeEncoder(options: factory.defaultOptions))
        #expect(encoder.defaultMediaType == MediaType(type: "application", subtype: "msgpack"))
        struct Opaque: Sendable {}
        #expect(!encoder.canEncode(Opaque()))
    }

    /// `MessagePackValue(conformanceValue: v.conformanceValue())` is `v` for every corpus value, a float 32 coming
    /// back as the float 64 of the same value (the canonical form does not say the width).
    @Test(.enabled(if: MessagePackCorpusTests.corpusAvailable)) func canonicalFormInverts() throws {
        let url = try #require(MessagePackTestSupport.suiteFile)
        let suite = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var count = 0
        for entries in suite.values {
            for entry in try #require(entries as? [[String: Any]]) {
                for encoding in try #require(entry["msgpack"] as? [String]) {
                    let value = try MessagePackParser().parse(Data(MessagePackTestSupport.hex(encoding)))
                    let rebuilt = try MessagePackValue(conformanceValue: value.conformanceValue())
                    if case .float32(let float) = value {
                        #expect(rebuilt == .float64(Double(float)))
                    } else {
                        #expect(rebuilt == value, "\(encoding)")
                    }
                    count += 1
                }
            }
        }
        #expect(count == 233)
        let special = MessagePackValue.array([
            .float64(.nan), .float64(-.infinity), .map([.init(.int(1), .string("x"))]),
            .timestamp(seconds: -5, nanoseconds: 7), .ext(type: -3, data: [1, 2]),
        ])
        let rebuilt = try MessagePackValue(conformanceValue: special.conformanceValue())
        #expect(try MessagePackWriter().write(rebuilt) == MessagePackWriter().write(special))
    }
}
