import DecantJSON
import Foundation
import Testing

/// `JSONText`, the public JSON string writer plugins use for their canonical forms. Expected literals from Python:
/// `json.dumps(text, ensure_ascii=False)`.
@Suite struct JSONTextTests {
    static let cases: [(text: String, literal: String)] = [
        ("plain", #""plain""#),
        ("a\"b\\c", #""a\"b\\c""#),
        ("tab\there\nnew\r\u{8}\u{C}\u{0}\u{1F}\u{7F}", "\"tab\\there\\nnew\\r\\b\\f\\u0000\\u001f\u{7F}\""),
        ("café ☃ 😀 /slash", "\"café ☃ 😀 /slash\""),
        ("", #""""#),
    ]

    @Test(arguments: cases)
    func quotesAsPythonsJSONDumpsDoes(text: String, literal: String) throws {
        #expect(JSONText.quoted(text) == literal)
        var string = "["
        JSONText.appendQuoted(text, to: &string)
        #expect(string == "[" + literal)
        var bytes: [UInt8] = [0x5B]
        JSONText.appendQuoted(text, to: &bytes)
        #expect(bytes == Array(("[" + literal).utf8))
        var fromUTF8: [UInt8] = []
        JSONText.appendQuoted(utf8: Array(text.utf8)[...], to: &fromUTF8)
        #expect(fromUTF8 == Array(literal.utf8))
        // What it writes parses back to the text.
        #expect(try JSONParser(options: JSONParsingOptions(allowsFragments: true)).parse(literal).stringValue == text)
    }
}
