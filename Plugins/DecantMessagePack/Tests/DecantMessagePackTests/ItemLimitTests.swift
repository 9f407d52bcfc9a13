import Decant
import DecantMessagePack
import Foundation
import Testing

/// `maxItems`: the values a body declares are counted as their containers' heads are read, so a body of millions of
/// one-byte values (issue 34: 30 MB of empty arrays, 60 MB of nils) fails at its head instead of building a tree.
@Suite struct MessagePackItemLimitTests {
    /// An array 32 (0xdd) of `count` copies of `element`.
    static func array32(of element: UInt8, count: Int) -> Data {
        var body = Data([0xdd, UInt8(count >> 24 & 0xff), UInt8(count >> 16 & 0xff), UInt8(count >> 8 & 0xff)])
        body.append(UInt8(count & 0xff))
        body.append(Data(repeating: element, count: count))
        return body
    }

    static func failure(_ body: Data, _ options: MessagePackParsingOptions) throws -> SerializationError {
        try #require(throws: SerializationError.self) { try MessagePackParser(options: options).parse(body) }
    }

    /// The issue's bodies, through the registry as `decant decode` takes them: refused at the head, naming the option.
    @Test(arguments: [(UInt8(0x90), 30_000_000), (UInt8(0xc0), 60_000_000)])
    func bodiesOfMillionsOfTinyValuesFailAtTheHead(element: UInt8, count: Int) throws {
        let body = Self.array32(of: element, count: count)
        let response = Response(status: 200, headers: ["Content-Type": "application/msgpack"], body: body)
        let error = try #require(throws: SerializationError.self) {
            try SerializerRegistry.standard.installing(.msgpack).serialize(response)
        }
        #expect(error.code == .limitExceeded)
        #expect(error.offset == 0)
        #expect(error.message.contains("maxItems (1000000)"))
        #expect(error.serializerID == "msgpack")
        // The tape reader and the Decodable decoder count the same way.
        let read = try #require(throws: SerializationError.self) { try MessagePackParser().read(body) }
        #expect(read.code == .limitExceeded && read.offset == 0)
        let decoded = try #require(throws: SerializationError.self) {
            try MessagePackDecoder().decode([Int?].self, from: body)
        }
        #expect(decoded.code == .limitExceeded)
    }

    /// The default's edge: an array of 999,999 nils is 1,000,000 values and is read; one more nil is not.
    @Test func theDefaultIsOneMillionValues() throws {
        let atLimit = try MessagePackParser().parse(Self.array32(of: 0xc0, count: 999_999))
        guard case .array(let elements) = atLimit else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == 999_999)
        #expect(elements.allSatisfy { $0 == .nil })
        #expect(MessagePackParsingOptions().maxItems == 1_000_000)
        let over = try Self.failure(Self.array32(of: 0xc0, count: 1_000_000), MessagePackParsingOptions())
        #expect(over.code == .limitExceeded)
    }

    /// The top-level value, elements, keys and values all count, across nesting: [[1, 2], {"a": 3}] holds
    /// 1 + 2 + 2 + 2 = 7 values.
    @Test func elementsKeysAndValuesCountAcrossNesting() throws {
        let body = Data(MessagePackTestSupport.hex("92 92 01 02 81 a1 61 03"))
        let expected: MessagePackValue = .array([
            .array([.int(1), .int(2)]), .map([MessagePackValue.Entry(.string("a"), .int(3))]),
        ])
        #expect(try MessagePackParser(options: MessagePackParsingOptions(maxItems: 7)).parse(body) == expected)
        #expect(try MessagePackParser(options: MessagePackParsingOptions(maxItems: 7)).read(body).value == expected)
        let error = try Self.failure(body, MessagePackParsingOptions(maxItems: 6))
        #expect(error.code == .limitExceeded)
        // The map's head, at offset 4, is the one that declares the seventh value.
        #expect(error.offset == 4)
        #expect(error.message.contains("maxItems (6)"))
        let tape = try #require(throws: SerializationError.self) {
            try MessagePackParser(options: MessagePackParsingOptions(maxItems: 6)).read(body)
        }
        #expect(tape.code == error.code && tape.offset == error.offset && tape.message == error.message)
    }

    /// A stream's top-level values count as they come (they become one array's elements).
    @Test func aStreamsTopLevelValuesCount() throws {
        let body = Data(MessagePackTestSupport.hex("01 02 03"))
        let three = MessagePackParsingOptions(maxItems: 3, allowsMultipleValues: true)
        #expect(try MessagePackParser(options: three).parse(body) == .array([.int(1), .int(2), .int(3)]))
        let two = MessagePackParsingOptions(maxItems: 2, allowsMultipleValues: true)
        let parsers: [() throws -> MessagePackValue] = [
            { try MessagePackParser(options: two).parse(body) },
            { try MessagePackParser(options: two).read(body).value },
        ]
        for parse in parsers {
            let error = try #require(throws: SerializationError.self) { try parse() }
            #expect(error.code == .limitExceeded)
            #expect(error.offset == 2)
        }
    }

    /// Many small arrays, each well within the limit, add up: in an array of 2,000 arrays of 1,000 nils, the outer
    /// head declares 2,000 values (after the outer array itself) and 997 inner arrays 997,000 more, so the 998th inner
    /// array's head passes 1,000,000.
    @Test func smallContainersAddUp() throws {
        var body = Data([0xdc, 0x07, 0xd0])  // array 16 of 2,000
        let inner = Data([0xdc, 0x03, 0xe8]) + Data(repeating: 0xc0, count: 1_000)
        for _ in 0..<2_000 { body.append(inner) }
        let error = try Self.failure(body, MessagePackParsingOptions())
        #expect(error.code == .limitExceeded)
        #expect(error.offset == 3 + 997 * inner.count)
        let raised = MessagePackParsingOptions(maxItems: 2_002_001)
        guard case .array(let arrays) = try MessagePackParser(options: raised).parse(body) else {
            Issue.record("not an array")
            return
        }
        #expect(arrays.count == 2_000)
    }
}

/// The canonical form, written as JSON text and parsed once: strings JSON must escape, every typed object, and a
/// large flat array.
@Suite struct MessagePackCanonicalTextTests {
    @Test func everyKindAndEscapes() throws {
        let value: MessagePackValue = .map([
            MessagePackValue.Entry(
                .string("q\"\\\n\t\u{1}é"), .array([.nil, .bool(true), .int(-5), .uint(UInt64.max)])),
            MessagePackValue.Entry(.string("f"), .array([.float32(1.5), .float64(0.1), .float64(.nan)])),
            MessagePackValue.Entry(.string("b"), .binary([0, 255])),
            MessagePackValue.Entry(.string("e"), .ext(type: -3, data: [1])),
            MessagePackValue.Entry(.string("t"), .timestamp(seconds: -1, nanoseconds: 5)),
            MessagePackValue.Entry(.string("m"), .map([MessagePackValue.Entry(.int(1), .map([]))])),
            MessagePackValue.Entry(.string("f"), .array([])),
        ])
        // A repeated key's last value wins at its first position, as JSONValue.object and JSONParser do.
        let expected: JSONValue = [
            "q\"\\\n\t\u{1}é": [nil, true, -5, JSONValue(UInt64.max)],
            "f": [],
            "b": ["$bytes": "AP8="],
            "e": ["$ext": -3, "data": "AQ=="],
            "t": ["$timestamp": ["seconds": -1, "nanoseconds": 5]],
            "m": ["$map": [[1, [:]]]],
        ]
        #expect(try value.conformanceValue() == expected)
        let floats = try MessagePackValue.array([.float32(1.5), .float64(0.1), .float64(-.infinity)]).conformanceValue()
        #expect(floats == [1.5, 0.1, ["$float": "-Infinity"]])
        #expect(floats.description == #"[1.5,0.1,{"$float":"-Infinity"}]"#)
    }

    @Test func aLargeFlatArray() throws {
        let value = MessagePackValue.array(Array(repeating: .array([]), count: 999_999))
        let canonical = try value.conformanceValue()
        #expect(canonical.count == 999_999)
        #expect(canonical[999_998] == [])
    }
}
