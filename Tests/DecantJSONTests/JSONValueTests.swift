import DecantCore
import Foundation
import Testing

@testable import DecantJSON

@Suite struct JSONValueTests {
    /// `intValue` of numbers with a fraction or an exponent: the integer when the value is one and fits, as Python's
    /// `int(Decimal(text))` gives it for an integral value in Int64's range (`None` otherwise).
    @Test(
        arguments: [
            ("3.0", 3), ("-0.0", 0), ("1.5", nil), ("1.50", nil), ("100.000", 100),
            ("9223372036854775807.0", 9_223_372_036_854_775_807), ("9223372036854775808.0", nil),
            ("-9223372036854775808.00", -9_223_372_036_854_775_808), ("1e2", 100), ("1.0e1", 10), ("0.5e1", 5),
            ("123456789012345678.0", 123_456_789_012_345_678), ("-123456789012345678.000", -123_456_789_012_345_678),
            ("0.0001", nil), ("12.000000000000000000001", nil),
        ] as [(String, Int?)])
    func intValueOfNumbersWithAFraction(text: String, expected: Int?) throws {
        let value = try JSONParser().parse(Data("[\(text)]".utf8))
        #expect(value[0]?.intValue == expected, "\(text)")
    }

    @Test func literalsBuildValues() {
        let value: JSONValue = [
            "name": "Ada", "age": 36, "height": 1.65, "admin": true, "manager": nil,
            "tags": ["x", 1, [], [:]], "big": .init(JSONNumber("18446744073709551617")!),
        ]
        #expect(value.keys == ["name", "age", "height", "admin", "manager", "tags", "big"])
        #expect(value["name"]?.stringValue == "Ada")
        #expect(value["age"]?.intValue == 36)
        #expect(value["height"]?.doubleValue == 1.65)
        #expect(value["admin"]?.boolValue == true)
        #expect(value["manager"]?.isNull == true)
        #expect(value["tags"]?.count == 4)
        #expect(value["big"]?.numberValue?.text == "18446744073709551617")
        #expect(
            value.description
                == #"{"name":"Ada","age":36,"height":1.65,"admin":true,"manager":null,"tags":["x",1,[],{}],"#
                + #""big":18446744073709551617}"#)
    }

    @Test func constructorsMatchParsedValues() throws {
        let built = JSONValue.object([
            ("a", .array([1, "two", 3.5, false, nil])), ("b", JSONValue(Int64.max)), ("c", JSONValue(-0.0)),
        ])
        let parsed = try JSONParser().parse(#"{"a":[1,"two",3.5,false,null],"b":9223372036854775807,"c":-0.0}"#)
        #expect(built == parsed)
        #expect(built.hashValue == parsed.hashValue)
        #expect(built.description == parsed.description)
        #expect(JSONValue(Double.infinity).isNull)
        #expect(JSONValue.object([("k", 1), ("j", 2), ("k", 3)]).description == #"{"k":3,"j":2}"#)
    }

    @Test func subtreesOfParsedDocumentsCanBeReused() throws {
        let document = try JSONParser().parse(#"{"user": {"name": "Ada", "langs": ["en", "fr"]}, "n": 1e400}"#)
        let combined: JSONValue = ["who": document["user"]!, "n": document["n"]!]
        #expect(combined.description == #"{"who":{"name":"Ada","langs":["en","fr"]},"n":1e400}"#)
    }

    @Test func objectsCompareWithoutOrderArraysWithOrder() throws {
        let parser = JSONParser()
        #expect(try parser.parse(#"{"a":1,"b":[1,2]}"#) == parser.parse(#"{"b":[1,2],"a":1.0}"#))
        #expect(try parser.parse(#"{"a":1,"b":[1,2]}"#).hashValue == parser.parse(#"{"b":[1,2],"a":1}"#).hashValue)
        #expect(try parser.parse("[1,2]") != parser.parse("[2,1]"))
        #expect(try parser.parse(#"{"a":1}"#) != parser.parse(#"{"a":1,"b":2}"#))
        #expect(try parser.parse(#"{"a":1}"#) != parser.parse(#"{"b":1}"#))
        #expect(try parser.parse("1") != parser.parse("\"1\""))
        #expect(try parser.parse("null") != parser.parse("false"))
        #expect(try parser.parse("true") == true)
        #expect(try parser.parse(#""\u00e9""#) == "é")
        #expect(JSONValue("\u{E9}") != JSONValue("e\u{301}"), "RFC 8259 §8.3: no normalization")
        let set: Set<JSONValue> = [1, 1.0, "1", [1], ["a": 1]]
        #expect(set.count == 4)
    }

    @Test func largeObjectsCompareWithoutOrder() throws {
        let keys = (0..<200).map { "key\($0)" }
        let forward = JSONValue.object(keys.enumerated().map { ($1, JSONValue($0)) })
        let backward = JSONValue.object(keys.enumerated().reversed().map { ($1, JSONValue($0)) })
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        let changed = JSONValue.object(keys.enumerated().map { ($1, JSONValue($0 == 150 ? -1 : $0)) })
        #expect(forward != changed)
        let renamed = JSONValue.object(keys.enumerated().map { ($1 == "key7" ? "other" : $1, JSONValue($0)) })
        #expect(forward != renamed)
    }

    @Test func prettyPrintsAndSortsKeys() throws {
        let value = try JSONParser().parse(#"{"b":[1,{"d":null,"c":"x"}],"a":{},"e":[]}"#)
        #expect(value.jsonData(options: .sortedKeys) == Data(#"{"a":{},"b":[1,{"c":"x","d":null}],"e":[]}"#.utf8))
        // python3 -c 'import json; print(json.dumps(json.loads(T), indent=2, sort_keys=True))'
        let pretty = """
            {
              "a": {},
              "b": [
                1,
                {
                  "c": "x",
                  "d": null
                }
              ],
              "e": []
            }
            """
        #expect(String(decoding: value.jsonData(options: [.prettyPrinted, .sortedKeys]), as: UTF8.self) == pretty)
        #expect(try JSONParser().parse(value.jsonData(options: .prettyPrinted)) == value)
    }

    @Test func writerEscapesOnlyWhatRFC8259Requires() throws {
        let value = JSONValue("q\" b\\ s/ \u{0} \u{1F} \u{7F} é 😀 \n\t\r\u{8}\u{C}")
        // python3 -c 'import json; print(json.dumps(S, ensure_ascii=False))'
        #expect(value.description == #""q\" b\\ s/ \u0000 \u001f "# + "\u{7F}" + #" é 😀 \n\t\r\b\f""#)
        #expect(try JSONParser().parse(value.jsonData()) == value)
    }

    @Test func writesIntegersAtTheInlineBoundaries() throws {
        for integer in [0, 1, -1, 576_460_752_303_423_487, -576_460_752_303_423_488, Int.max, Int.min] {
            let value = JSONValue(integer)
            #expect(value.description == String(integer))
            #expect(value.intValue == integer)
            #expect(try JSONParser().parse(String(integer)).intValue == integer)
        }
    }

    @Test func collectionsWalkWithoutCopying() throws {
        let value = try JSONParser().parse(#"{"a":[10,[20],{"x":30}],"b":"s"}"#)
        #expect(value.members.map(\.key) == ["a", "b"])
        #expect(value.members.count == 2)
        #expect(value["a"]!.elements.map(\.kind) == [.number, .array, .object])
        #expect(value["a"]!.arrayValue?.count == 3)
        #expect(value.elements.isEmpty)
        #expect(value["b"]!.members.isEmpty)
        #expect(value["b"]!.arrayValue == nil)
        #expect(value.objectEntries?.first?.value["x"] == nil)
        #expect(JSONValue.Elements.empty.isEmpty && JSONValue.Members.empty.isEmpty)
    }

    @Test func foundationObjectBridgesLikeJSONSerialization() throws {
        let value = try JSONParser().parse(
            #"{"n":null,"t":true,"i":42,"d":2.5,"big":18446744073709551617,"huge":1e400,"s":"é","#
                + #""a":[1,"x"],"o":{"k":[]}}"#
        )
        let object = try #require(value.foundationObject() as? [String: Any])
        #expect(object["n"] is NSNull)
        #expect(object["t"] as? Bool == true)
        #expect(object["i"] as? Int == 42)
        #expect(object["d"] as? Double == 2.5)
        #expect(object["big"] as? Decimal == Decimal(string: "18446744073709551617"))
        #expect((object["huge"] as? Double)?.isInfinite == true)
        #expect(object["s"] as? String == "é")
        #expect((object["a"] as? [Any])?.count == 2)
        #expect(((object["o"] as? [String: Any])?["k"] as? [Any])?.isEmpty == true)
        #expect(try JSONParser().parse("7").foundationObject() as? Int == 7)
        // The same shape JSONSerialization gives for the same text.
        let text = Data(#"{"a":[1,2.5,"x",null,true],"b":{"c":"d"}}"#.utf8)
        let ours = try JSONParser().parse(text).foundationObject() as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: text) as? NSDictionary
        #expect(ours == theirs)
    }
}
