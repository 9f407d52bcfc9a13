import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

/// One WPT case: an input and the expected WHATWG serialization, or `nil` for a parse failure.
struct WPTMimeCase: Sendable, CustomTestStringConvertible {
    let file: String
    let input: String
    let output: String?
    var testDescription: String { "\(file): \(input.debugDescription)" }

    static func load(_ file: String) -> [WPTMimeCase] {
        guard let root = Corpora.root,
            let data = try? Data(contentsOf: root.appendingPathComponent("mime/wpt/\(file)")),
            let array = try? JSONSerialization.jsonObject(with: data) as? [Any]
        else { return [] }
        return array.compactMap { element in
            guard let object = element as? [String: Any], let input = object["input"] as? String else { return nil }
            return WPTMimeCase(file: file, input: input, output: object["output"] as? String)
        }
    }
}

@Suite struct MediaTypeTests {
    static let wptCases = WPTMimeCase.load("mime-types.json") + WPTMimeCase.load("generated-mime-types.json")

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func passesEveryWPTParsingCase() {
        #expect(Self.wptCases.count == 955, "expected 74 + 881 WPT cases")
        var failures: [String] = []
        for testCase in Self.wptCases {
            let actual = (try? MediaType(parsing: testCase.input))?.description
            if actual != testCase.output {
                let expected = testCase.output ?? "failure"
                let got = actual ?? "failure"
                failures.append("\(testCase.testDescription): expected \(expected), got \(got)")
            }
        }
        print("WPT mime-types: \(Self.wptCases.count - failures.count) passed, \(failures.count) failed")
        #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
    }

    struct GroupCase: Sendable, CustomTestStringConvertible {
        let input: String
        let groups: [String]
        var testDescription: String { input }
    }

    static let groupCases: [GroupCase] = {
        guard let root = Corpora.root,
            let data = try? Data(contentsOf: root.appendingPathComponent("mime/wpt/mime-groups.json")),
            let array = try? JSONSerialization.jsonObject(with: data) as? [Any]
        else { return [] }
        return array.compactMap { element in
            guard let object = element as? [String: Any], let input = object["input"] as? String,
                let groups = object["groups"] as? [String]
            else { return nil }
            return GroupCase(input: input, groups: groups)
        }
    }()

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func putsEveryWPTGroupInputInExactlyItsGroups() throws {
        #expect(Self.groupCases.count >= 140)
        var failures: [String] = []
        for testCase in Self.groupCases {
            let mediaType = try MediaType(parsing: testCase.input)
            let actual = Set(mediaType.groups.map(\.name))
            if actual != Set(testCase.groups) {
                failures.append("\(testCase.input): expected \(testCase.groups.sorted()), got \(actual.sorted())")
            }
        }
        print("WPT mime-groups: \(Self.groupCases.count - failures.count) passed, \(failures.count) failed")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    @Test(
        arguments: [
            ("Application/Problem+JSON; Charset=UTF-8", "application/problem+json", "json", "UTF-8"),
            ("text/json;charset=\"utf-8\"", "text/json", nil, "utf-8"),
            ("application/vnd.api+json", "application/vnd.api+json", "json", nil),
            ("image/svg+xml", "image/svg+xml", "xml", nil),
            ("application/json", "application/json", nil, nil),
            ("x/+json", "x/+json", "json", nil),
            ("x/json+", "x/json+", nil, nil),
        ] as [(String, String, String?, String?)])
    func exposesEssenceSuffixAndCharset(input: String, essence: String, suffix: String?, charset: String?) throws {
        let mediaType = try MediaType(parsing: input)
        #expect(mediaType.essence == essence)
        #expect(mediaType.suffix == suffix)
        #expect(mediaType.charset == charset)
    }

    @Test func equalityIgnoresParameterOrderAndCharsetCase() throws {
        let a = try MediaType(parsing: "text/plain;charset=UTF-8;format=flowed")
        let b = try MediaType(parsing: "TEXT/Plain; format=flowed; charset=utf-8")
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
    }

    @Test func equalityKeepsOtherValuesCaseSensitiveAndNeverWildcards() throws {
        let flowed = try MediaType(parsing: "text/plain;format=flowed")
        let flowedUpper = try MediaType(parsing: "text/plain;format=Flowed")
        #expect(flowed != flowedUpper)
        let wildcard = try MediaType(parsing: "*/*")
        let json = try MediaType(parsing: "application/json")
        #expect(wildcard != json)
        #expect(try MediaType(parsing: "application/json") != MediaType(parsing: "application/json;charset=utf-8"))
    }

    @Test func hashingIsConsistentWithEqualityAcrossManyOrders() throws {
        // Every permutation of three parameters must hash alike, whatever the hash seed.
        let names = ["a=1", "b=2", "charset=UTF-8"]
        let permutations = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        let types = try permutations.map { order in
            try MediaType(parsing: "x/y;" + order.map { names[$0] }.joined(separator: ";"))
        }
        #expect(Set(types).count == 1)
        var dictionary: [MediaType: Int] = [:]
        for (index, type) in types.enumerated() { dictionary[type, default: 0] += index }
        #expect(dictionary.count == 1)
    }

    @Test func firstDuplicateParameterWinsAndQuotedEscapesAreRemoved() throws {
        let mediaType = try MediaType(parsing: #"text/html;charset=gbk;charset=windows-1255;x="a\"b\\c""#)
        #expect(mediaType.charset == "gbk")
        #expect(mediaType.parameters["x"] == #"a"b\c"#)
        #expect(mediaType.description == #"text/html;charset=gbk;x="a\"b\\c""#)
    }

    @Test(arguments: [
        "application/json",
        "application/json;charset=utf-8",
        "application/json; charset=utf-8",
        "text/plain;format=\"fl owed\"",
        "text/plain ; charset=utf-8",  // OWS before ";" is allowed by RFC 9110
        "text/plain;;charset=utf-8",
        "multipart/form-data; boundary=\"a\\\"b\"",
    ])
    func strictModeAcceptsRFC9110MediaTypes(input: String) throws {
        _ = try MediaType(parsing: input, mode: .strict)
    }

    @Test(arguments: [
        ("application /json", 11),
        ("application/ json", 12),
        ("application/json;charset =utf-8", 24),
        ("application/json;charset=", 25),
        ("application/json;charset=\"utf-8", 31),
        ("application/json;charset=utf-8 ", 31),
        ("application/json;charset=utf-8;charset=latin1", 31),
        ("application/json garbage", 17),
        ("/json", 0),
        ("application", 11),
        ("", 0),
    ])
    func strictModeRejectsWithOffset(input: String, offset: Int) {
        #expect(throws: MediaTypeParsingError.self) { try MediaType(parsing: input, mode: .strict) }
        do {
            _ = try MediaType(parsing: input, mode: .strict)
        } catch {
            #expect(error.offset == offset, "\(error)")
            #expect(error.description.contains("is not a valid media type"))
        }
    }

    @Test func lenientModeToleratesWhatStrictRejects() throws {
        #expect(try MediaType(parsing: "application/json ;charset =utf-8").description == "application/json")
        #expect(try MediaType(parsing: " Text/HTML ").description == "text/html")
    }

    @Test func settingAndRemovingParametersKeepsOrder() throws {
        var mediaType = try MediaType(parsing: "text/plain;a=1;b=2")
        mediaType = mediaType.settingParameter("A", to: "3").settingParameter("c", to: "x y")
        #expect(mediaType.description == "text/plain;a=3;b=2;c=\"x y\"")
        #expect(mediaType.settingParameter("b", to: nil).description == "text/plain;a=3;c=\"x y\"")
        #expect(mediaType.withoutParameters.description == "text/plain")
    }

    @Test func roundTripsThroughCodableAsAString() throws {
        let mediaType = try MediaType(parsing: "application/ld+json;profile=\"http://x/y\"")
        let data = try JSONEncoder().encode([mediaType])
        #expect(String(decoding: data, as: UTF8.self) == #"["application\/ld+json;profile=\"http:\/\/x\/y\""]"#)
        #expect(try JSONDecoder().decode([MediaType].self, from: data) == [mediaType])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([MediaType].self, from: Data(#"["nope"]"#.utf8))
        }
    }
}
