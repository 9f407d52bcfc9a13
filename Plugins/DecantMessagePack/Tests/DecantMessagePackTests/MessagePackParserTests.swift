import Decant
import DecantConformance
import DecantMessagePack
import Foundation
import Testing

@Suite struct MessagePackParserTests {
    static func parse(
        _ hex: String, _ options: MessagePackParsingOptions = MessagePackParsingOptions()
    ) throws
        -> MessagePackValue
    {
        try MessagePackParser(options: options).parse(Data(MessagePackTestSupport.hex(hex)))
    }

    static func failure(
        _ hex: String, _ options: MessagePackParsingOptions = MessagePackParsingOptions()
    ) throws
        -> SerializationError
    {
        try #require(throws: SerializationError.self) { try parse(hex, options) }
    }

    /// Hand-written encodings (spec.md's format table) and the values they must give.
    static let cases: [(String, MessagePackValue)] = [
        ("7f", .int(127)), ("e0", .int(-32)), ("cc ff", .int(255)), ("cd ff ff", .int(65535)),
        ("ce ff ff ff ff", .int(4_294_967_295)), ("cf ff ff ff ff ff ff ff ff", .uint(UInt64.max)),
        ("d0 80", .int(-128)), ("d1 80 00", .int(-32768)), ("d2 80 00 00 00", .int(-2_147_483_648)),
        ("d3 80 00 00 00 00 00 00 00", .int(Int64.min)), ("c0", .nil), ("c2", .bool(false)), ("c3", .bool(true)),
        ("ca 3f c0 00 00", .float32(1.5)), ("cb 3f f8 00 00 00 00 00 00", .float64(1.5)),
        ("a3 61 62 63", .string("abc")), ("c4 02 01 02", .binary([1, 2])),
        ("92 01 a1 78", .array([.int(1), .string("x")])),
        ("81 01 c0", .map([MessagePackValue.Entry(.int(1), .nil)])), ("d4 05 aa", .ext(type: 5, data: [0xaa])),
        ("c9 00 00 00 01 80 07", .ext(type: -128, data: [7])),
        ("d6 ff 00 00 00 01", .timestamp(seconds: 1, nanoseconds: 0)),
        (
            "c7 0c ff 00 00 00 05 ff ff ff ff ff ff ff ff",
            .timestamp(seconds: -1, nanoseconds: 5)
        ),
    ]

    @Test(arguments: cases) func decodesEachFormat(hex: String, expected: MessagePackValue) throws {
        #expect(try Self.parse(hex) == expected)
    }

    @Test(arguments: [
        ("d9 05 61 62", 0), ("92 01", 0), ("92 01 cd 01", 2), ("cd 01", 0), ("92 01 d9 05 61", 2), ("", 0),
        ("c7 05 01 00", 0),
    ])
    func truncatedInputIsAnErrorWithTheValuesOffset(hex: String, offset: Int) throws {
        let error = try Self.failure(hex)
        #expect(error.code == .invalidBody)
        #expect(error.offset == offset)
    }

    @Test func byteC1IsNeverUsed() throws {
        let error = try Self.failure("93 01 02 c1")
        #expect(error.code == .invalidBody)
        #expect(error.offset == 3)
        #expect(error.message.contains("0xc1"))
    }

    @Test func timestampNanosecondsAbove999999999AreAnError() throws {
        // 64-bit form: nanoseconds 1,000,000,000 in the upper 30 bits.
        let bits = UInt64(1_000_000_000) << 34
        let hex = "91 d7 ff " + (0..<8).map { String(format: "%02x", (bits >> (56 - 8 * UInt64($0))) & 0xff) }.joined()
        let error = try Self.failure(hex)
        #expect(error.code == .invalidBody)
        #expect(error.offset == 1)
        #expect(error.message.contains("nanoseconds"))
        let ninetySix = try Self.failure("c7 0c ff 3b 9a ca 00 00 00 00 00 00 00 00 00")
        #expect(ninetySix.offset == 0)
        #expect(try Self.failure("d5 ff 00 00").code == .invalidBody)  // a 2-byte timestamp does not exist
    }

    @Test func trailingBytesAreAnErrorUnlessAStreamIsAllowed() throws {
        let error = try Self.failure("01 02 03")
        #expect(error.code == .invalidBody)
        #expect(error.offset == 1)
        #expect(error.message.contains("allowsMultipleValues"))
        let stream = try Self.parse("01 a1 61 c0", MessagePackParsingOptions(allowsMultipleValues: true))
        #expect(stream == .array([.int(1), .string("a"), .nil]))
    }

    @Test func invalidUTF8IsAnErrorOrReplaced() throws {
        let error = try Self.failure("92 01 a3 61 ff 62")
        #expect(error.code == .invalidEncoding)
        #expect(error.offset == 4)
        #expect(error.message.contains("replaceInvalidUTF8"))
        let replaced = try Self.parse("a3 61 ff 62", MessagePackParsingOptions(replacesInvalidUTF8: true))
        #expect(replaced == .string("a\u{FFFD}b"))
    }

    @Test func nestingBeyondMaxDepthIsALimitError() throws {
        let deep = Data(repeating: 0x91, count: 100_000) + Data([0xc0])
        let error = try #require(throws: SerializationError.self) { try MessagePackParser().parse(deep) }
        #expect(error.code == .limitExceeded)
        #expect(error.offset == 512)
        #expect(error.message.contains("maxDepth"))
        let atLimit = Data(repeating: 0x91, count: 512) + Data([0xc0])
        #expect(throws: Never.self) { try MessagePackParser().parse(atLimit) }
        let small = try Self.failure("91 91 91 c0", MessagePackParsingOptions(maxDepth: 2))
        #expect(small.code == .limitExceeded)
    }

    @Test(arguments: [
        "dd ff ff ff ff 01", "df ff ff ff ff 01 01", "db ff ff ff ff 61", "c6 ff ff ff ff", "c9 ff ff ff ff 01",
    ])
    func hugeDeclaredLengthsFailAtOnce(hex: String) throws {
        let error = try Self.failure(hex)
        #expect(error.code == .invalidBody)
        #expect(error.offset == 0)
        #expect(error.message.contains("4294967295"))
    }

    @Test func bodyLargerThanMaxBytesIsALimitError() throws {
        let error = try Self.failure("a3 61 62 63", MessagePackParsingOptions(maxBytes: 3))
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxBytes"))
    }

    @Test func randomBytesEndInAValueOrAnError() throws {
        var generator = SplitMix64(seed: 20_261_125)
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        var values = 0
        var errors = 0
        // The whole megabyte, then 4,096 slices of 256 bytes.
        for start in stride(from: -256, to: bytes.count, by: 256) {
            let slice = start < 0 ? Data(bytes) : Data(bytes[start..<(start + 256)])
            do {
                let value = try MessagePackParser().parse(slice)
                _ = try value.conformanceValue()
                values += 1
            } catch let error as SerializationError {
                #expect([.invalidBody, .invalidEncoding, .limitExceeded].contains(error.code))
                #expect(error.offset != nil)
                errors += 1
            }
        }
        #expect(values + errors == 4097)
    }

    @Test func canonicalFormFollowsTheContract() throws {
        let value = MessagePackValue.array([
            .binary([0, 255]), .map([MessagePackValue.Entry(.int(1), .string("a"))]), .ext(type: 5, data: [1]),
            .timestamp(seconds: 1, nanoseconds: 0), .float64(.nan), .float32(.infinity), .float64(-.infinity),
            .map([MessagePackValue.Entry(.string("b"), .uint(UInt64.max))]),
        ])
        let text = String(decoding: try value.conformanceValue().jsonData(), as: UTF8.self)
        let expected =
            #"[{"$bytes":"AP8="},{"$map":[[1,"a"]]},{"$ext":5,"data":"AQ=="},"#
            + #"{"$timestamp":{"seconds":1,"nanoseconds":0}},{"$float":"NaN"},{"$float":"Infinity"},"#
            + #"{"$float":"-Infinity"},{"b":18446744073709551615}]"#
        #expect(text == expected)
    }
}
