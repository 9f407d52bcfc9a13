import DecantCore
import DecantJSON
import DecantTestSupport
import Foundation
import Testing

@testable import DecantPropertyList

/// `PropertyListWriter`: plistlib's exact bytes for small values, what Decant's own parser reads back, the
/// characters and dates XML cannot carry, UIDs, and the depth limit.
@Suite struct PropertyListWriterTests {
    static let xml = PropertyListWriter(options: PropertyListWritingOptions(format: .xml))
    static let binary = PropertyListWriter(options: PropertyListWritingOptions(format: .binary))

    static let sample = PropertyListValue.dictionary(
        PropertyListDictionary([
            ("name", .string("a & <b>")), ("count", .integer(PropertyListInteger(Int64(-3)))), ("ratio", .real(0.5)),
            ("on", .bool(true)), ("when", .date(Date(timeIntervalSince1970: 1_098_786_813))),
            ("bytes", .data(Data((0..<100).map { UInt8($0) }))),
            ("list", .array([.string("a"), .array([]), .dictionary(PropertyListDictionary()), .string("a")])),
        ]))

    /// The bytes `plistlib.dumps` writes for the sample (XML and binary, keys in order), from Python itself.
    @Test(.enabled(if: Python.isAvailable, "needs python3"))
    func sampleIsPlistlibsBytes() throws {
        let script = """
            import plistlib, datetime, sys
            value = {"name": "a & <b>", "count": -3, "ratio": 0.5, "on": True,
                     "when": datetime.datetime(2004, 10, 26, 10, 33, 33), "bytes": bytes(range(100)),
                     "list": ["a", [], {}, "a"]}
            fmt = plistlib.FMT_XML if sys.argv[1] == "xml" else plistlib.FMT_BINARY
            sys.stdout.buffer.write(plistlib.dumps(value, fmt=fmt, sort_keys=False))
            """
        #expect(try Self.xml.write(Self.sample) == Python.run(script, ["xml"]))
        #expect(try Self.binary.write(Self.sample) == Python.run(script, ["binary"]))
    }

    /// Data lines are at most 76 characters less the indentation, never fewer than 16, at the indentation of
    /// `<data>`, as plistlib writes them at every depth.
    @Test(.enabled(if: Python.isAvailable, "needs python3"), arguments: [0, 1, 3, 7, 9])
    func dataLinesFollowTheIndentation(depth: Int) throws {
        var value = PropertyListValue.data(Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        for _ in 0..<depth { value = .array([value]) }
        let script = """
            import plistlib, sys
            value = bytes((i * 7) % 256 for i in range(200))
            for _ in range(int(sys.argv[1])): value = [value]
            sys.stdout.buffer.write(plistlib.dumps(value, fmt=plistlib.FMT_XML))
            """
        #expect(try Self.xml.write(value) == Python.run(script, [String(depth)]))
    }

    @Test func xmlLayout() throws {
        let text = String(
            decoding: try Self.xml.write(.array([.string("x"), .data(Data()), .bool(false)])), as: UTF8.self)
        #expect(
            text == """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <array>
                \t<string>x</string>
                \t<data>
                \t</data>
                \t<false/>
                </array>
                </plist>

                """)
    }

    /// Values plistlib cannot write (or writes lossily) still read back through Decant's parsers: 128-bit
    /// integers, carriage returns, fractional dates in binary, -0.0 beside 0.0, canonically equivalent strings.
    @Test func readsBackThroughDecantsParser() throws {
        let value = PropertyListValue.array([
            .integer(PropertyListInteger(high: Int64.max, low: UInt64.max)),
            .integer(PropertyListInteger(high: Int64.min, low: 0)),
            .integer(PropertyListInteger(high: -2, low: 5)),
            .string("cr\r\nlf\r"), .real(0.0), .real(-0.0), .string("\u{E9}"), .string("e\u{301}"),
            .date(Date(timeIntervalSinceReferenceDate: 0.25)), .uid(UInt64.max), .uid(300), .uid(70_000),
        ])
        let binary = try Self.binary.write(value)
        #expect(try PlistTestSupport.parse(binary).canonicalJSONText() == value.canonicalJSONText())
        guard case .array(var elements) = value else { return }
        elements.removeLast(3)
        let xml = try Self.xml.write(.array(elements))
        #expect(String(decoding: xml, as: UTF8.self).contains("<string>cr&#13;\nlf&#13;</string>"))
        #expect(
            try PlistTestSupport.parse(xml).canonicalJSONText()
                == PlistWritingSupport.flooringDates(.array(elements)).canonicalJSONText())
    }

    /// Seeded values, with UIDs in binary, read back through Decant's parser; `auto` writes XML unless a UID is
    /// there.
    @Test(arguments: 0..<60 as Range<UInt64>)
    func seededValuesReadBack(seed: UInt64) throws {
        let value = PlistWritingSupport.generated(seed: seed, uids: seed % 2 == 1)
        let binary = try Self.binary.write(value)
        #expect(try PlistTestSupport.parse(binary).canonicalJSONText() == value.canonicalJSONText())
        let auto = try PropertyListWriter().write(value)
        #expect(auto.starts(with: Array("bplist00".utf8)) == PlistWritingSupport.holdsUID(value))
        if !PlistWritingSupport.holdsUID(value) {
            #expect(try PlistTestSupport.parse(Self.xml.write(value)).canonicalJSONText() == value.canonicalJSONText())
        }
    }

    @Test func sortedKeysOrderUTF8Bytes() throws {
        let value = PropertyListValue.dictionary(
            PropertyListDictionary([("b", .bool(true)), ("Z", .bool(true)), ("é", .bool(true)), ("a", .bool(true))]))
        let options = PropertyListWritingOptions(format: .binary, sortedKeys: true)
        guard case .dictionary(let read) = try PlistTestSupport.parse(PropertyListWriter(options: options).write(value))
        else { Issue.record("not a dictionary"); return }
        #expect(read.keys == ["Z", "a", "b", "é"])
    }

    @Test(arguments: ["nul\u{0}", "bell\u{7}", "vt\u{B}", "esc\u{1B}", "\u{FFFE}", "x\u{FFFF}"])
    func charactersXMLCannotCarry(text: String) throws {
        let inValue = PropertyListValue.dictionary(
            PropertyListDictionary([("k", .array([.string("ok"), .string(text)]))]))
        let error = try #require(throws: SerializationError.self) { try Self.xml.write(inValue) }
        #expect(error.code == .encodingFailed)
        #expect(error.codingPath == ["k", "1"])
        let inKey = PropertyListValue.dictionary(PropertyListDictionary([(text, .bool(true))]))
        let keyError = try #require(throws: SerializationError.self) { try Self.xml.write(inKey) }
        #expect(keyError.codingPath == [text])
        // Binary property lists carry any string.
        #expect(try PlistTestSupport.parse(Self.binary.write(inValue)) == inValue)
    }

    @Test func datesOutsideTheYears1To9999AreNotXML() throws {
        let value = PropertyListValue.array([.date(Date(timeIntervalSince1970: 1e12))])
        let error = try #require(throws: SerializationError.self) { try Self.xml.write(value) }
        #expect(error.code == .encodingFailed)
        #expect(error.codingPath == ["0"])
        #expect(try Self.binary.write(value).starts(with: Array("bplist00".utf8)))
    }

    @Test func datesAreWholeSecondsRoundedDown() throws {
        let text = String(
            decoding: try Self.xml.write(
                .array([
                    .date(Date(timeIntervalSince1970: 1.75)), .date(Date(timeIntervalSince1970: -0.5)),
                ])), as: UTF8.self)
        #expect(text.contains("<date>1970-01-01T00:00:01Z</date>"))
        #expect(text.contains("<date>1969-12-31T23:59:59Z</date>"))
    }

    @Test func uidsAreBinaryOnly() throws {
        let value = PropertyListValue.dictionary(PropertyListDictionary([("$top", .uid(1))]))
        let error = try #require(throws: SerializationError.self) { try Self.xml.write(value) }
        #expect(error.code == .encodingFailed)
        #expect(error.codingPath == ["$top"])
        let auto = try PropertyListWriter().write(value)
        #expect(auto.starts(with: Array("bplist00".utf8)))
        #expect(try PlistTestSupport.parse(auto) == value)
    }

    /// Writing never recurses: a value nested 20,000 deep ends with `limitExceeded` at the limit, in both formats;
    /// the limit itself is written and read back with the default parsing options.
    @Test(arguments: [PropertyListWritingOptions.Format.xml, .binary, .auto])
    func depthLimit(format: PropertyListWritingOptions.Format) throws {
        func nested(_ depth: Int) -> PropertyListValue {
            var value = PropertyListValue.string("leaf")
            for _ in 0..<depth { value = .array([value]) }
            return value
        }
        let writer = PropertyListWriter(options: PropertyListWritingOptions(format: format))
        let limit = PropertyListParsingOptions.defaultMaxDepth
        #expect(try PlistTestSupport.parse(writer.write(nested(limit))) == nested(limit))
        let error = try #require(throws: SerializationError.self) { try writer.write(nested(limit + 1)) }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxDepth"))
        #expect(error.codingPath.count == limit)
        let deep = try #require(throws: SerializationError.self) { try writer.write(nested(20_000)) }
        #expect(deep.code == .limitExceeded)
        let lowered = PropertyListWriter(options: PropertyListWritingOptions(format: format, maxDepth: 3))
        #expect(throws: SerializationError.self) { try lowered.write(nested(4)) }
        #expect(try PlistTestSupport.parse(lowered.write(nested(3))) == nested(3))
    }

    /// `init(conformanceValue:)` inverts the canonical form, for seeded values and a form nested 20,000 deep.
    @Test func conformanceFormIsInverted() throws {
        for seed in 0..<100 as Range<UInt64> {
            let value = PlistWritingSupport.generated(seed: seed, uids: true)
            let again = try PropertyListValue(conformanceValue: value.conformanceValue())
            #expect(again.canonicalJSONText() == value.canonicalJSONText(), "seed \(seed)")
        }
        let fractional = PropertyListValue.date(Date(timeIntervalSince1970: 1_000_000_000.25))
        #expect(try PropertyListValue(conformanceValue: fractional.conformanceValue()) == fractional)
        let numbers = try JSONParser().parse(Data(#"{"array":[{"integer":42},{"real":1.5},{"real":"-inf"}]}"#.utf8))
        #expect(
            try PropertyListValue(conformanceValue: numbers)
                == .array([.integer(PropertyListInteger(Int64(42))), .real(1.5), .real(-.infinity)]))
        let depth = 20_000
        let text =
            String(repeating: #"{"array":["#, count: depth) + #"{"bool":true}"# + String(repeating: "]}", count: depth)
        let deep = try PropertyListValue(
            conformanceValue: JSONParser(options: JSONParsingOptions(maxDepth: 100_000)).parse(Data(text.utf8)))
        #expect(deep.canonicalJSONText() == text)
        for bad in [#"{"string":1}"#, #"{"dict":[]}"#, #"{"a":1,"b":2}"#, #"{"colour":"red"}"#, #"{"date":"2024"}"#] {
            let error = try #require(throws: SerializationError.self) {
                try PropertyListValue(conformanceValue: JSONParser().parse(Data(bad.utf8)))
            }
            #expect(error.code == .unsupportedValue, "\(bad)")
        }
    }
}
