import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantPropertyList

/// About 1 MB of seeded garbage and of pathological input for each reader and for format detection: every case ends
/// with a value or a precise error (the parsers are linear; none of these tests times anything: a hang is caught by CI's
/// guard around the test run, which names the unfinished test). Peak memory is measured outside the tests, with `/usr/bin/time -v` on the `decant` tool.
@Suite struct PropertyListHostileInputTests {
    static let megabyte = 1 << 20

    /// A binary property list of `objects` with `referenceSize`-byte references and the smallest offset size.
    static func binary(_ objects: [[UInt8]], top: Int = 0, referenceSize: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableOffset = bytes.count
        let offsetSize = tableOffset > 0xFF_FFFF ? 4 : tableOffset > 0xFFFF ? 3 : tableOffset > 0xFF ? 2 : 1
        for offset in offsets { bytes += bigEndian(offset, size: offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        for value in [objects.count, top, tableOffset] { bytes += bigEndian(value, size: 8) }
        return Data(bytes)
    }

    static func bigEndian(_ value: Int, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> ((size - 1 - $0) * 8)) }
    }

    /// The marker of a `kind` object (0xA array, 0xD dictionary, 0x5 ASCII string...) holding `count` items.
    static func marker(_ kind: UInt8, count: Int) -> [UInt8] {
        count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F, 0x12] + bigEndian(count, size: 4)
    }

    static func parse(
        _ data: Data, format: PropertyListFormat = .auto, maxDepth: Int = PropertyListParsingOptions.defaultMaxDepth,
        maxValueBytes: Int = PropertyListParsingOptions.defaultMaxValueBytes
    ) -> Result<PropertyListValue, SerializationError> {
        let options = PropertyListParsingOptions(format: format, maxDepth: maxDepth, maxValueBytes: maxValueBytes)
        do {
            return .success(try PropertyListParser(options: options).parse(data))
        } catch {
            return .failure(error)
        }
    }

    // MARK: Seeded garbage

    /// The garbage generators: random bytes, and random runs of each format's own tokens, which get further into
    /// the readers than bytes that are not even valid UTF-8.
    enum Garbage: String, CaseIterable, Sendable {
        case bytes, bplistHeader, binaryObjects, xmlTokens, openStepTokens

        func make(seed: UInt64) -> Data {
            var generator = SplitMix64(state: seed)
            let size = PropertyListHostileInputTests.megabyte
            func randomBytes(_ count: Int) -> [UInt8] {
                (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }
            switch self {
            case .bytes:
                return Data(randomBytes(size))
            case .bplistHeader:
                return Data(Array("bplist00".utf8) + randomBytes(size - 8))
            case .binaryObjects:
                // Random object bytes with a consistent trailer: 4096 objects at random offsets, 2-byte references.
                let count = 4096
                var bytes = Array("bplist00".utf8) + randomBytes(size - 8 - count * 4 - 32)
                let table = bytes.count
                for _ in 0..<count { bytes += bigEndian(Int.random(in: 8..<table, using: &generator), size: 4) }
                bytes += [0, 0, 0, 0, 0, 0, 4, 2] + bigEndian(count, size: 8) + bigEndian(0, size: 8)
                bytes += bigEndian(table, size: 8)
                return Data(bytes)
            case .xmlTokens:
                let tokens = [
                    "<array>", "</array>", "<dict>", "</dict>", "<key>k</key>", "<string>x</string>", "<true/>",
                    "<integer>12</integer>", "<real>1.5</real>", "<date>2020-01-01T00:00:00Z</date>",
                    "<data>AAAA</data>", "&amp;", "<![CDATA[", "]]>", "<!--", "-->", "<", ">", "&#x41;", "\n",
                ].map { Array($0.utf8) }
                var bytes = Array("<plist>".utf8)
                while bytes.count < size { bytes += tokens.randomElement(using: &generator)! }
                return Data(bytes)
            case .openStepTokens:
                let alphabet = Array("(){}<>=;,\"'\\ab01/*\n \tU".utf8)
                return Data((0..<size).map { _ in alphabet.randomElement(using: &generator)! })
            }
        }
    }

    @Test(arguments: Garbage.allCases, PropertyListFormat.allCases)
    func seededGarbageEndsWithAValueOrAPreciseError(garbage: Garbage, format: PropertyListFormat) {
        for seed: UInt64 in [1, 2] {
            let data = garbage.make(seed: seed)
            if format == .auto, garbage == .bplistHeader || garbage == .binaryObjects {
                #expect(PropertyListParser.detectFormat(of: data) == .binary)
            }
            if case .failure(let error) = Self.parse(data, format: format) {
                #expect(
                    [.invalidBody, .invalidEncoding, .limitExceeded, .unsupportedFeature].contains(error.code),
                    "\(garbage) as \(format): \(error)")
                #expect(error.message.count > 40)
            }
        }
    }

    // MARK: Pathological text

    @Test(arguments: ["(", "{a=", "<array>", "<dict><key>a</key>", "{a=(", "(\n"])
    func deepNestingStopsAtTheDepthLimit(opening: String) {
        let data = Data(String(repeating: opening, count: Self.megabyte / opening.utf8.count).utf8)
        guard case .failure(let error) = Self.parse(data) else {
            Issue.record("\(opening) parsed")
            return
        }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxDepth"))
    }

    @Test func longFlatContainersAreLinear() throws {
        let count = Self.megabyte / 2
        let openStep = Data(("(" + String(repeating: "a,", count: count) + ")").utf8)
        #expect(try PlistTestSupport.parse(openStep) == .array(Array(repeating: .string("a"), count: count)))
        let xmlCount = Self.megabyte / 7
        let xml = Data(("<plist><array>" + String(repeating: "<true/>", count: xmlCount) + "</array></plist>").utf8)
        #expect(try PlistTestSupport.parse(xml) == .array(Array(repeating: .bool(true), count: xmlCount)))
        // 250,000 entries of one repeated key: the last value wins (as in plistlib), in one pass.
        let dictionary = Data(("{" + String(repeating: "a=b;", count: Self.megabyte / 4) + "a=c;}").utf8)
        #expect(try PlistTestSupport.parse(dictionary) == .dictionary(PropertyListDictionary([("a", .string("c"))])))
    }

    @Test(arguments: ["(/*", "(\"", "(<", "<plist><string>", "<!DOCTYPE plist [", "(\"\\U"])
    func unclosedConstructsFailFast(opening: String) {
        let filler = opening.hasSuffix("\\U") ? "00e9\\U" : opening == "(<" ? "0f" : "x"
        let data = Data((opening + String(repeating: filler, count: Self.megabyte / filler.utf8.count)).utf8)
        guard case .failure(let error) = Self.parse(data) else {
            Issue.record("\(opening) parsed")
            return
        }
        #expect(error.code == .invalidBody)
        #expect(error.message.contains("not closed"))
    }

    // MARK: Pathological binary

    /// Counts claimed in a few bytes fail on the size check, before anything is allocated for them.
    @Test(
        arguments: [
            ("array of 2^32", [0xAF, 0x13] + bigEndian(1 << 32, size: 8)),
            ("dictionary of 2^31", [0xDF, 0x12] + bigEndian(1 << 31, size: 4)),
            ("data of 2^62", [0x4F, 0x13] + bigEndian(1 << 62, size: 8)),
            ("UTF-16 string of 2^62", [0x6F, 0x13] + bigEndian(1 << 62, size: 8)),
            ("ASCII string of 2^63 - 1", [0x5F, 0x13] + bigEndian(Int.max, size: 8)),
            ("array of 3 in 2 bytes", [0xA3, 0x00]),
        ] as [(String, [UInt8])])
    func hugeClaimedCountsFailBeforeAllocating(name: String, object: [UInt8]) {
        guard case .failure(let error) = Self.parse(PlistTestSupport.binaryPlist([object])) else {
            Issue.record("\(name) parsed")
            return
        }
        #expect(error.code == .invalidBody, "\(name)")
        #expect(error.message.contains("run past the object area") || error.message.contains("exceeds the document"))
    }

    @Test func hugeTrailerCountsFailBeforeAllocating() {
        // One object (`true`) whose trailer claims 2^32 objects, then a table of 2^61 8-byte entries at offset 9.
        for (count, offsetSize) in [(1 << 32, 1), (1 << 61, 8)] {
            let data = Data(
                Array("bplist00".utf8) + [0x09, 8] + [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 1]
                    + Self.bigEndian(count, size: 8) + Self.bigEndian(0, size: 8) + Self.bigEndian(9, size: 8))
            guard case .failure(let error) = Self.parse(data) else {
                Issue.record("\(count) objects parsed")
                continue
            }
            #expect(error.code == .invalidBody)
            #expect(error.message.contains("does not fit"))
        }
    }

    /// 60,000 arrays each holding the next, the last holding the first: the depth limit stops it, and with the
    /// limit raised past the chain the cycle is found.
    @Test func longReferenceCycles() {
        let count = 60_000
        let objects = (0..<count).map { [0xA1] + Self.bigEndian(($0 + 1) % count, size: 2) }
        let data = Self.binary(objects, referenceSize: 2)
        guard case .failure(let deep) = Self.parse(data), case .failure(let cycle) = Self.parse(data, maxDepth: count)
        else {
            Issue.record("a cyclic document parsed")
            return
        }
        #expect(deep.code == .limitExceeded)
        #expect(cycle.code == .invalidBody)
        #expect(cycle.message.contains("reference cycle"))
    }

    /// Each array holds the 200 objects before it: about 5,000 arrays in 1 MB whose logical size is astronomical.
    @Test func sharedSubtreesStopAtTheObjectLimit() {
        var objects: [[UInt8]] = [[0x09]]
        var size = 0
        while size < Self.megabyte - 70_000 {
            let references = max(0, objects.count - 200)..<objects.count
            let object = Self.marker(0xA, count: references.count) + references.flatMap { Self.bigEndian($0, size: 2) }
            size += object.count
            objects.append(object)
        }
        let data = Self.binary(objects, top: objects.count - 1, referenceSize: 2)
        guard case .failure(let error) = Self.parse(data) else {
            Issue.record("the shared subtrees parsed")
            return
        }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxObjects"))
    }

    /// 349,000 references to one array of three integers: 1.4 million values, over the default `maxObjects`.
    @Test func manyReferencesToOneObjectStopAtTheObjectLimit() {
        let count = (Self.megabyte - 100) / 3
        let data = Self.binary(
            [
                Self.marker(0xA, count: count)
                    + Array(
                        [[UInt8]](repeating: Self.bigEndian(1, size: 3), count: count)
                            .joined()),
                [0xA3] + Self.bigEndian(2, size: 3) + Self.bigEndian(2, size: 3) + Self.bigEndian(2, size: 3),
                [0x10, 7],
            ], referenceSize: 3)
        guard case .failure(let error) = Self.parse(data) else {
            Issue.record("the references parsed")
            return
        }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxObjects"))
    }

    /// A 512 KiB string referenced 174,000 times would render as 91 GB: `maxValueBytes` stops it. With the limit
    /// lifted the value is built (sharing one string), as `plistlib` builds it.
    @Test func sharedLongStringStopsAtTheByteLimit() throws {
        let length = Self.megabyte / 2
        let count = Self.megabyte / 2 / 3
        let string = Self.marker(0x5, count: length) + [UInt8](repeating: UInt8(ascii: "s"), count: length)
        let array =
            Self.marker(0xA, count: count) + Array(repeatElement(Self.bigEndian(1, size: 3), count: count).joined())
        let data = Self.binary([array, string], referenceSize: 3)
        guard case .failure(let error) = Self.parse(data) else {
            Issue.record("the shared string parsed under the default limit")
            return
        }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxValueBytes"))
        let lifted = try Self.parse(data, maxValueBytes: .max).get()
        guard case .array(let elements) = lifted else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == count)
        #expect(elements.first == .string(String(repeating: "s", count: length)))
    }

    /// One dictionary whose 131,072 entries all use one 512 KiB key object: the key is hashed once, not at every
    /// reference, and the last value wins (`plistlib` gives `{'kkk...': True}` for these bytes).
    @Test func longKeySharedByEveryEntryIsHashedOnce() throws {
        let length = Self.megabyte / 2
        let count = Self.megabyte / 2 / 4
        let key = Self.marker(0x5, count: length) + [UInt8](repeating: UInt8(ascii: "k"), count: length)
        let dictionary =
            Self.marker(0xD, count: count) + Array(repeatElement(Self.bigEndian(1, size: 2), count: count).joined())
            + Array(repeatElement(Self.bigEndian(3, size: 2), count: count - 1).joined()) + Self.bigEndian(2, size: 2)
        let data = Self.binary([dictionary, key, [0x09], [0x08]], referenceSize: 2)
        let value = try Self.parse(data, maxValueBytes: .max).get()
        #expect(value == .dictionary(PropertyListDictionary([(String(repeating: "k", count: length), .bool(true))])))
    }

    /// Seventeen distinct 28,000-byte keys (differing only at the end) shared by 15,000 dictionaries: each key is
    /// hashed once, every dictionary's keys are compared as integers.
    @Test func longKeysSharedByManyDictionariesAreHashedOnce() throws {
        let length = 28_000
        let keyCount = 17
        let dictionaries = 15_000
        let firstKey = 1 + dictionaries
        let valueObject = firstKey + keyCount
        var objects: [[UInt8]] = [
            Self.marker(0xA, count: dictionaries) + (1...dictionaries).flatMap { Self.bigEndian($0, size: 2) }
        ]
        let dictionary =
            Self.marker(0xD, count: keyCount) + (0..<keyCount).flatMap { Self.bigEndian(firstKey + $0, size: 2) }
            + Array(repeatElement(Self.bigEndian(valueObject, size: 2), count: keyCount).joined())
        objects += Array(repeating: dictionary, count: dictionaries)
        for index in 0..<keyCount {
            let text = String(repeating: "k", count: length - 2) + (index < 10 ? "0\(index)" : "\(index)")
            objects.append(Self.marker(0x5, count: length) + Array(text.utf8))
        }
        objects.append([0x09])
        let data = Self.binary(objects, referenceSize: 2)
        let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(data) }
        #expect(error?.code == .limitExceeded)
        let value = try Self.parse(data, maxValueBytes: .max).get()
        guard case .array(let elements) = value, case .dictionary(let first) = elements.first else {
            Issue.record("not an array of dictionaries")
            return
        }
        #expect(elements.count == dictionaries)
        #expect(first.count == keyCount)
    }

    /// Offset-table entries all naming one object: the per-object tables are sized by the claimed count, which may
    /// not pass twice `maxObjects`, whatever the body's size.
    @Test func offsetTableEntriesSharingOneObject() throws {
        func table(_ count: Int) -> Data {
            var bytes = Array("bplist00".utf8) + [0x09]
            bytes += [UInt8](repeating: 8, count: count)
            bytes += [0, 0, 0, 0, 0, 0, 1, 1] + Self.bigEndian(count, size: 8) + Self.bigEndian(count - 1, size: 8)
            return Data(bytes + Self.bigEndian(9, size: 8))
        }
        #expect(try PlistTestSupport.parse(table(900_000)) == .bool(true))
        let options = PropertyListParsingOptions(maxObjects: 1000)
        #expect(try PlistTestSupport.parse(table(2000), options: options) == .bool(true))
        let error = #expect(throws: SerializationError.self) {
            try PlistTestSupport.parse(table(2001), options: options)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("lists 2001 objects, more than twice the limit of 1000 values") == true)
    }
}
