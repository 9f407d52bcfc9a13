import DecantCore
import Foundation
import Testing

@testable import DecantPropertyList

/// The value model, canonical JSON, and the text formats' details.
@Suite struct PropertyListValueTests {
    @Test(arguments: [
        ("0", "0"), ("-5", "-5"), ("0x1F", "31"), ("0123", "123"), ("+7", "7"),
        ("18446744073709551615", "18446744073709551615"), ("-9223372036854775808", "-9223372036854775808"),
        ("170141183460469231731687303715884105727", "170141183460469231731687303715884105727"),
        ("-170141183460469231731687303715884105728", "-170141183460469231731687303715884105728"),
    ])
    func integersUpTo128Bits(text: String, expected: String) throws {
        let value = try #require(PropertyListNumbers.integer(text))
        #expect(value.description == expected)
    }

    @Test(arguments: ["", "-", "0x", "1.5", "170141183460469231731687303715884105728", "12a"])
    func invalidIntegers(text: String) {
        #expect(PropertyListNumbers.integer(text) == nil)
    }

    @Test func canonicalJSONHasTheCorpusShape() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>z</key><real>0.5</real><key>a</key><array><true/>
            <date>2004-10-26T10:33:33Z</date>
            <data>PGJp bmFy eT4=</data><string>&lt;&#x263A;&amp;&#65;"\t</string></array></dict></plist>
            """
        let value = try PlistTestSupport.parse(Data(xml.utf8))
        #expect(
            value.canonicalJSONText()
                == "{\"dict\":{\"z\":{\"real\":\"0.5\"},\"a\":{\"array\":[{\"bool\":true},"
                + "{\"date\":\"2004-10-26T10:33:33Z\"},"
                + "{\"data_base64\":\"PGJpbmFyeT4=\"},{\"string\":\"<\u{263A}&A\\\"\\t\"}]}}}")
        #expect(PropertyListValue.uid(7).canonicalJSONText() == "{\"uid\":7}")
        #expect(PropertyListValue.real(1e16).canonicalJSONText() == "{\"real\":\"1e+16\"}")
    }

    @Test func dictionaryKeysKeepDocumentOrderAndLastValueWins() throws {
        let text =
            "<plist><dict><key>b</key><integer>1</integer><key>a</key><integer>2</integer>"
            + "<key>b</key><integer>3</integer></dict></plist>"
        let value = try PlistTestSupport.parse(Data(text.utf8))
        guard case .dictionary(let dictionary) = value else { Issue.record("not a dictionary"); return }
        #expect(dictionary.keys == ["b", "a"])
        #expect(dictionary["b"]?.intValue == 3)
    }

    @Test(arguments: [
        "<plist><string>&amp</string></plist>", "<plist><string>a</strin></plist>", "<plist><integer>1</integer>",
        "<plist><foo/></plist>", "<plist><true/><true/></plist>", "<plist><data>!!</data></plist>",
        "<plist><date>2004-13-01T00:00:00Z</date></plist>", "<plist><string>x</string></plist> trailing",
    ])
    func malformedXMLIsRejected(xml: String) {
        let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(Data(xml.utf8)) }
        #expect(error?.code == .invalidBody || error?.code == .unsupportedFeature)
        #expect(error?.message.contains("line 1, column") == true)
    }

    @Test func xmlEncodingsAreDetected() throws {
        let body = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>caf\u{E9}</string></plist>"
        let latin1 = Data(body.unicodeScalars.map { UInt8($0.value) })
        #expect(try PlistTestSupport.parse(latin1) == .string("caf\u{E9}"))
        var utf16 = Data([0xFF, 0xFE])
        for unit in "<plist><string>\u{263A}</string></plist>".utf16 {
            utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        #expect(try PlistTestSupport.parse(utf16) == .string("\u{263A}"))
    }

    @Test func openStepValues() throws {
        let value = try PlistTestSupport.parse(PropertyListSafetyTests.openStepSample)
        #expect(value["name"] == .string("Decant \u{E9}\n"))
        #expect(value["list"]?[2] == .data(Data([0x0F, 0xA1, 0xB2])))
        #expect(value["list"]?[3]?["a"] == .string("b"))
        #expect(value["quoted key"] == .string("x"))
        let strings = try PlistTestSupport.parse(Data("\"greeting\" = \"hi\";\nfarewell = bye;".utf8))
        #expect(strings["farewell"] == .string("bye"))
        let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(Data("{ a = b }\n{".utf8)) }
        #expect(error?.message.contains("line") == true)
    }

    @Test func datesRoundTripThroughText() throws {
        for seconds in [0.0, -1e9, 1e9, 0.25, -0.5] {
            let text = PropertyListDates.iso8601(Date(timeIntervalSince1970: seconds.rounded()))
            let parsed = try #require(PropertyListNumbers.date(text))
            #expect(parsed.timeIntervalSince1970 == seconds.rounded(), "\(text)")
        }
        #expect(PropertyListDates.iso8601(Date(timeIntervalSince1970: 0.25)) == "1970-01-01T00:00:00.25Z")
    }
}
