import DecantCore
import Foundation
import Testing

@testable import DecantJSON

@Suite struct JSONParserTests {
    func parse(_ text: String, _ options: JSONParsingOptions = JSONParsingOptions()) throws -> JSONValue {
        try JSONParser(options: options).parse(Data(text.utf8))
    }

    func failure(_ text: String, _ options: JSONParsingOptions = JSONParsingOptions()) -> SerializationError? {
        failure(Data(text.utf8), options)
    }

    func failure(_ data: Data, _ options: JSONParsingOptions = JSONParsingOptions()) -> SerializationError? {
        do {
            _ = try JSONParser(options: options).parse(data)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Values

    @Test func parsesEveryKind() throws {
        let value = try parse(#" {"a": [1, -2.5e3, "x", true, false, null, {}, []], "b": {"c": "d"}} "#)
        #expect(value.kind == .object)
        #expect(value.count == 2)
        #expect(value.keys == ["a", "b"])
        let array = try #require(value["a"])
        #expect(array.count == 8)
        #expect(array[0]?.intValue == 1)
        #expect(array[1]?.doubleValue == -2500)
        #expect(array[1]?.numberValue?.text == "-2.5e3")
        #expect(array[2]?.stringValue == "x")
        #expect(array[3]?.boolValue == true)
        #expect(array[4]?.boolValue == false)
        #expect(array[5]?.isNull == true)
        #expect(array[6]?.kind == .object && array[6]?.count == 0)
        #expect(array[7]?.kind == .array && array[7]?.count == 0)
        #expect(array[8] == nil)
        #expect(array[-1] == nil)
        #expect(value["b"]?["c"]?.stringValue == "d")
        #expect(value["missing"] == nil)
        #expect(array["a"] == nil)
        #expect(value[0] == nil)
    }

    /// A parsed value owns the scanner's tape and its copy of the body: it stays valid after the body and the parser
    /// are gone. Leading whitespace makes the scanner's tape far larger than the value needs, so the value gets an
    /// exact copy instead (the other branch of the hand-over); both must read the same.
    @Test(arguments: [0, 1 << 20])
    func valuesOutliveTheirBody(leadingWhitespace: Int) throws {
        func parsed() throws -> JSONValue {
            let text = String(repeating: " ", count: leadingWhitespace) + #"[1, "a\n", {"k": 2.5}, "\u00e9t\u00e9"]"#
            return try JSONParser().parse(Data(text.utf8))
        }
        let value = try parsed()
        #expect(value.count == 4)
        #expect(value[0]?.intValue == 1)
        #expect(value[1]?.stringValue == "a\n")
        #expect(value[2]?["k"]?.doubleValue == 2.5)
        #expect(value[3]?.stringValue == "\u{E9}t\u{E9}")
        #expect(value.storage.tape.count == 7)
        #expect(value.description == #"[1,"a\n",{"k":2.5},"été"]"#)
    }

    @Test func keepsObjectKeyOrder() throws {
        let value = try parse(#"{"z": 1, "a": 2, "m": 3, "b": 4}"#)
        #expect(value.keys == ["z", "a", "m", "b"])
        #expect(value.objectEntries?.map(\.value.intValue) == [1, 2, 3, 4])
        #expect(value.description == #"{"z":1,"a":2,"m":3,"b":4}"#)
    }

    @Test(arguments: [
        ("1", "1"), ("-0", "-0"), ("\"s\"", "\"s\""), ("true", "true"), ("null", "null"), (" [ ] ", "[]"),
        ("{ }", "{}"), ("[[[]]]", "[[[]]]"), ("[1,[2,[3,{\"a\":[4]}]],5]", "[1,[2,[3,{\"a\":[4]}]],5]"),
    ])
    func writesCompactText(input: String, output: String) throws {
        #expect(try parse(input).description == output)
    }

    @Test func elementsOfMixedArraysAreWalkedInOrder() throws {
        let value = try parse(#"[1, [2, 3], {"a": [4]}, "x", [], 6]"#)
        #expect(value.elements.count == 6)
        #expect(value.elements.map(\.description) == ["1", "[2,3]", #"{"a":[4]}"#, #""x""#, "[]", "6"])
        #expect(value[5]?.intValue == 6)
        #expect(value[3]?.stringValue == "x")
    }

    // MARK: Strings (RFC 8259 §7)

    // Expected values: python3 -c 'import json; print([json.loads(s) for s in [...]])'
    @Test(arguments: [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{c}\n\r\t"),
        (#""\u0041\u00e9\u20AC\uD834\uDD1E""#, "Aé€𝄞"),
        (#""\u0000""#, "\u{0}"),
        (#""plain ascii that is longer than eight bytes""#, "plain ascii that is longer than eight bytes"),
        (#""abc\ndef ghi jkl mno pqr \"stu\" vwx""#, "abc\ndef ghi jkl mno pqr \"stu\" vwx"),
        (#""héllo wörld ünïcödé ✓ 日本語 😀""#, "héllo wörld ünïcödé ✓ 日本語 😀"),
        (#""\u00e9 then plain text after an escape, long enough""#, "é then plain text after an escape, long enough"),
        (#""é\n😀\t日本""#, "é\n😀\t日本"),
        (#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
    ])
    func unescapesStrings(json: String, expected: String) throws {
        let value = try parse(json)
        #expect(value.stringValue?.unicodeScalars.elementsEqual(expected.unicodeScalars) == true)
        // Writing then parsing again gives the same string.
        #expect(try JSONParser().parse(value.jsonData()).stringValue == value.stringValue)
    }

    @Test(arguments: [
        (#""\ud800""#, "high surrogate"), (#""\ud800x""#, "high surrogate"), (#""\ud800\n""#, "high surrogate"),
        (#""\ud800\u0041""#, "high surrogate"), (#""\udc00""#, "low surrogate"), (#""\uDFFF\uD800""#, "low surrogate"),
        (#""\x""#, "Invalid escape"), (#""\u12""#, "four hexadecimal"), (#""\u12G4""#, "four hexadecimal"),
        ("\"a\u{1}b\"", "control character"), ("\"tab\there\"", "control character"), ("\"open", "ends inside"),
        ("\"open\\", "ends inside"), ("\"\\u00", "ends inside"),
    ])
    func rejectsBadStrings(json: String, fragment: String) throws {
        let error = try #require(failure(json))
        #expect(error.code == .invalidBody)
        #expect(error.message.contains(fragment), "\(error.message)")
        #expect(error.serializerID == "json")
    }

    @Test(
        arguments: [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x22, 0xE2, 0x82, 0x22], [0x22, 0x80, 0x22], [0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22],
            [0x22, 0xE2, 0x82],
        ] as [[UInt8]])
    func rejectsInvalidUTF8(bytes: [UInt8]) throws {
        let error = try #require(failure(Data(bytes)))
        #expect(error.code == .invalidEncoding || error.code == .invalidBody)
        #expect(error.offset != nil)
    }

    // MARK: Numbers (RFC 8259 §6)

    @Test(arguments: [
        "01", "-01", "+1", ".5", "1.", "1.e5", "1e", "1e+", "-", "--1", "0x10", "NaN", "-NaN", "Infinity", "-Infinity",
        "1_000", "1.5.2", "[1,]", "[01]", "Inf",
    ])
    func rejectsInvalidNumbers(text: String) {
        #expect(failure(text)?.code == .invalidBody)
    }

    @Test func leadingZeroMessageSaysHowToFixIt() throws {
        let error = try #require(failure("{\"zip\": 012}"))
        #expect(error.message.contains("leading zero"))
        #expect(error.offset == 8)
        #expect(error.message.contains("line 1, column 9"))
    }

    // Expected values: python3 -c 'import json; v = json.loads(T); print(v, type(v))', and Python's int() for
    // the integer checks.
    @Test func keepsNumbersExactly() throws {
        let value = try parse(
            "[18446744073709551617, 1e400, -1e400, 0.10000000000000000000001, 9223372036854775807, "
                + "-9223372036854775808, 9223372036854775808, 576460752303423487, 576460752303423488, -0, 1E2, 1.0]")
        #expect(value[0]?.numberValue?.text == "18446744073709551617")
        #expect(value[0]?.intValue == nil)
        #expect(value[0]?.numberValue?.uint64Value == nil)
        #expect(value[0]?.doubleValue == 18_446_744_073_709_551_617.0)
        #expect(value[0]?.decimalValue == Decimal(string: "18446744073709551617"))
        #expect(value[1]?.numberValue?.text == "1e400")
        #expect(value[1]?.doubleValue == nil, "beyond Double's range: nil, the text is kept")
        #expect(value[2]?.doubleValue == nil)
        #expect(value[1]?.decimalValue == nil)
        #expect(value[3]?.numberValue?.text == "0.10000000000000000000001")
        #expect(value[3]?.doubleValue == 0.1)
        #expect(value[4]?.intValue == Int.max)
        #expect(value[5]?.intValue == Int.min)
        #expect(value[6]?.intValue == nil)
        #expect(value[6]?.numberValue?.uint64Value == 9_223_372_036_854_775_808)
        #expect(value[7]?.intValue == 576_460_752_303_423_487)
        #expect(value[8]?.intValue == 576_460_752_303_423_488)
        #expect(value[9]?.numberValue?.text == "-0")
        #expect(value[9]?.doubleValue?.sign == .minus)
        #expect(value[9]?.intValue == 0)
        #expect(value[10]?.intValue == 100)
        #expect(value[10]?.numberValue?.isInteger == false)
        #expect(value[11]?.intValue == 1)
        #expect(value.description.contains("18446744073709551617,1e400,-1e400,0.10000000000000000000001"))
    }

    @Test func decimalAccessorKeepsDecimalDigits() throws {
        // python3 -c 'from decimal import Decimal; print(Decimal("1234.5678") * 10000)'  -> 12345678.0000
        let value = try parse("[1234.5678, 0.1, -3, 12345678901234567890123456789]")
        #expect(value[0]?.decimalValue == Decimal(string: "1234.5678"))
        #expect(value[0]!.decimalValue! * 10000 == Decimal(12_345_678))
        #expect(value[1]?.decimalValue == Decimal(string: "0.1"))
        #expect(value[2]?.decimalValue == Decimal(-3))
        #expect(value[3]?.decimalValue?.description == "12345678901234567890123456789")
    }

    @Test(arguments: [
        ("1", "1.0", true), ("1", "1e0", true), ("100", "1e2", true), ("0", "-0", true), ("0.5", "5e-1", true),
        ("1", "2", false), ("1.5", "15", false), ("-1", "1", false), ("0.10", "0.1", true), ("1e400", "10e399", true),
    ])
    func numbersCompareByValue(lhs: String, rhs: String, equal: Bool) throws {
        let a = try #require(JSONNumber(lhs))
        let b = try #require(JSONNumber(rhs))
        #expect((a == b) == equal)
        if equal { #expect(a.hashValue == b.hashValue) }
        #expect((try parse(lhs) == parse(rhs)) == equal)
        if equal { #expect(try parse(lhs).hashValue == parse(rhs).hashValue) }
    }

    @Test func numberTextIsValidated() {
        #expect(JSONNumber("12.5e-3") != nil)
        #expect(JSONNumber("012") == nil)
        #expect(JSONNumber(" 1") == nil)
        #expect(JSONNumber("") == nil)
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double(0.1))?.text == "0.1")
        #expect(JSONNumber(UInt64.max).text == "18446744073709551615")
        #expect(JSONNumber(UInt64.max).uint64Value == UInt64.max)
        #expect(JSONNumber(Int64.min).int64Value == Int64.min)
    }

    // MARK: Structure

    @Test(arguments: [
        "[1,]", "[1,,2]", "[,1]", "{\"a\":1,}", "{,}", "{\"a\" 1}", "{\"a\":}", "{a:1}", "{'a':1}", "[1 2]", "[1}",
        "{\"a\":1]", "[", "{", "[1", "{\"a\":1", "]", "}", "1 2", "[] []", "[1] x", "/* c */ 1", "[1] // c", "[tru]",
        "[True]", "[nul]", "[falsy]", "", " ", "\u{FEFF}", "[\"a\"\u{0}]", "[1]\u{0}", "\u{C}[]", "[\u{B}]",
    ])
    func rejectsInvalidStructure(text: String) throws {
        let error = try #require(failure(text))
        #expect([.invalidBody, .invalidEncoding].contains(error.code), "\(text)")
        #expect(error.offset != nil)
    }

    @Test func errorsGiveLineColumnFoundAndExpected() throws {
        let text = "{\n  \"a\": [1, 2,\n    ]\n}"
        let error = try #require(failure(text))
        #expect(error.code == .invalidBody)
        #expect(error.offset == 20)
        #expect(error.message.contains("line 3, column 5"), "\(error.message)")
        #expect(error.message.contains("found ']'"), "\(error.message)")
        #expect(error.message.contains("trailing comma"), "\(error.message)")
    }

    @Test func errorMessagesEmbedAtMostAFewBytesOfTheBody() throws {
        let secret = String(repeating: "s", count: 500)
        let error = try #require(failure("[\"\(secret)\", \"\(secret)\" x]"))
        #expect(error.message.utf8.count < 500)
        #expect(!error.message.contains(String(repeating: "s", count: 41)))
    }

    @Test func errorColumnsCountCharactersNotBytes() throws {
        let error = try #require(failure("[\"é日本\", x]"))
        #expect(error.message.contains("line 1, column 9"), "\(error.message)")
        #expect(error.offset == 13)
    }

    // MARK: Options

    @Test func fragmentsAreAllowedByDefaultAndCanBeRejected() throws {
        #expect(try parse("1").intValue == 1)
        #expect(try parse(" \"s\" ").stringValue == "s")
        let strict = JSONParsingOptions(allowsFragments: false)
        for text in ["1", "\"s\"", "null", "true"] {
            let error = try #require(failure(text, strict))
            #expect(error.code == .invalidBody)
            #expect(error.message.contains("allowsFragments"))
        }
        #expect(try parse("[1]", strict).count == 1)
        #expect(try parse(" {} ", strict).count == 0)
    }

    @Test func removesKeysWithNullValuesInObjectsAtAnyDepthButNotFromArrays() throws {
        let options = JSONParsingOptions(removesKeysWithNullValues: true)
        let text = #"{"a": null, "b": 1, "c": {"d": null, "e": [null, {"f": null, "g": 2}]}, "h": null}"#
        let value = try parse(text, options)
        // What AFNetworking's AFJSONObjectByRemovingKeysWithNullValues gives (null elements of arrays kept).
        #expect(value.description == #"{"b":1,"c":{"e":[null,{"g":2}]}}"#)
        #expect(try parse(#"{"a": null}"#, options).description == "{}")
        #expect(try parse("[null, null]", options).description == "[null,null]")
        #expect(try parse(text).description == #"{"a":null,"b":1,"c":{"d":null,"e":[null,{"f":null,"g":2}]},"h":null}"#)
    }

    @Test func duplicateKeysLastWinsAtTheFirstPosition() throws {
        // python3 -c 'import json; print(json.dumps(json.loads("{\"a\":1,\"b\":2,\"a\":3}"), separators=(",",":")))'
        #expect(try parse(#"{"a":1,"b":2,"a":3}"#).description == #"{"a":3,"b":2}"#)
        #expect(try parse(#"{"a":1,"b":2,"a":3}"#)["a"]?.intValue == 3)
        #expect(try parse(#"{"a":1,"b":2,"a":3}"#).count == 2)
        #expect(try parse(#"{"a":[1,{"x":1,"x":2}],"a":{"y":[3]}}"#).description == #"{"a":{"y":[3]}}"#)
        // An escaped key is the same key.
        #expect(try parse(#"{"é":1,"\u00e9":2}"#).description == #"{"é":2}"#)
        // Different scalars are different keys, even when canonically equivalent (RFC 8259 §8.3).
        #expect(try parse("{\"\u{E9}\":1,\"e\u{301}\":2}").count == 2)
        // Many keys: sorted hashes are used above 16 members.
        let many = (0..<100).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(try parse("{\(many),\"k7\":\"last\"}")["k7"]?.stringValue == "last")
        #expect(try parse("{\(many),\"k7\":\"last\"}").count == 100)
        #expect(try parse("{\(many)}").count == 100)
        // With null removal, the last value decides.
        let both = JSONParsingOptions(removesKeysWithNullValues: true)
        #expect(try parse(#"{"a":1,"a":null}"#, both).description == "{}")
        #expect(try parse(#"{"a":null,"a":1}"#, both).description == #"{"a":1}"#)
    }

    @Test func duplicateKeysCanBeRejected() throws {
        let options = JSONParsingOptions(duplicateKeys: .reject)
        let error = try #require(failure(#"{"a": 1, "b": {"c": 1}, "a": 2}"#, options))
        #expect(error.code == .invalidBody)
        #expect(error.offset == 24)
        #expect(error.message.contains("\"a\" appears twice"), "\(error.message)")
        let many = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(self.failure("{\(many),\"k39\":0}", options)?.code == .invalidBody)
        #expect(try parse("{\(many)}", options).count == 40)
        #expect(try parse(#"{"a":1,"A":2,"a ":3}"#, options).count == 3)
    }

    @Test func maxBytesIsEnforcedBeforeParsing() throws {
        let error = try #require(failure("[1, 2, 3]", JSONParsingOptions(maxBytes: 8)))
        #expect(error.code == .bodyTooLarge)
        #expect(try parse("[1, 2]", JSONParsingOptions(maxBytes: 6)).count == 2)
    }

    // MARK: Depth (RFC 8259 §9)

    @Test func hundredThousandNestedArraysFailCleanly() throws {
        let text = String(repeating: "[", count: 100_000)
        let error = try #require(failure(text))
        #expect(error.code == .limitExceeded)
        #expect(error.offset == 512)
        #expect(error.message.contains("maxDepth"))
        let closed = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(self.failure(closed)?.code == .limitExceeded)
        let objects = String(repeating: "{\"a\":", count: 100_000)
        #expect(self.failure(objects)?.code == .limitExceeded)
    }

    @Test(arguments: [1, 2, 512, 100_000])
    func depthExactlyAtTheLimitIsAccepted(limit: Int) throws {
        let options = JSONParsingOptions(maxDepth: limit)
        let text = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        let value = try parse(text, options)
        #expect(value.kind == .array)
        if limit == 512 { #expect(value.foundationObject() is [Any]) }
        let deeper = "[" + text + "]"
        #expect(failure(deeper, options)?.code == .limitExceeded)
        if limit == 100_000 {
            // Writing, comparing and hashing never recurse either. (`foundationObject()` builds iteratively too, but
            // Swift releases nested arrays recursively, so bridging is tested at the default depth below.)
            #expect(value.jsonData().count == 2 * limit)
            #expect(value == (try parse(text, options)))
            _ = value.hashValue
            let mixed = String(repeating: "{\"a\":[", count: limit / 2) + String(repeating: "]}", count: limit / 2)
            #expect(try parse(mixed, options).jsonData().count == mixed.utf8.count)
        }
    }

    // MARK: Encodings (RFC 8259 §8.1, RFC 4627 §3)

    static let encodingCases: [(String, [UInt8])] = {
        let text = #"{"a":["é",1,"😀"]}"#
        let utf16 = Array(text.utf16)
        let scalars = text.unicodeScalars.map(\.value)
        let be16 = utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let le16 = utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be32 = scalars.flatMap {
            [UInt8($0 >> 24), UInt8(($0 >> 16) & 0xFF), UInt8(($0 >> 8) & 0xFF), UInt8($0 & 0xFF)]
        }
        let le32 = scalars.flatMap {
            [UInt8($0 & 0xFF), UInt8(($0 >> 8) & 0xFF), UInt8(($0 >> 16) & 0xFF), UInt8($0 >> 24)]
        }
        return [
            ("UTF-8", Array(text.utf8)), ("UTF-8 BOM", [0xEF, 0xBB, 0xBF] + Array(text.utf8)),
            ("UTF-16BE", be16), ("UTF-16BE BOM", [0xFE, 0xFF] + be16), ("UTF-16LE", le16),
            ("UTF-16LE BOM", [0xFF, 0xFE] + le16), ("UTF-32BE", be32), ("UTF-32BE BOM", [0, 0, 0xFE, 0xFF] + be32),
            ("UTF-32LE", le32), ("UTF-32LE BOM", [0xFF, 0xFE, 0, 0] + le32),
        ]
    }()

    @Test(arguments: encodingCases)
    func detectsAndTranscodesEncodings(name: String, bytes: [UInt8]) throws {
        let value = try JSONParser().parse(Data(bytes))
        #expect(value.description == #"{"a":["é",1,"😀"]}"#, "\(name)")
    }

    @Test func detectsTwoByteUTF16Fragments() throws {
        #expect(try JSONParser().parse(Data([0x00, 0x31])).intValue == 1)
        #expect(try JSONParser().parse(Data([0x31, 0x00])).intValue == 1)
    }

    @Test func rejectsMalformedUTF16And32() throws {
        // A lone high surrogate in UTF-16LE, an odd length, a code point above U+10FFFF in UTF-32BE.
        let cases: [[UInt8]] = [
            [0x5B, 0x00, 0x22, 0x00, 0x00, 0xD8, 0x22, 0x00, 0x5D, 0x00], [0x5B, 0x00, 0x5D],
            [0, 0, 0, 0x5B, 0, 0x11, 0, 0, 0, 0, 0, 0x5D],
        ]
        for bytes in cases {
            let error = try #require(failure(Data(bytes)))
            #expect(error.code == .invalidEncoding)
        }
        // A syntax error in UTF-16 reports the byte offset in the original body.
        let utf16 = Array("[1,]".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(failure(Data([0xFF, 0xFE] + utf16))?.offset == 2 + 6)
    }

    @Test func stripsAUTF8ByteOrderMark() throws {
        #expect(try JSONParser().parse(Data([0xEF, 0xBB, 0xBF, 0x5B, 0x5D])).description == "[]")
        #expect(failure(Data([0xEF, 0xBB, 0xBF]))?.code == .invalidBody)
        #expect(failure(Data([0xEF, 0xBB, 0xBF, 0x5B, 0x2C, 0x5D]))?.offset == 4)
    }
}
