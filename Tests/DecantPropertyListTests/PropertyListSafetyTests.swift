import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantPropertyList

/// Hostile input: shared-reference bombs, sets, cycles, truncation, entity declarations, random mutations.
@Suite struct PropertyListSafetyTests {
    /// Object `k` is an array holding object `k - 1` twice; object 0 is an integer. Its logical size is 2^levels.
    static func sharedReferenceBomb(levels: Int) -> Data {
        var objects: [[UInt8]] = [[0x10, 0x01]]
        for level in 1...levels { objects.append([0xA2, UInt8(level - 1), UInt8(level - 1)]) }
        return PlistTestSupport.binaryPlist(objects, top: levels)
    }

    @Test func sharedReferenceBombStopsAtTheObjectLimit() throws {
        let bomb = Self.sharedReferenceBomb(levels: 32)
        #expect(bomb.count < 200)
        let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(bomb) }
        #expect(error?.code == .limitExceeded)
        // A small bomb fits the limit and expands to its full logical size.
        let small = try PlistTestSupport.parse(Self.sharedReferenceBomb(levels: 4))
        #expect(small.canonicalJSONText().components(separatedBy: "\"integer\"").count - 1 == 16)
        let limited = PropertyListParsingOptions(maxObjects: 20)
        let limitedError = #expect(throws: SerializationError.self) {
            try PlistTestSupport.parse(Self.sharedReferenceBomb(levels: 5), options: limited)
        }
        #expect(limitedError?.code == .limitExceeded)
    }

    @Test func binarySetsAreReadAsArrays() throws {
        let set = PlistTestSupport.binaryPlist([[0xC2, 1, 2], [0x10, 0x07], [0x51, UInt8(ascii: "a")]])
        #expect(try PlistTestSupport.parse(set) == .array([.integer(PropertyListInteger(Int64(7))), .string("a")]))
        let orderedSet = PlistTestSupport.binaryPlist([[0xB1, 1], [0x09]])
        #expect(try PlistTestSupport.parse(orderedSet) == .array([.bool(true)]))
    }

    @Test(arguments: [
        ("self", [[0xA1, 0]] as [[UInt8]]),
        ("two objects", [[0xA1, 1], [0xA1, 0]]),
        ("dictionary value", [[0xD1, 1, 0], [0x51, UInt8(ascii: "k")]]),
        ("deep", [[0xA1, 1], [0xA1, 2], [0xA1, 3], [0xA1, 1]]),
    ])
    func cyclesAreRejected(_ name: String, _ objects: [[UInt8]]) {
        let error = #expect(throws: SerializationError.self, "\(name)") {
            try PlistTestSupport.parse(PlistTestSupport.binaryPlist(objects))
        }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains("cycle") == true)
    }

    @Test func depthLimitIsEnforcedWithoutRecursion() throws {
        let depth = 100_000
        let xml = String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
        let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(Data(xml.utf8)) }
        #expect(error?.code == .limitExceeded)
        let openStep = String(repeating: "(", count: depth) + String(repeating: ")", count: depth)
        let openStepError = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(Data(openStep.utf8)) }
        #expect(openStepError?.code == .limitExceeded)
        let shallow = PropertyListParsingOptions(maxDepth: 3)
        let shallowError = #expect(throws: SerializationError.self) {
            try PlistTestSupport.parse(
                Data("<array><array><array><array/></array></array></array>".utf8), options: shallow)
        }
        #expect(shallowError?.code == .limitExceeded)
        #expect(try PlistTestSupport.parse(Data("((()))".utf8), options: shallow) == .array([.array([.array([])])]))
    }

    @Test func billionLaughsIsRejected() {
        var doctype = "<!DOCTYPE plist [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            doctype +=
                "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10)
                + "\">\n"
        }
        doctype += "]>\n"
        let xml = "<?xml version=\"1.0\"?>\n" + doctype + "<plist version=\"1.0\"><string>&lol9;</string></plist>"
        let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(Data(xml.utf8)) }
        #expect(error?.code == .unsupportedFeature)
        #expect(error?.message.contains("line 3") == true)
        let external = "<plist><string>&xxe;</string></plist>"
        let externalError = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(Data(external.utf8)) }
        #expect(externalError?.code == .unsupportedFeature)
    }

    static var sampleFiles: [URL] {
        [
            "plist/cpython/valid/testdata.binary.plist", "plist/cpython/valid/testdata.xml.plist",
            "plist/cpython/valid/keyed_archive.binary.plist", "plist/libplist/test/data/uid.bplist",
        ]
        .compactMap { Corpora.url($0) }
    }

    static let openStepSample = Data(
        """
        // comment
        { name = "Decant \\U00e9\\n"; list = (1, two, <0fa1 b2>, { a = b; }, ); /* block */ "quoted key" = x; }
        """.utf8)

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func everyPrefixEndsWithoutCrashing() throws {
        for data in try Self.sampleFiles.map({ try Data(contentsOf: $0) }) + [Self.openStepSample] {
            let whole = try PlistTestSupport.parse(data)
            var failures = 0
            for length in 0..<data.count {
                if (try? PlistTestSupport.parse(data.prefix(length))) == nil { failures += 1 }
            }
            // Almost every prefix is invalid; none crashes and none yields the whole value.
            #expect(failures > data.count / 2)
            #expect(whole != .array([]))
        }
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"), arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func seededRandomMutationsNeverCrash(seed: UInt64) throws {
        var generator = SplitMix64(state: seed)
        let inputs = try Self.sampleFiles.map { try Data(contentsOf: $0) } + [Self.openStepSample]
        var parsed = 0
        for input in inputs {
            for _ in 0..<300 {
                var bytes = Array(input)
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                    case 1: bytes[index] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                    default: bytes.remove(at: index)
                    }
                    if bytes.isEmpty { bytes = [0] }
                }
                if let value = try? PlistTestSupport.parse(Data(bytes)) {
                    parsed += 1
                    _ = value.canonicalJSONText()
                }
            }
        }
        #expect(parsed >= 0)
    }

    @Test func binaryIntegersAndLimitsInTheTrailer() throws {
        // A 16-byte integer holding 2^64 - 1, as libplist writes unsigned values.
        let big = PlistTestSupport.binaryPlist([
            [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)
        ])
        #expect(try PlistTestSupport.parse(big).canonicalJSONText() == "{\"integer\":\"18446744073709551615\"}")
        let negative = PlistTestSupport.binaryPlist([[0x13] + [UInt8](repeating: 0xFF, count: 8)])
        #expect(try PlistTestSupport.parse(negative).canonicalJSONText() == "{\"integer\":\"-1\"}")
        var truncatedTable = Array(PlistTestSupport.binaryPlist([[0x09]]))
        truncatedTable[truncatedTable.count - 1] = 0xF0
        let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(Data(truncatedTable)) }
        #expect(error?.code == .invalidBody)
        #expect(error?.offset != nil)
    }
}
