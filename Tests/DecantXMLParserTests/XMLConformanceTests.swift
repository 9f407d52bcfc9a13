import DecantCore
import DecantTestSupport
import DecantXMLParser
import Foundation
import Testing

/// The W3C XML Conformance Test Suite (xmlconf): the standalone, non-validating subset must be accepted or rejected
/// as the suite says, with byte-exact canonical output where the suite has one.
@Suite struct XMLConformanceTests {
    /// One test case of the suite's JSON index.
    struct Case: Sendable, CustomStringConvertible {
        var id: String
        var uri: String
        var expected: String
        var output: String?
        var namespace: Bool
        var type: String
        var description: String { "\(id) (\(uri))" }
    }

    static let root = "xml/xmlconf/xmlconf"

    static func load(_ index: String) -> [Case] {
        guard let url = Corpora.url("xml/xmlconf/" + index), let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let id = object["id"] as? String, let uri = object["uri"] as? String
            else { return nil }
            return Case(
                id: id, uri: uri, expected: object["expected"] as? String ?? "",
                output: object["output"] as? String, namespace: (object["namespace"] as? String) != "no",
                type: object["type"] as? String ?? "")
        }
    }

    /// Cases whose outcome Decant deliberately differs on, each with the clause that justifies it.
    static let exceptions: [String: String] = [:]

    static func run(_ testCase: Case) -> (accepted: Bool, canonical: String?, error: SerializationError?) {
        guard let url = Corpora.url(root + "/" + testCase.uri), let data = try? Data(contentsOf: url) else {
            return (false, nil, nil)
        }
        var options = XMLParsingOptions()
        options.namespaceAware = testCase.namespace
        var writer = XMLCanonicalWriter()
        do {
            try XMLStreamParser(data: data, options: options).forEachEvent { event, _ in writer.write(event) }
            return (true, writer.output, nil)
        } catch {
            return (false, nil, error)
        }
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func standaloneNonValidatingSubset() throws {
        let cases = Self.load("subset_xml10_standalone_nonvalidating.jsonl")
        #expect(cases.count == 1728)
        var passed = 0
        var failed = 0
        var canonicalPassed = 0
        var canonicalFailed = 0
        var failures: [String] = []
        for testCase in cases {
            let (accepted, canonical, error) = Self.run(testCase)
            let ok = accepted == (testCase.expected == "accept")
            if ok || Self.exceptions[testCase.id] != nil {
                passed += ok ? 1 : 0
            }
            if !ok {
                failed += 1
                if Self.exceptions[testCase.id] == nil {
                    failures.append(
                        "\(testCase) expected \(testCase.expected): \(error.map { "\($0.message)" } ?? "accepted")")
                }
            }
            if let output = testCase.output, accepted {
                let expected = Corpora.url(Self.root + "/" + output).flatMap { try? Data(contentsOf: $0) }
                if let expected, Data((canonical ?? "").utf8) == expected {
                    canonicalPassed += 1
                } else {
                    canonicalFailed += 1
                    if Self.exceptions[testCase.id] == nil {
                        failures.append(
                            "\(testCase) canonical output differs:\n  got      \(String(reflecting: canonical ?? ""))\n"
                                + "  expected \(String(reflecting: expected.map { String(decoding: $0, as: UTF8.self) } ?? ""))"
                        )
                    }
                }
            } else if testCase.output != nil {
                canonicalFailed += 1
            }
        }
        print("xmlconf: \(passed) passed, \(failed) failed")
        print("xmlconf canonical: \(canonicalPassed) passed, \(canonicalFailed) failed")
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
    }
}

extension XMLConformanceTests {
    /// Every other file of the suite (XML 1.1, validity, external entities, ...): the parser must finish on each,
    /// accepting or rejecting, without crashing or hanging; a rejection must be one of the parser's own error codes.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func everyOtherFileFinishes() throws {
        let subset = Set(Self.load("subset_xml10_standalone_nonvalidating.jsonl").map(\.id))
        let others = Self.load("tests.jsonl").filter { !subset.contains($0.id) }
        #expect(others.count > 800)
        let codes: Set<SerializationError.Code> = [.invalidBody, .invalidEncoding, .limitExceeded, .unsupportedFeature]
        var accepted = 0
        var rejected = 0
        for testCase in others {
            let (ok, _, error) = Self.run(testCase)
            if ok {
                accepted += 1
            } else if let error {
                rejected += 1
                #expect(codes.contains(error.code), "\(testCase): \(error)")
                #expect(error.offset != nil, "\(testCase)")
            }
        }
        print("xmlconf other files: \(accepted) accepted, \(rejected) rejected, none crashed")
    }
}
