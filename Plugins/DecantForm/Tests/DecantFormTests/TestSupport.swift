import DecantConformance
import Foundation
import Testing

/// Helpers of the form tests (a plugin's tests do without DecantTestSupport: they use only what a third party has).
enum FormTestSupport {
    /// The shared corpora (`../shared/corpora`), when present.
    static let corpora = TestCorpora()

    /// One case of `encoding-cases.json`: pairs and the body Python's `urllib.parse.urlencode` writes for them.
    struct EncodingCase: CustomTestStringConvertible, Sendable {
        var name: String
        var pairs: [(String, String)]
        var body: String
        var testDescription: String { name }
    }

    /// The cases `Plugins/DecantForm/encoding_cases.py` wrote, by section (`writer`, `encoder`), read with Foundation's
    /// `JSONSerialization` (not Decant's parser), found by walking up from this file.
    static func encodingCases(_ section: String) -> [EncodingCase] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("encoding-cases.json")
        guard let data = try? Data(contentsOf: url),
            let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = document[section] as? [[String: Any]]
        else {
            // An empty list makes the parameterised tests fail visibly (they expect the cases) rather than crash.
            return []
        }
        return cases.compactMap { entry in
            guard let name = entry["name"] as? String, let body = entry["body"] as? String,
                let pairs = entry["pairs"] as? [[String]]
            else { return nil }
            return EncodingCase(name: name, pairs: pairs.map { ($0[0], $0[1]) }, body: body)
        }
    }

    /// The encoder case named `name`.
    static func encoderCase(_ name: String) -> EncodingCase? {
        encodingCases("encoder").first { $0.name == name }
    }

    /// The bytes of a Python-style literal: ASCII characters as they are, `\xNN` as one byte.
    static func bytes(_ literal: String) -> Data {
        var result: [UInt8] = []
        var utf8 = Array(literal.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "\\"), utf8.first == UInt8(ascii: "x"), utf8.count >= 3,
                let value = UInt8(String(decoding: utf8.dropFirst().prefix(2), as: UTF8.self), radix: 16)
            {
                result.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                result.append(byte)
            }
        }
        return Data(result)
    }
}
