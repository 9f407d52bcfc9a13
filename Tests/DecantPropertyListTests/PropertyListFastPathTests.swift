import DecantCore
import Foundation
import Testing

@testable import DecantPropertyList

/// The edges of the byte-level fast paths in the XML and binary readers. Every expected value is what Python's
/// `plistlib` reads from the same bytes, written as the typed canonical JSON of the conformance corpora.
@Suite struct PropertyListFastPathTests {
    private static func expectPlistlib(_ xml: String, _ expectedJSON: String) throws {
        let value = try PlistTestSupport.parse(Data(xml.utf8))
        #expect(try PlistTestSupport.render(value) == PlistTestSupport.render(jsonText: Data(expectedJSON.utf8)))
    }

    @Test(arguments: [
        // Character data without references goes straight from the text to the string.
        (
            "<plist><string>plain text, no references</string></plist>",
            #"{"string": "plain text, no references"}"#
        ),
        (
            "<plist><string>a &amp; b &lt;c&gt; &quot;q&quot; &apos;s&apos; &#233;&#x1F600;</string></plist>",
            #"{"string": "a & b <c> \"q\" 's' \u00e9\ud83d\ude00"}"#
        ),
        (
            "<plist><array><string>&amp;</string><string>&lt;x</string><string>x&gt;</string><string></string>"
                + "<string/></array></plist>",
            #"{"array": [{"string": "&"}, {"string": "<x"}, {"string": "x>"}, {"string": ""}, {"string": ""}]}"#
        ),
        (
            "<plist><string><![CDATA[<not> & markup]]> and &amp; <![CDATA[]]>end</string></plist>",
            #"{"string": "<not> & markup and & end"}"#
        ),
    ])
    func characterDataWithAndWithoutReferences(xml: String, expected: String) throws {
        try Self.expectPlistlib(xml, expected)
    }

    @Test func whitespaceIsKeptInStringsAndKeysAndTrimmedAroundNumbers() throws {
        try Self.expectPlistlib(
            "<plist><dict><key> spaced key </key><string>  keep  both  </string><key>n</key><integer>\n\t42 </integer>"
                + "<key>r</key><real> -1.5\n</real></dict></plist>",
            #"{"dict": {" spaced key ": {"string": "  keep  both  "}, "n": {"integer": "42"}, "r": {"real": "-1.5"}}}"#)
    }

    @Test func carriageReturnsBecomeLineFeeds() throws {
        try Self.expectPlistlib(
            "<plist><array><string>a\r\nb\rc\n</string><data>\r\n\tAQID\r\n</data></array></plist>",
            #"{"array": [{"string": "a\nb\nc\n"}, {"data_base64": "AQID"}]}"#)
    }

    @Test func bigIntegers() throws {
        try Self.expectPlistlib(
            "<plist><array><integer>9223372036854775807</integer><integer>-9223372036854775808</integer>"
                + "<integer>18446744073709551615</integer><integer>999999999999999999</integer>"
                + "<integer>-999999999999999999</integer><integer>1000000000000000000</integer>"
                + "<integer>170141183460469231731687303715884105727</integer>"
                + "<integer>-170141183460469231731687303715884105728</integer>"
                + "<integer>0x7fffffffffffffff</integer><integer>-0</integer></array></plist>",
            #"{"array": [{"integer": "9223372036854775807"}, {"integer": "-9223372036854775808"}, "#
                + #"{"integer": "18446744073709551615"}, {"integer": "999999999999999999"}, "#
                + #"{"integer": "-999999999999999999"}, {"integer": "1000000000000000000"}, "#
                + #"{"integer": "170141183460469231731687303715884105727"}, "#
                + #"{"integer": "-170141183460469231731687303715884105728"}, "#
                + #"{"integer": "9223372036854775807"}, {"integer": "0"}]}"#)
    }

    @Test func negativeAndLongReals() throws {
        try Self.expectPlistlib(
            "<plist><array><real>-0.5</real><real>-1.25e-3</real><real>-0.0</real><real>-12.34</real>"
                + "<real>-123456789012345</real><real>-1e22</real><real>-1.7976931348623157e308</real>"
                + "<real>-0.10000000000000001</real><real>4.35</real><real>1e23</real></array></plist>",
            #"{"array": [{"real": "-0.5"}, {"real": "-0.00125"}, {"real": "-0.0"}, {"real": "-12.34"}, "#
                + #"{"real": "-123456789012345.0"}, {"real": "-1e+22"}, {"real": "-1.7976931348623157e+308"}, "#
                + #"{"real": "-0.1"}, {"real": "4.35"}, {"real": "1e+23"}]}"#)
    }

    @Test func base64WithLineBreaksAndPadding() throws {
        try Self.expectPlistlib(
            "<plist><array><data>\n\tAQID+vv8/f7/AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygp\n"
                + "\tKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQg==\n\t</data><data>QUJD\r\nRA==</data><data> QQ== </data>"
                + "<data></data></array></plist>",
            #"{"array": [{"data_base64": "AQID+vv8/f7/AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygp"#
                + #"KissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQg=="}, {"data_base64": "QUJDRA=="}, {"data_base64": "QQ=="}, "#
                + #"{"data_base64": ""}]}"#)
    }

    @Test func internedKeysStillRepeatAndCollapseAfterDecoding() throws {
        try Self.expectPlistlib(
            "<plist><dict><key>a</key><integer>1</integer><key>&#97;</key><integer>2</integer>"
                + "<key>b</key><dict><key>a</key><true/></dict></dict></plist>",
            #"{"dict": {"a": {"integer": "2"}, "b": {"dict": {"a": {"bool": true}}}}}"#)
        try Self.expectPlistlib(
            "<plist><array><dict><key>k&amp;v</key><string>1</string></dict>"
                + "<dict><key>k&amp;v</key><string>2</string></dict></array></plist>",
            #"{"array": [{"dict": {"k&v": {"string": "1"}}}, {"dict": {"k&v": {"string": "2"}}}]}"#)
    }

    /// Written by `plistlib.dumps(..., fmt=FMT_BINARY)`, which stores each distinct string once: the keys and
    /// "plain" are shared references, "café" and "naïve" are UTF-16, the emoji a surrogate pair.
    @Test func binarySharedStringsAndUTF16() throws {
        let data = try #require(
            Data(
                base64Encoded:
                    "YnBsaXN0MDDSAQIDC1VpdGVtc1ZzaGFyZWSiBA3UBQYHCAkKCwxUbmFtZVVlbW9qaVVhc2NpaVFuZABjAGEAZgDpZNg93gAAIAB4"
                    + "VXBsYWluE//////////91AUGBwgODwsQZQBuAGEA7wB2AGVQFAAAAAAAAAAAgAAAAAAAAAAIDRMaHSYrMTc5QktRWmNubwAA"
                    + "AAAAAAEBAAAAAAAAABEAAAAAAAAAAAAAAAAAAACA"))
        let value = try PlistTestSupport.parse(data)
        let expected =
            #"{"dict": {"items": {"array": [{"dict": {"name": {"string": "caf\u00e9"}, "#
            + #""emoji": {"string": "\ud83d\ude00 x"}, "ascii": {"string": "plain"}, "n": {"integer": "-3"}}}, "#
            + #"{"dict": {"name": {"string": "na\u00efve"}, "emoji": {"string": ""}, "ascii": {"string": "plain"}, "#
            + #""n": {"integer": "9223372036854775808"}}}]}, "shared": {"string": "plain"}}}"#
        #expect(try PlistTestSupport.render(value) == PlistTestSupport.render(jsonText: Data(expected.utf8)))
        guard case .dictionary(let root) = value, case .array(let items)? = root["items"],
            case .dictionary(let first) = items[0]
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(root.keys == ["items", "shared"])
        #expect(first.keys == ["name", "emoji", "ascii", "n"])
    }

    @Test(
        arguments: [
            [0x61, 0xD8, 0x3D],  // a high surrogate at the end
            [0x61, 0xDE, 0x00, 0x00, 0x41],  // a low surrogate alone
            [0x62, 0xD8, 0x3D, 0x00, 0x41],  // a high surrogate before a non-surrogate
        ] as [[UInt8]])
    func binaryUnpairedSurrogatesAreRejected(object: [UInt8]) {
        let data = PlistTestSupport.binaryPlist([object])
        let error = #expect(throws: SerializationError.self) { try PlistTestSupport.parse(data) }
        #expect(error?.code == .invalidBody)
    }
}
