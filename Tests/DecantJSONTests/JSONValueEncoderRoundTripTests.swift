import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantJSON

/// What `JSONValueEncoder` writes reads back: `JSONValueDecoder` gives the value again, under the same strategies,
/// and Python's `json` reads the same data as from `JSONEncoder`'s text.
@Suite struct JSONValueEncoderRoundTripTests {
    enum Strategies: String, CaseIterable, CustomTestStringConvertible {
        case defaults, snakeCase, secondsSince1970, millisecondsSince1970, iso8601, deferredData, pretty

        var testDescription: String { rawValue }

        var encoding: EncodingOptions {
            switch self {
            case .defaults: EncodingOptions()
            case .snakeCase: EncodingOptions(keyEncodingStrategy: .convertToSnakeCase)
            case .secondsSince1970: EncodingOptions(dateEncodingStrategy: .secondsSince1970)
            case .millisecondsSince1970: EncodingOptions(dateEncodingStrategy: .millisecondsSince1970)
            case .iso8601: EncodingOptions(dateEncodingStrategy: .iso8601)
            case .deferredData: EncodingOptions(dataEncodingStrategy: .deferredToData)
            case .pretty: EncodingOptions(outputFormatting: [.prettyPrinted, .sortedKeys])
            }
        }

        var decoding: DecodingOptions {
            switch self {
            case .defaults, .pretty: DecodingOptions()
            case .snakeCase: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase)
            case .secondsSince1970: DecodingOptions(dateDecodingStrategy: .secondsSince1970)
            case .millisecondsSince1970: DecodingOptions(dateDecodingStrategy: .millisecondsSince1970)
            case .iso8601: DecodingOptions(dateDecodingStrategy: .iso8601)
            case .deferredData: DecodingOptions(dataDecodingStrategy: .deferredToData)
            }
        }
    }

    @Test(arguments: Strategies.allCases)
    func decodingWhatWasEncodedGivesTheValue(_ strategies: Strategies) throws {
        let encoder = JSONValueEncoder(options: strategies.encoding)
        let decoder = JSONValueDecoder(options: strategies.decoding)
        let user = JSONValueEncoderTests.user
        #expect(try decoder.decode(EncodingUser.self, from: encoder.encode(user)) == user)
        let users = [user, user]
        #expect(try decoder.decode([EncodingUser].self, from: encoder.encode(users)) == users)
        // Whole seconds, so that every date strategy keeps them exactly.
        let dates = EncodingDates(
            created: Date(timeIntervalSince1970: 1_714_564_800), updated: nil,
            history: [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -86_400)])
        #expect(try decoder.decode(EncodingDates.self, from: encoder.encode(dates)) == dates)
        let blobs = EncodingBlobs(payload: Data("x/y+z".utf8), empty: Data(), more: [Data([0, 1, 255])])
        #expect(try decoder.decode(EncodingBlobs.self, from: encoder.encode(blobs)) == blobs)
        for value in JSONValueEncoderTests.doubles {
            #expect(try decoder.decode(Double.self, from: encoder.encode(value)).bitPattern == value.bitPattern)
        }
        for value in JSONValueEncoderTests.floats {
            #expect(try decoder.decode(Float.self, from: encoder.encode(value)).bitPattern == value.bitPattern)
        }
        #expect(try decoder.decode([Int].self, from: encoder.encode([Int.min, Int.max])) == [Int.min, Int.max])
        #expect(try decoder.decode(UInt64.self, from: encoder.encode(UInt64.max)) == UInt64.max)
        #expect(try decoder.decode(Int?.self, from: encoder.encode(Int?.none)) == nil)
    }

    /// Python's `json` reads Decant's text as the same data as `JSONEncoder`'s (compared after loading, so numbers
    /// are compared by value).
    @Test(.enabled(if: Python.isAvailable, "needs python3"), arguments: JSONValueEncoderTests.Case.allCases)
    func pythonReadsTheSameDataAsFromJSONEncoder(_ testCase: JSONValueEncoderTests.Case) throws {
        guard let (ours, theirs) = try Self.texts(testCase) else { return }
        let verdict = try Python.run(
            "import json,sys,math\n"
                + "a = json.loads(sys.argv[1]); b = json.loads(sys.argv[2])\n"
                + "print('same' if json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True) else 'different')",
            [ours, theirs])
        #expect(String(decoding: verdict, as: UTF8.self) == "same\n", "\(ours) vs \(theirs)")
    }

    /// The texts of one case of the Foundation comparison, compact, when both encoders write one.
    static func texts(_ testCase: JSONValueEncoderTests.Case) throws -> (String, String)? {
        switch testCase {
        case .user:
            (
                try EncodingOracle.decant(JSONValueEncoderTests.user),
                try EncodingOracle.foundation(JSONValueEncoderTests.user)
            )
        case .acrobatics:
            (try EncodingOracle.decant(ContainerAcrobatics()), try EncodingOracle.foundation(ContainerAcrobatics()))
        case .strings:
            (try EncodingOracle.decant(Self.strings), try EncodingOracle.foundation(Self.strings))
        case .nestedDictionary:
            (try EncodingOracle.decant(Self.nested), try EncodingOracle.foundation(Self.nested))
        default: nil
        }
    }

    static let strings = ["", "\"", "\\", "/", "\u{0}\u{1f}\u{7f}", "\u{8}\u{c}\n\r\t", "\u{2028}", "é", "😀"]
    static let nested: [String: [String: [Double]]] = ["a": ["y": [1.5, 1e300, -0.0, 5e-300], "x": []], "b": [:]]

    /// Every double edge value reads back in Python as the same float (its bits compared with Swift's). Except
    /// `-0.0`: written `-0` as `JSONEncoder` writes it, which Python reads as the integer 0 (Decant's and Foundation's
    /// decoders read it back as `-0.0`; see ``decodingWhatWasEncodedGivesTheValue(_:)``).
    @Test(.enabled(if: Python.isAvailable, "needs python3")) func pythonReadsDoublesExactly() throws {
        let doubles = JSONValueEncoderTests.doubles.filter { !($0 == 0 && $0.sign == .minus) }
        let text = try EncodingOracle.decant(doubles)
        let bits = try Python.run(
            "import json,sys,struct\n"
                + "print(' '.join(str(struct.unpack('<Q', struct.pack('<d', x))[0]) for x in json.loads(sys.argv[1])))",
            [text])
        let expected = doubles.map { String($0.bitPattern) }.joined(separator: " ")
        #expect(String(decoding: bits, as: UTF8.self) == expected + "\n")
    }

    /// `.iso8601WithFractionalSeconds` writes what Python's `datetime.isoformat(timespec='milliseconds')` writes (for
    /// times whose milliseconds are exact in binary: `Date.ISO8601FormatStyle` truncates the rest, where Python
    /// rounds to microseconds first).
    @Test(.enabled(if: Python.isAvailable, "needs python3")) func fractionalSecondsAsPythonWritesThem() throws {
        let seconds = [1_714_564_800.25, 0, 86_399.875, 951_782_400.5, -0.5]
        let dates = seconds.map { Date(timeIntervalSince1970: $0) }
        let ours = try EncodingOracle.decant(
            dates, EncodingOptions(dateEncodingStrategy: .iso8601WithFractionalSeconds))
        let python = try Python.run(
            "import json,sys,datetime\n"
                + "ds = [datetime.datetime.fromtimestamp(float(s), datetime.timezone.utc) for s in sys.argv[1:]]\n"
                + "print(json.dumps([d.isoformat(timespec='milliseconds').replace('+00:00', 'Z') for d in ds],"
                + " separators=(',',':')), end='')",
            seconds.map { String($0) })
        #expect(ours == String(decoding: python, as: UTF8.self))
    }
}
