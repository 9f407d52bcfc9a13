import Decant
import DecantCBOR
import DecantConformance
import Foundation
import Testing

/// The `cbor` serializer reading through ``CBORParser/read(_:)`` and ``CBORItem/value``, so that the conformance
/// fixtures (expectations from Python's `cbor2`) check the tape reader too.
struct ItemReadingSerializer: ResponseSerializer {
    var base: CBORResponseSerializer
    var id: SerializerID { "cbor" }
    var mediaRanges: [MediaRange] { base.mediaRanges }

    func serialize(_ response: Response) throws -> CBORValue {
        do {
            if CBORResponseSerializer.isSequence(response.contentType) {
                return .array(try base.parser.readSequence(response.body).map(\.value))
            }
            return try base.parser.read(response.body).value
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    func emptyValue(for response: Response) throws -> CBORValue { try base.emptyValue(for: response) }
}

struct ItemReadingFactory: SerializerFactory {
    let wrapped = CBORSerializerFactory()
    var format: MediaFormat { wrapped.format }
    var optionKeys: [OptionKey<CBORSerializerFactory.Options>] { wrapped.optionKeys }
    var defaultOptions: CBORSerializerFactory.Options { wrapped.defaultOptions }
    func makeSerializer(options: CBORSerializerFactory.Options) -> ItemReadingSerializer {
        ItemReadingSerializer(base: wrapped.makeSerializer(options: options))
    }
}

@Suite struct ItemTests {
    static let lenient = CBORParser(options: CBORParsingOptions(allowsTwoByteLowSimpleValues: true))

    /// Every fixture of Fixtures/cbor passes with the serializer reading through items.
    @Test func fixturesThroughItems() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("cbor"))
        let module = SerializerModule(name: "DecantCBOR (items)", factories: [ItemReadingFactory()])
        try ConformanceRunner(registry: SerializerRegistry.standard.installing(module)).check(fixtures)
        #expect(fixtures.count >= 15)
    }

    /// Every RFC 8949 Appendix A vector read as an item has the value and diagnostic notation `parse` gives (which
    /// ``AppendixATests`` checks against the vectors' own `decoded` and `diagnostic`), and its accessors agree.
    @Test(.enabled(if: CBORTestSupport.corpora.isAvailable)) func appendixAThroughItems() throws {
        let file = try #require(CBORTestSupport.corpora.root)
            .appendingPathComponent("cbor/test-vectors/appendix_a.json")
        let vectors = try #require(try JSONParser().parse(Data(contentsOf: file)).arrayValue)
        #expect(vectors.count == 82)
        for vector in vectors {
            let body = try #require(vector["cbor"]?.stringValue.flatMap { Data(base64Encoded: $0) })
            let tree = try Self.lenient.parse(body)
            let item = try Self.lenient.read(body)
            #expect(item.value.description == tree.description, "\(vector["hex"]?.stringValue ?? "")")
            Self.expectAccessorsAgree(item, tree)
        }
    }

    /// The accessors of `item` answer as those of `value` do, all the way down.
    static func expectAccessorsAgree(_ item: CBORItem, _ value: CBORValue) {
        #expect(item.int64Value == value.int64Value)
        #expect(item.uint64Value == value.uint64Value)
        #expect(item.stringValue == value.stringValue)
        switch value {
        case .unsignedInteger: #expect(item.kind == .unsignedInteger)
        case .negativeInteger: #expect(item.kind == .negativeInteger)
        case .bignum: #expect(item.kind == .bignum)
        case .bytes(let data):
            #expect(item.kind == .bytes)
            #expect(item.dataValue == data)
        case .text: #expect(item.kind == .text)
        case .array(let elements):
            #expect(item.kind == .array)
            #expect(item.count == elements.count)
            #expect(item.elements.count == elements.count)
            for (element, expected) in zip(item.elements, elements) { expectAccessorsAgree(element, expected) }
            if let last = elements.indices.last {
                #expect(item[last]?.value.description == elements[last].description)
            }
            #expect(item[elements.count] == nil)
        case .map(let entries):
            #expect(item.kind == .map)
            #expect(item.count == entries.count)
            #expect(item.entries.count == entries.count)
            for (entry, expected) in zip(item.entries, entries) {
                expectAccessorsAgree(entry.key, expected.key)
                expectAccessorsAgree(entry.value, expected.value)
                if case .text(let key) = expected.key {
                    #expect(item[key]?.value.description == value[key]?.description)
                }
            }
        case .tag(let number, let content):
            #expect(item.kind == .tag)
            #expect(item.tagNumber == number)
            if let tagged = item.tagContent {
                expectAccessorsAgree(tagged, content)
            } else {
                Issue.record("no content")
            }
        case .simple: #expect(item.kind == .simple)
        case .bool(let flag):
            #expect(item.kind == .bool)
            #expect(item.boolValue == flag)
        case .null: #expect(item.isNull)
        case .undefined: #expect(item.kind == .undefined)
        case .float(let double):
            #expect(item.kind == .float)
            #expect(
                item.doubleValue?.bitPattern == double.bitPattern || (double.isNaN && item.doubleValue?.isNaN == true))
        }
    }

    /// What `parse` and `read` make of `body`: the value's diagnostic notation, or the error's code and offset.
    static func outcomes(_ body: Data, _ parser: CBORParser, sequence: Bool) -> (String, String) {
        func describe(_ run: () throws -> String) -> String {
            do { return try run() } catch let error as SerializationError {
                return "\(error.code) at \(error.offset.map(String.init) ?? "-")"
            } catch { return "\(error)" }
        }
        if sequence {
            return (
                describe { try parser.parseSequence(body).map(\.description).joined(separator: ", ") },
                describe { try parser.readSequence(body).map(\.value.description).joined(separator: ", ") }
            )
        }
        return (describe { try parser.parse(body).description }, describe { try parser.read(body).value.description })
    }

    /// A valid document exercising every major type, indefinite lengths, bignums, tags, floats and nested maps.
    static let sample: Data = CBORTestSupport.hex(
        """
        bf 61 61 01 61 62 9f 20 38 63 3b 7fffffffffffffff 1b ffffffffffffffff ff 63 6d6170 a3 01 02 f5 f4 82 01 02 61 78
        64 74 65 78 74 7f 62 6869 63 c3a97a ff 65 62 79 74 65 73 5f 42 0102 41 03 ff 63 74 61 67 c1 1a 514b67b0
        63 62 69 67 c2 49 01 0000000000000000 63 6e 65 67 c3 42 0100 63 66 6c 74 83 f9 3c00 fa 47c35000 fb 3ff199999999999a
        63 73 69 6d 84 f0 f7 f6 f8 ff 65 65 6d 70 74 79 84 80 a0 40 60 63 64 65 70 81 81 81 a1 62 6b6b d8 20 63 752f78 ff
        """)

    @Test func sampleReadsAsItParses() throws {
        let tree = try CBORParser().parse(Self.sample)
        let item = try CBORParser().read(Self.sample)
        #expect(item.value == tree)
        Self.expectAccessorsAgree(item, tree)
        #expect(item["text"]?.stringValue == "hiéz")
        #expect(item["big"]?.kind == .bignum)
        #expect(item["neg"]?.int64Value == -257)
        #expect(item["tag"]?.tagNumber == 1)
        #expect(item["missing"] == nil)
    }

    /// Every truncation and every single-byte change of the sample, as one item and as a sequence, under both
    /// duplicate-key policies: `read` accepts exactly what `parse` accepts, with the same value, and fails with the
    /// same code at the same offset.
    @Test(arguments: CBORParsingOptions.DuplicateKeyPolicy.allCases)
    func everyTruncationAndByteChangeAgrees(policy: CBORParsingOptions.DuplicateKeyPolicy) {
        let parser = CBORParser(options: CBORParsingOptions(maxDepth: 6, duplicateKeys: policy))
        var bodies: [Data] = (0...Self.sample.count).map { Self.sample.prefix($0) }
        var generator = SplitMix64(seed: 18)
        for position in Self.sample.indices {
            for replacement: UInt8 in [
                0x00, 0x18, 0x61, 0xA1, 0xBF, 0xFF, UInt8.random(in: 0...255, using: &generator),
            ] {
                var changed = Self.sample
                changed[position] = replacement
                bodies.append(changed)
            }
        }
        var disagreements: [String] = []
        for body in bodies {
            for sequence in [false, true] {
                let (parsed, read) = Self.outcomes(body, parser, sequence: sequence)
                if parsed != read { disagreements.append("\(body.count) bytes: \(parsed) / \(read)") }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.first ?? "")")
    }

    /// Repeated keys under `lastWins`: the last value at the first position, counted once, for text keys, integer
    /// keys and a key sent in chunks, in small maps and in maps large enough for the hash table.
    @Test(arguments: [2, 20])
    func lastWinsKeepsTheLastValueAtTheFirstPosition(size: Int) throws {
        var bytes: [UInt8] = [0xBF]
        for index in 0..<size {
            bytes += [0x62, 0x6B, UInt8(0x41 + index % 26)] + [0x18, UInt8(index)]  // "k?" : index
        }
        bytes += [0x01, 0x0A, 0x62, 0x6B, 0x41, 0x0B, 0x7F, 0x61, 0x6B, 0x61, 0x42, 0xFF, 0x0C, 0x01, 0x0D, 0xFF]
        let body = Data(bytes)
        let parser = CBORParser(options: CBORParsingOptions(duplicateKeys: .lastWins))
        let tree = try parser.parse(body)
        let item = try parser.read(body)
        #expect(item.value == tree)
        #expect(item.count == tree.mapEntries?.count)
        Self.expectAccessorsAgree(item, tree)
        #expect(item["kA"]?.int64Value == 11)
        #expect(item["kB"]?.int64Value == (size > 1 ? 12 : nil))
        #expect(item.entries.first?.value.int64Value == 11)
        let rejecting = #expect(throws: SerializationError.self) { try CBORParser().read(body) }
        #expect(rejecting?.code == .invalidBody)
    }

    /// A repeated key followed by another fault in the same map (a truncation, invalid UTF-8, a reserved head, a
    /// nested map's repeated key): `read` reports the repeated key, at its offset, as `parse` does.
    @Test(arguments: ["61", "62 ff 41", "1c", "a2 61 62 01 61 62 02 03"])
    func aRepeatedKeyIsReportedBeforeALaterFault(tail: String) {
        let body = CBORTestSupport.hex("a3 61 61 01 61 61 02 61 78 " + tail)
        let (parsed, read) = Self.outcomes(body, CBORParser(), sequence: false)
        #expect(parsed == "invalidBody at 4")
        #expect(read == parsed)
    }

    /// A megabyte of seeded random bytes, and bodies of a few bytes that declare huge lengths: `read` ends at once
    /// with the same outcome as `parse`, allocating nothing for the declared sizes.
    @Test func garbageAndHugeClaims() {
        var generator = SplitMix64(seed: 0xCB0)
        let garbage = Data((0..<1_048_576).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let claims = ["5b ffffffffffffffff", "9b 0fffffffffffffff 01", "bb 7fffffffffffffff", "7a ffffffff 61", "9f"]
        for body in [garbage] + claims.map(CBORTestSupport.hex) {
            for sequence in [false, true] {
                let (parsed, read) = Self.outcomes(body, CBORParser(), sequence: sequence)
                #expect(parsed == read)
                #expect(read.contains("invalidBody") || read.contains("limitExceeded"))
            }
        }
    }

    /// Items outlive the parser and the data they came from, and are sent across tasks.
    @Test func itemsAreIndependentValues() async throws {
        let items = try CBORParser().readSequence(CBORTestSupport.hex("01 63 616263 82 f5 f6"))
        #expect(items.count == 3)
        let texts = await Task.detached { items.map(\.description) }.value
        #expect(texts == ["1", "\"abc\"", "[true, null]"])
        #expect(try CBORParser().readSequence(Data()).isEmpty)
        let empty = #expect(throws: SerializationError.self) { try CBORParser().read(Data()) }
        #expect(empty?.code == .invalidBody)
    }
}
