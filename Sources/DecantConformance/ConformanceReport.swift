import DecantCore
import Foundation

/// The outcome of one fixture, original or perturbed.
public struct ConformanceResult: Sendable, Hashable {
    /// `area/name` of the fixture.
    public let fixture: String
    /// The perturbation applied, or `nil` for the original message.
    public let perturbation: String?
    /// The module the fixture exercises (the expected serializer's module, else the fixture's area).
    public let module: String
    /// Why it failed, or `nil` when it passed.
    public let failure: String?

    /// Whether it passed.
    public var passed: Bool { failure == nil }

    /// `area/name` or `area/name [perturbation]`.
    public var name: String { perturbation.map { "\(fixture) [\($0)]" } ?? fixture }
}

/// Every result of a run, with per-module summaries in three formats.
public struct ConformanceReport: Sendable {
    /// Every result, in run order.
    public let results: [ConformanceResult]

    /// Creates a report.
    public init(results: [ConformanceResult]) { self.results = results }

    /// The number of results that passed.
    public var passed: Int { results.filter(\.passed).count }
    /// The number of results that failed.
    public var failed: Int { results.count - passed }

    /// The failed results.
    public var failures: [ConformanceResult] { results.filter { !$0.passed } }

    /// Throws when any result failed, or when there is no result at all (nothing was checked): the call a test
    /// makes, so that a test framework records the failures without the kit depending on one.
    ///
    /// ```swift
    /// try ConformanceRunner(registry: registry).run(fixtures).requireAllPassed()
    /// ```
    ///
    /// - Throws: ``ConformanceFailure`` whose description lists every failed result (`area/name [perturbation]`)
    ///   with its reason, one a line.
    public func requireAllPassed() throws(ConformanceFailure) {
        guard !results.isEmpty else {
            throw ConformanceFailure("No conformance result: no fixture was run, so nothing was checked.")
        }
        let failures = self.failures
        guard !failures.isEmpty else { return }
        let lines = failures.map { "  \($0.name): \($0.failure ?? "")" }.joined(separator: "\n")
        throw ConformanceFailure("\(failures.count) of \(results.count) conformance results failed:\n\(lines)")
    }

    /// Per module: (module, fixtures, perturbed runs, passed, failed), sorted by module name.
    public var modules: [(module: String, fixtures: Int, perturbed: Int, passed: Int, failed: Int)] {
        Dictionary(grouping: results, by: \.module).map { module, results in
            let passed = results.filter(\.passed).count
            return (
                module, results.filter { $0.perturbation == nil }.count,
                results.filter { $0.perturbation != nil }.count,
                passed, results.count - passed
            )
        }.sorted { $0.module < $1.module }
    }

    /// A table per module, each failure with its reason, and the closing line `N passed, N failed`.
    public func textTable() -> String {
        var lines = ["module                 fixtures  perturbed   passed   failed"]
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + padding : padding + text
        }
        for row in modules {
            lines.append(
                pad(row.module, 20, left: true) + pad(String(row.fixtures), 11) + pad(String(row.perturbed), 11)
                    + pad(String(row.passed), 9) + pad(String(row.failed), 9))
        }
        let fixtures = results.filter { $0.perturbation == nil }.count
        lines.append(
            pad("total", 20, left: true) + pad(String(fixtures), 11) + pad(String(results.count - fixtures), 11)
                + pad(String(passed), 9) + pad(String(failed), 9))
        if !failures.isEmpty {
            lines.append("")
            lines.append("failures:")
            for failure in failures { lines.append("  \(failure.name): \(failure.failure ?? "")") }
        }
        lines.append("")
        lines.append("\(passed) passed, \(failed) failed")
        return lines.joined(separator: "\n")
    }

    /// One JSON object: `{"passed", "failed", "modules": [{"module", "fixtures", "perturbed", "passed", "failed"}],
    /// "results": [{"fixture", "perturbation", "module", "passed", "failure"}]}`.
    public func json() -> String {
        func string(_ text: String) -> String { JSONStringEscaping.literal(text) }
        let modules = self.modules.map {
            "{\"module\":\(string($0.module)),\"fixtures\":\($0.fixtures),\"perturbed\":\($0.perturbed),"
                + "\"passed\":\($0.passed),\"failed\":\($0.failed)}"
        }
        let results = self.results.map {
            "{\"fixture\":\(string($0.fixture)),\"perturbation\":\($0.perturbation.map(string) ?? "null"),"
                + "\"module\":\(string($0.module)),\"passed\":\($0.passed),"
                + "\"failure\":\($0.failure.map(string) ?? "null")}"
        }
        return "{\"passed\":\(passed),\"failed\":\(failed),\"modules\":[\(modules.joined(separator: ","))],"
            + "\"results\":[\(results.joined(separator: ","))]}"
    }

    /// JUnit XML: one `<testsuite>` per module, one `<testcase>` per result, failures with their reason.
    public func junitXML() -> String {
        func escape(_ text: String) -> String {
            var result = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": result += "&amp;"
                case "<": result += "&lt;"
                case ">": result += "&gt;"
                case "\"": result += "&quot;"
                case "\n": result += "&#10;"
                case _ where scalar.value < 0x20 && scalar != "\t": result += "?"
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"decant conformance\" tests=\"\(results.count)\" failures=\"\(failed)\">\n"
        for module in modules {
            xml += "  <testsuite name=\"\(escape(module.module))\" tests=\"\(module.passed + module.failed)\" "
            xml += "failures=\"\(module.failed)\">\n"
            for result in results where result.module == module.module {
                xml += "    <testcase classname=\"\(escape(module.module))\" name=\"\(escape(result.name))\""
                if let failure = result.failure {
                    xml += ">\n      <failure message=\"\(escape(failure))\"/>\n    </testcase>\n"
                } else {
                    xml += "/>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }
}
