import Decant
import DecantConformance
import DecantMessagePack
import Foundation
import Testing

/// The `msgpack` serializer reading through ``MessagePackParser/read(_:)`` and ``MessagePackItem/value``, so that
/// the conformance fixtures check the tape reader too.
struct ItemReadingSerializer: ResponseSerializer {
    var base: MessagePackResponseSerializer
    var id: SerializerID { "msgpack" }
    var mediaRanges: [MediaRange] { base.mediaRanges }

    func serialize(_ response: Response) throws -> MessagePackValue {
        do {
            return try base.parser.read(response.body).value
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}

struct ItemReadingFactory: SerializerFactory {
    let wrapped = MessagePackSerializerFactory()
    var format: MediaFormat { wrapped.format }
    var optionKeys: [OptionKey<MessagePackSerializerFactory.Options>] { wrapped.optionKeys }
    var defaultOptions: MessagePackSerializerFactory.Options { wrapped.defaultOptions }
    func makeSerializer(options: MessagePackSerializerFactory.Options) -> ItemReadingSerializer {
        ItemReadingSerializer(base: wrapped.makeSerializer(options: options))
    }
}

@Suite struct ItemTests {
    /// Every fixture of Fixtures/msgpack passes with the serializer reading through items.
    @Test func fixturesThroughItems() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("msgpack"))
        let module = SerializerModule(name: "DecantMessagePack (items)", factories: [ItemReadingFactory()])
        try ConformanceRunner(registry: SerializerRegistry.standard.installing(module)).check(fixtures)
        #expect(fixtures.count >= 15)
    }

    /// Every encoding of the msgpack-test-suite corpus read as an item has the value `parse` gives (which
    /// ``MessagePackCorpusTests`` checks against the cases), and its accessors agree.
    @Test(.enabled(if: MessagePackCorpusTests.corpusAvailable)) func corpusThroughItems() throws {
        let url = try #require(MessagePackTestSupport.suiteFile)
        let suite = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var encodings = 0
        for (_, entries) in suite.sorted(by: { $0.key < $1.key }) {
            for entry in try #require(entries as? [[String: Any]]) {
                for encoding in try #require(entry["msgpack"] as? [String]) {
                    let body = Data(MessagePackTestSupport.hex(encoding))
                    let tree = try MessagePackParser().parse(body)
                    let item = try MessagePackParser().read(body)
                    #expect(Self.describe(item.value) == Self.describe(tree), "\(encoding)")
                    Self.expectAccessorsAgree(item, tree)
                    encodings += 1
                }
            }
        }
        #expect(encodings > 85)
    }

    static func describe(_ value: MessagePackValue) -> String { String(describing: value) }

    /// The accessors of `item` answer as the case of `value` says, all the way down.
    static func expectAccessorsAgree(_ item: MessagePackItem, _ value: MessagePackValue) {
        #expect(item.stringValue == value.stringValue)
        #expect(item.isNil == (value == .nil))
        switch value {
        case .int(let integer):
            #expect(item.kind == .int)
            #expect(item.int64Value == integer)
            #expect(item.uint64Value == UInt64(exactly: integer))
        case .uint(let integer):
            #expect(item.kind == .uint)
            #expect(item.int64Value == nil)
            #expect(item.uint64Value == integer)
        default:
            #expect(item.int64Value == nil)
            #expect(item.uint64Value == nil)
        }
        switch value {
        case .nil: #expect(item.kind == .nil)
        case .bool(let flag):
            #expect(item.kind == .bool)
            #expect(item.boolValue == flag)
        case .int, .uint: break
        case .float32(let float):
            #expect(item.kind == .float32)
            #expect(item.doubleValue.map { Float($0).bitPattern } == float.bitPattern)
        case .float64(let double):
            #expect(item.kind == .float64)
            #expect(item.doubleValue?.bitPattern == double.bitPattern)
        case .string: #expect(item.kind == .string)
        case .binary(let bytes):
            #expect(item.kind == .binary)
            #expect(item.binaryValue == bytes)
        case .array(let elements):
            #expect(item.kind == .array)
            #expect(item.count == elements.count)
            #expect(item.elements.count == elements.count)
            for (element, expected) in zip(item.elements, elements) { expectAccessorsAgree(element, expected) }
            if let last = elements.indices.last {
                #expect(item[last].map { describe($0.value) } == describe(elements[last]))
            }
            #expect(item[elements.count] == nil)
            #expect(item[-1] == nil)
        case .map(let entries):
            #expect(item.kind == .map)
            #expect(item.count == entries.count)
            #expect(item.entries.count == entries.count)
            for (entry, expected) in zip(item.entries, entries) {
                expectAccessorsAgree(entry.key, expected.key)
                expectAccessorsAgree(entry.value, expected.value)
                if case .string(let key) = expected.key {
                    #expect(item[key].map { describe($0.value) } == value[key].map(describe))
                }
            }
        case .ext(let type, let data):
            #expect(item.kind == .ext)
            #expect(item.extType == type)
            #expect(item.extData == data)
        case .timestamp(let seconds, let nanoseconds):
            #expect(item.kind == .timestamp)
            #expect(item.timestamp?.seconds == seconds)
            #expect(item.timestamp?.nanoseconds == nanoseconds)
        }
        if item.kind != .ext { #expect(item.extType == nil && item.extData == nil) }
        if item.kind != .timestamp { #expect(item.timestamp == nil) }
        if item.kind != .array { #expect(item.elements.isEmpty && item[0] == nil) }
        if item.kind != .map { #expect(item.entries.isEmpty && item["k"] == nil) }
    }

    /// What `parse` and `read` make of `body`: the value's description, or the error's code, offset and message.
    static func outcomes(_ body: Data, _ parser: MessagePackParser) -> (String, String) {
        func outcome(_ run: () throws -> MessagePackValue) -> String {
            do { return describe(try run()) } catch let error as SerializationError {
                return "\(error.code) at \(error.offset.map(String.init) ?? "-"): \(error.message)"
            } catch { return "\(error)" }
        }
        return (outcome { try parser.parse(body) }, outcome { try parser.read(body).value })
    }

    /// A valid body with every format family: a map 16 of 13 entries (the key "int" twice).
    static let sample: Data = Data(
        MessagePackTestSupport.hex(
            """
            de 00 0d
            a3 696e74 dc 00 0f 00 7f e0 ff cc ff cd ffff ce ffffffff cf 7fffffffffffffff cf ffffffffffffffff
              d0 80 d1 8000 d2 80000000 d3 8000000000000000 d3 ffffffffffffffff cc 00
            a3 666c74 94 ca 3fc00000 cb 3ff199999999999a ca ff800000 cb 8000000000000000
            a3 737472 94 a0 d9 03 c3a97a da 0002 6869 db 00000003 e282ac
            a3 62696e 93 c4 02 0102 c5 0001 ff c6 00000000
            a3 617272 dd 00000003 90 91 c0 dc 0000
            a3 6d6170 83 01 c3 c2 c0 80 df 00000001 a1 6b 81 a1 6b a1 76
            a3 657874 98 d4 01 aa d5 02 aabb d6 03 00010203 d7 80 0001020304050607
              d8 7f 11111111111111111111111111111111 c7 03 05 010203 c8 0002 f0 0102 c9 00000000 09
            a3 74696d 93 d6 ff 00000001 d7 ff 0000001400000001 c7 0c ff 00000005 ffffffffffffffff
            a3 6e696c c0
            a3 796573 c3
            a2 6e6f c2
            a3 646570 91 91 91 81 a1 78 91 c0
            a3 696e74 00
            """))

    @Test func sampleReadsAsItParses() throws {
        let tree = try MessagePackParser().parse(Self.sample)
        let item = try MessagePackParser().read(Self.sample)
        #expect(item.value == tree)
        Self.expectAccessorsAgree(item, tree)
        #expect(item.count == 13)
        #expect(item["int"]?.count == 15)
        #expect(item["int"]?[7]?.int64Value == Int64.max)
        #expect(item["int"]?[8]?.kind == .uint)
        #expect(item["str"]?[1]?.stringValue == "éz")
        #expect(item["str"]?[3]?.stringValue == "€")
        #expect(item["flt"]?[2]?.doubleValue == -.infinity)
        #expect(item["ext"]?[4]?.extData == Array(repeating: 0x11, count: 16))
        #expect(item["tim"]?[1]?.timestamp.map { [$0.seconds, Int64($0.nanoseconds)] } == [1, 5])
        #expect(item["missing"] == nil)
        #expect(item.entries.map { $0.key.stringValue ?? "" }.last == "int")
    }

    /// Larger bodies (the tree reader caches repeated strs from 4 KB on), and several top-level values.
    @Test func largeBodiesAndStreamsReadAsTheyParse() throws {
        var bytes: [UInt8] = [0xdc, 0x03, 0xe8]
        for index in 0..<1000 {
            // {"id": index, "name": "né", "tags": ["a", "long tag, long enough for the hashed cache"]}
            bytes += [0x83, 0xa2, 0x69, 0x64, 0xcd, UInt8(index >> 8), UInt8(index & 0xff)]
            bytes += [
                0xa4, 0x6e, 0x61, 0x6d, 0x65, 0xa3, 0x6e, 0xc3, 0xa9, 0xa4, 0x74, 0x61, 0x67, 0x73, 0x92, 0xa1, 0x61,
            ]
            let tag = Array("long tag, long enough for the hashed cache".utf8)
            bytes += [0xd9, UInt8(tag.count)] + tag
        }
        let body = Data(bytes)
        let tree = try MessagePackParser().parse(body)
        let item = try MessagePackParser().read(body)
        #expect(item.value == tree)
        #expect(item[999]?["id"]?.int64Value == 999)
        #expect(item.elements.count == 1000)
        let stream = MessagePackParser(options: MessagePackParsingOptions(allowsMultipleValues: true))
        let streamed = try stream.read(body + body)
        #expect(streamed.value == (try stream.parse(body + body)))
        #expect(streamed.count == 2)
        #expect(streamed[1]?[0]?["name"]?.stringValue == "né")
        #expect(try stream.read(Data()).value == .array([]))
    }

    /// Option sets for the byte changes: defaults; exactly deep enough for the sample, replacing bad UTF-8, reading
    /// streams; one level short; a `maxBytes` below the sample's size.
    static let optionSets: [MessagePackParsingOptions] = [
        MessagePackParsingOptions(),
        MessagePackParsingOptions(maxDepth: 6, replacesInvalidUTF8: true, allowsMultipleValues: true),
        MessagePackParsingOptions(maxDepth: 5),
        MessagePackParsingOptions(maxBytes: 100),
    ]

    /// Every truncation and every single-byte change of the sample, under each option set: `read` accepts exactly
    /// what `parse` accepts, with the same value, and fails with the same code at the same offset.
    @Test(arguments: 0..<optionSets.count)
    func everyTruncationAndByteChangeAgrees(optionSet: Int) {
        let parser = MessagePackParser(options: Self.optionSets[optionSet])
        var bodies: [Data] = (0...Self.sample.count).map { Self.sample.prefix($0) }
        var generator = SplitMix64(seed: 0x4D50)
        for position in Self.sample.indices {
            for replacement: UInt8 in [
                0x00, 0x7f, 0x80, 0x91, 0xa1, 0xc1, 0xd6, 0xdf, 0xff, UInt8.random(in: 0...255, using: &generator),
                UInt8.random(in: 0...255, using: &generator),
            ] {
                var changed = Self.sample
                changed[position] = replacement
                bodies.append(changed)
            }
        }
        var disagreements: [String] = []
        var failures = 0
        for body in bodies {
            let (parsed, read) = Self.outcomes(body, parser)
            if parsed != read { disagreements.append("\(body.count) bytes: \(parsed.prefix(80)) / \(read.prefix(80))") }
            if parsed.contains(" at ") { failures += 1 }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.first ?? "")")
        // The changes reach the error paths, not only values.
        #expect(failures > bodies.count / 5)
    }

    /// A megabyte of seeded random bytes, and bodies of a few bytes that declare huge lengths: `read` ends at once
    /// with the same outcome as `parse`, allocating nothing for the declared sizes.
    @Test func garbageAndHugeClaims() {
        var generator = SplitMix64(seed: 0x4D5047)
        let garbage = Data((0..<1_048_576).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let claims = [
            "dd ffffffff 01", "df ffffffff 01 02", "db ffffffff 61", "c6 ffffffff", "c9 ffffffff 01", "dc ffff",
        ]
        for body in [garbage] + claims.map({ Data(MessagePackTestSupport.hex($0)) }) {
            let (parsed, read) = Self.outcomes(body, MessagePackParser())
            #expect(parsed == read)
            #expect(read.contains("invalidBody") || read.contains("invalidEncoding"))
        }
        let stream = MessagePackParser(options: MessagePackParsingOptions(allowsMultipleValues: true))
        let (parsed, read) = Self.outcomes(garbage, stream)
        #expect(parsed == read)
    }

    /// Items outlive the parser and the data they came from, and are sent across tasks.
    @Test func itemsAreIndependentValues() async throws {
        let item = try MessagePackParser().read(Data(MessagePackTestSupport.hex("93 01 a3 616263 92 c3 c0")))
        let values = await Task.detached { item.elements.map(\.value) }.value
        #expect(values == [.int(1), .string("abc"), .array([.bool(true), .nil])])
        let empty = #expect(throws: SerializationError.self) { try MessagePackParser().read(Data()) }
        #expect(empty?.code == .invalidBody)
        #expect(empty?.offset == 0)
    }

    /// The README's example, as written there.
    @Test func readmeExample() throws {
        let body = Data([0x81, 0xA4, 0x6E, 0x61, 0x6D, 0x65, 0xA3, 0x41, 0x64, 0x61])  // {"name": "Ada"}
        let item = try MessagePackParser().read(body)
        print(item["name"]?.stringValue ?? "")  // Ada
        for (key, value) in item.entries { print(key.stringValue ?? "", value.kind) }
        let value: MessagePackValue = item.value  // what parse(body) returns
        #expect(value == (try MessagePackParser().parse(body)))
        #expect(item["name"]?.stringValue == "Ada")
    }
}
