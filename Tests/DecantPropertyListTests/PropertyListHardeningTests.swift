import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantPropertyList

/// OpenStep surrogate escapes, real XML dates, top-level OpenStep data and short binary bodies. Expected values come
/// from Python's `plistlib` (3.11) reading the same bytes, or, for OpenStep (which `plistlib` cannot read), from the
/// OpenStep/GNUstep format rules.
@Suite struct PropertyListHardeningTests {
    private static func openStep(_ text: String) throws -> PropertyListValue {
        try PlistTestSupport.parse(Data(text.utf8), options: PropertyListParsingOptions(format: .openStep))
    }

    // MARK: OpenStep `\U` escapes

    /// A `\U` escape is one UTF-16 code unit, so a character above U+FFFF is a surrogate pair of two escapes.
    @Test(arguments: [
        (#""\UD83D\UDE00""#, "\u{1F600}"),
        (#""\Ud83d\Ude00""#, "\u{1F600}"),
        (#""a\UD83D\UDE00b\UD834\UDD1E""#, "a\u{1F600}b\u{1D11E}"),
        (#""\UDBFF\UDFFF""#, "\u{10FFFF}"),
        (#""\U00e9\U20AC""#, "\u{E9}\u{20AC}"),
        (#""\UFFFD""#, "\u{FFFD}"),
    ])
    func surrogatePairEscapesJoinIntoOneScalar(text: String, expected: String) throws {
        #expect(try Self.openStep(text) == .string(expected))
        #expect(
            try Self.openStep("{ k = \(text); }") == .dictionary(PropertyListDictionary([("k", .string(expected))])))
    }

    /// A lone surrogate cannot be a Unicode scalar: it is an error, as an unpaired surrogate in a binary UTF-16
    /// string is (never a silent U+FFFD).
    @Test(arguments: [
        #""\UD83D""#, #""\UDE00""#, #""\UD83Dx""#, #""\UD83D\U0041""#, #""\UD83D\n""#, #""\UDE00\UD83D""#,
        #""\UD83D\UD83D\UDE00""#,
    ])
    func loneSurrogateEscapesAreErrors(text: String) {
        let error = #expect(throws: SerializationError.self) { try Self.openStep(text) }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains("surrogate") == true)
        #expect(error?.offset == 1)
    }

    // MARK: XML dates

    /// Seconds since 1970 as `plistlib` reads each `<date>` (`calendar.timegm`), or `nil` where `plistlib` raises.
    @Test(
        arguments: [
            ("2020-01-01Z", 1_577_836_800), ("2020-01-01T10Z", 1_577_872_800), ("2020-01-01T10:11Z", 1_577_873_460),
            ("2024-02-29T00:00:00Z", 1_709_164_800), ("2000-02-29T12:00:00Z", 951_825_600),
            ("0001-01-01T00:00:00Z", -62_135_596_800), ("9999-12-31T23:59:59Z", 253_402_300_799),
            ("2020Z", nil), ("2020-01Z", nil), ("2023-02-30T00:00:00Z", nil), ("1900-02-29T00:00:00Z", nil),
            ("2023-01-01T23:59:60Z", nil), ("2023-13-01T00:00:00Z", nil), ("2023-01-01T24:00:00Z", nil),
            ("0000-01-01T00:00:00Z", nil), ("0000-12-31T23:59:59Z", nil), ("2023-00-10T00:00:00Z", nil),
            ("2023-04-31T00:00:00Z", nil), ("2023-01-00T00:00:00Z", nil), ("2023-01-01T00:60:00Z", nil),
            ("2023-06-31T00:00:00Z", nil), ("2023-11-31T00:00:00Z", nil), ("2023-09-31T00:00:00Z", nil),
        ] as [(String, Int?)])
    func xmlDatesAreRealDates(text: String, expected: Int?) throws {
        let data = Data("<plist><date>\(text)</date></plist>".utf8)
        if let expected {
            #expect(try PlistTestSupport.parse(data) == .date(Date(timeIntervalSince1970: Double(expected))))
        } else {
            let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(data) }
            #expect(error?.code == .invalidBody)
            #expect(error?.message.contains("not a real UTC date in the years 1 to 9999") == true)
        }
    }

    /// Binary dates are held to the same years as XML ones: `plistlib` reads -63113904000 (0001-01-01) and
    /// 252423993599 (9999-12-31T23:59:59) seconds since 2001 and rejects one second beyond either.
    @Test(arguments: [
        (-63_113_904_000.0, true), (-63_113_904_001.0, false), (252_423_993_599.0, true), (252_423_993_600.0, false),
    ])
    func binaryDatesShareTheYearRange(seconds: Double, accepted: Bool) throws {
        var object: [UInt8] = [0x33]
        for shift in stride(from: 56, through: 0, by: -8) { object.append(UInt8(seconds.bitPattern >> shift & 0xFF)) }
        let data = PlistTestSupport.binaryPlist([object])
        if accepted {
            #expect(try PlistTestSupport.parse(data) == .date(Date(timeIntervalSinceReferenceDate: seconds)))
        } else {
            let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(data) }
            #expect(error?.code == .invalidBody)
            #expect(error?.message.contains("years 1 to 9999") == true)
        }
    }

    // MARK: Top-level OpenStep data

    @Test(
        arguments: [
            ("<0fbd7761>", [0x0F, 0xBD, 0x77, 0x61]), ("  <0f bd\n77 61>\n", [0x0F, 0xBD, 0x77, 0x61]),
            ("<ABCDEF>", [0xAB, 0xCD, 0xEF]), ("<>", []), ("// data\n<00>", [0x00]),
        ] as [(String, [UInt8])])
    func topLevelOpenStepDataIsData(text: String, bytes: [UInt8]) throws {
        #expect(PropertyListParser.detectFormat(of: Data(text.utf8)) == .openStep)
        #expect(try PlistTestSupport.parse(Data(text.utf8)) == .data(Data(bytes)))
    }

    @Test func topLevelOpenStepDataInUTF16IsData() throws {
        let body = Data([0xFE, 0xFF] + Array("<0fbd>".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        #expect(PropertyListParser.detectFormat(of: body) == .openStep)
        #expect(try PlistTestSupport.parse(body) == .data(Data([0x0F, 0xBD])))
    }

    @Test(arguments: [
        "<plist><true/></plist>", "<?xml version=\"1.0\"?><plist><true/></plist>", "<!DOCTYPE plist><plist/>",
        "<dict/>", "<array/>", "<data>AAAA</data>", "<date>2020-01-01Z</date>", "<false/>", " \n<plist/>",
    ])
    func markupIsStillXML(text: String) {
        #expect(PropertyListParser.detectFormat(of: Data(text.utf8)) == .xml)
    }

    @Test func unclosedTopLevelOpenStepDataIsAnError() {
        let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(Data("<0fbd7761".utf8)) }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains("not closed with '>'") == true)
    }

    // MARK: Short binary bodies

    /// `bplist` magic is binary however short the body; below 41 bytes (header, one object, trailer) it is an error
    /// that says so, never a string or another format. (`plistlib` also rejects each: "Invalid file".)
    @Test(arguments: [
        Array("bplist".utf8), Array("bplist0".utf8), Array("bplist00".utf8), Array("bplist00hello".utf8),
        Array("bplist00".utf8) + [UInt8](repeating: 0, count: 32), Array("bplist00".utf8) + [0x09] + [0, 0, 0],
    ])
    func shortBinaryBodiesAreErrors(bytes: [UInt8]) {
        let data = Data(bytes)
        #expect(PropertyListParser.detectFormat(of: data) == .binary)
        let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(data) }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains("\(bytes.count) bytes long, shorter than the 41 bytes") == true)
        #expect(error?.offset == bytes.count)
        let serializer = PropertyListResponseSerializer()
        let response = PropertyListDecodingTests.response(type: "application/x-plist", body: data)
        let served = #expect(throws: SerializationError.self) { try serializer.serialize(response) }
        #expect(served?.code == .invalidBody)
    }
}
