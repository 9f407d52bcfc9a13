import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantPropertyList

/// `PropertyListValueEncoder` against Foundation's `PropertyListEncoder`: both outputs read by
/// `PropertyListSerialization` to equal objects, and by `PropertyListDecoder` to the model again.
@Suite struct PropertyListValueEncoderTests {
    struct Address: Codable, Equatable, Sendable {
        var street: String
        var postcode: String?
    }

    enum Colour: String, Codable, Sendable { case red, green }

    struct Profile: Codable, Equatable, Sendable {
        var id: Int
        var name: String
        var ratio: Double
        var weight: Float
        var active: Bool
        var joined: Date
        var avatar: Data
        var tags: [String]
        var address: Address
        var nickname: String?
        var scores: [String: Int]
        var colour: Colour
        var homepage: URL
        var small: Int8
        var big: UInt64
        var history: [Address]
        var matrix: [[Double]]
    }

    /// A type that encodes an explicit nil and a nil element.
    struct Explicit: Codable, Equatable, Sendable {
        var missing: Int?
        var list: [Int?]

        enum CodingKeys: String, CodingKey { case missing, list }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(missing, forKey: .missing)
            try container.encode(list, forKey: .list)
        }
    }

    /// A value whose nested member encodes nothing.
    struct Nothing: Encodable, Sendable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct HoldsNothing: Encodable, Sendable {
        var inner = Nothing()
        var after = 1
    }

    static let profile = Profile(
        id: 42, name: "Zoë & <Co>", ratio: 0.1, weight: 0.1, active: true,
        joined: Date(timeIntervalSince1970: 1_700_000_000), avatar: Data([0, 1, 2, 250, 255]), tags: ["a", "b", "a"],
        address: Address(street: "Bahnhofstrasse 1", postcode: nil), nickname: nil, scores: ["x": 1, "y": -2],
        colour: .green, homepage: URL(string: "https://example.com/a?b=c")!, small: -8, big: UInt64.max,
        history: [Address(street: "Old", postcode: "8000"), Address(street: "", postcode: nil)],
        matrix: [[1, 2.5], [], [-0.0, 1e300]])

    static func foundationObject(_ data: Data) throws -> NSObject {
        try #require(try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? NSObject)
    }

    /// The same model through both encoders, in both formats, reads to equal objects.
    @Test(arguments: [PropertyListWritingOptions.Format.xml, .binary])
    func matchesPropertyListEncoder(format: PropertyListWritingOptions.Format) throws {
        let foundation = PropertyListEncoder()
        foundation.outputFormat = format == .xml ? .xml : .binary
        let ours = try PropertyListValueEncoder(outputFormat: format).encode(Self.profile)
        let theirs = try foundation.encode(Self.profile)
        #expect(try Self.foundationObject(ours).isEqual(Self.foundationObject(theirs)))
        #expect(try PropertyListDecoder().decode(Profile.self, from: ours) == Self.profile)
        #expect(try PropertyListValueDecoder().decode(Profile.self, from: ours) == Self.profile)
    }

    @Test func nilIsTheStringNullAsInFoundation() throws {
        let value = Explicit(missing: nil, list: [1, nil])
        let ours = try PropertyListValueEncoder().encode(value)
        let theirs = try PropertyListEncoder().encode(value)
        #expect(try Self.foundationObject(ours).isEqual(Self.foundationObject(theirs)))
        #expect(try PropertyListValueEncoder().encodeValue(value)["missing"] == .string("$null"))
        #expect(try PropertyListDecoder().decode(Explicit.self, from: ours) == value)
        // Synthesized conformances leave nil keys out.
        #expect(try PropertyListValueEncoder().encodeValue(Self.profile)["nickname"] == nil)
    }

    @Test func nestedValueEncodingNothingIsAnEmptyDictionary() throws {
        let ours = try PropertyListValueEncoder().encode(HoldsNothing())
        let theirs = try PropertyListEncoder().encode(HoldsNothing())
        #expect(try Self.foundationObject(ours).isEqual(Self.foundationObject(theirs)))
        let error = try #require(throws: SerializationError.self) { try PropertyListValueEncoder().encode(Nothing()) }
        #expect(error.code == .encodingFailed)
    }

    /// Unlike `PropertyListEncoder`, a top-level scalar is a property list of that value.
    @Test func topLevelScalars() throws {
        #expect(try PropertyListValueEncoder().encodeValue(5) == .integer(PropertyListInteger(Int64(5))))
        #expect(try PlistTestSupport.parse(PropertyListValueEncoder().encode("text")) == .string("text"))
        #expect(throws: (any Error).self) { try PropertyListEncoder().encode(5) }
    }

    /// Keys convert as `JSONEncoder`'s `.convertToSnakeCase` converts them (PropertyListEncoder has no strategy);
    /// `[String: Value]` keys stay.
    @Test func keyStrategyMatchesJSONEncoder() throws {
        var ours = PropertyListValueEncoder()
        ours.keyEncodingStrategy = .convertToSnakeCase
        let json = JSONEncoder()
        json.keyEncodingStrategy = .convertToSnakeCase
        let plist = try #require(try Self.foundationObject(ours.encode(Self.profile)) as? [String: Any])
        let reference = try #require(
            try JSONSerialization.jsonObject(with: json.encode(Self.profile)) as? [String: Any])
        #expect(Set(plist.keys) == Set(reference.keys))
        #expect(plist["scores"] as? [String: Int] == ["x": 1, "y": -2])
        let withCustom = PropertyListValueEncoder(
            keyEncodingStrategy: .custom { path in IndexKey(stringValue: path.last!.stringValue.uppercased()) })
        #expect(try withCustom.encodeValue(Address(street: "s"))["STREET"] == .string("s"))
    }

    struct UsesUserInfo: Encodable, Sendable {
        static let key = CodingUserInfoKey(rawValue: "shout")!
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoder.userInfo[Self.key] as? Bool == true ? "HI" : "hi")
        }
    }

    @Test func userInfoAndOptions() throws {
        let options = EncodingOptions(outputFormatting: [.sortedKeys], userInfo: [UsesUserInfo.key: true])
        let encoder = PropertyListValueEncoder(options: options)
        #expect(try encoder.encodeValue([UsesUserInfo()]) == .array([.string("HI")]))
        guard case .dictionary(let sorted) = try PlistTestSupport.parse(encoder.encode(Self.profile)) else {
            Issue.record("not a dictionary")
            return
        }
        #expect(sorted.keys == sorted.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// A value that nests itself without end.
    struct Endless: Encodable, Sendable {
        var remaining: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if remaining > 0 { try container.encode(Endless(remaining: remaining - 1)) }
        }
    }

    /// A value that nests containers in a loop, without recursing.
    struct NestedContainers: Encodable, Sendable {
        var depth: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for _ in 0..<depth { container = container.nestedUnkeyedContainer() }
        }
    }

    @Test func depthLimit() throws {
        let limit = PropertyListParsingOptions.defaultMaxDepth
        let fits = try PropertyListValueEncoder().encode(Endless(remaining: limit - 1))
        #expect(try PlistTestSupport.parse(fits).canonicalJSONText().hasPrefix(#"{"array":[{"array":["#))
        for value in [Endless(remaining: limit), Endless(remaining: 1_000_000)] {
            let error = try #require(throws: SerializationError.self) { try PropertyListValueEncoder().encode(value) }
            #expect(error.code == .limitExceeded)
            #expect(error.message.contains("maxDepth"))
        }
        let loop = try #require(throws: SerializationError.self) {
            try PropertyListValueEncoder().encode(NestedContainers(depth: 100_000))
        }
        #expect(loop.code == .limitExceeded)
        #expect(try PropertyListValueEncoder(maxDepth: 5).encodeValue(NestedContainers(depth: 4)).isContainer)
    }

    struct Throws: Encodable, Sendable {
        struct Failure: Error {}
        var inner = Inner()
        struct Inner: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws { throw Failure() }
        }
    }

    struct TwoValues: Encodable, Sendable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(1)
            try container.encode(2)
        }
    }

    @Test func errorsCarryThePath() throws {
        let error = try #require(throws: SerializationError.self) {
            try PropertyListValueEncoder().encode(["items": [Throws()]])
        }
        #expect(error.code == .encodingFailed)
        #expect(error.codingPath == ["items", "0", "inner"])
        #expect(error.underlying is Throws.Failure)
        let twice = try #require(throws: SerializationError.self) { try PropertyListValueEncoder().encode(TwoValues()) }
        #expect(twice.code == .encodingFailed)
        // A string XML cannot carry fails when written as XML, and is fine in binary.
        let control = ["k": "bell\u{7}"]
        #expect(throws: SerializationError.self) { try PropertyListValueEncoder(outputFormat: .xml).encode(control) }
        #expect(
            try PropertyListDecoder().decode([String: String].self, from: PropertyListValueEncoder().encode(control))
                == control)
    }
}
