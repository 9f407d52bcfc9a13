import Decant
import DecantCSV
import Foundation

/// Writing CSV with the CSV plugin, against the Swift a user would write for the same rows: each field quoted when
/// it holds a comma, a quote or a line end (`contains(where:)`, quotes doubled with `replacingOccurrences`), fields
/// joined with commas and rows with CRLF. The two start from their own in-memory form of the same rows (a
/// ``CSVTable``; `[[String]]`) and must write the same bytes: the rows hold no field with a space at an end, which
/// Decant quotes and the baseline would not.
enum CSVEncodingWorkloads {
    /// `plugin.csv.encode`.
    static var all: [Workload] {
        [
            Workload(
                name: "plugin.csv.encode", unit: .megabytesPerSecond, baselineName: "String joins + quoting",
                summary: "a 10,000-row, 8-column CSVTable (words, numbers, quoted and non-ASCII fields) to text/csv"
            ) { _ in
                let rows = generatedRows
                let table = CSVTable(header: rows[0], rows: Array(rows.dropFirst()))
                let writer = CSVWriter()
                let decant = Contender(name: "Decant CSVWriter") { try writer.write(table).count }
                let baseline = Contender(name: "String joins + quoting") { joined(rows).utf8.count }
                let body = try writer.write(table)
                let same = body == Data(joined(rows).utf8)
                return .timed(
                    TimedBench(
                        quantity: Double(body.count), decant: decant, baseline: .inProcess(baseline),
                        note: same ? nil : "plugin.csv.encode: Decant and the String code wrote different bytes"))
            }
        ]
    }

    /// The baseline: RFC 4180 quoting and joins over `[[String]]`.
    static func joined(_ rows: [[String]]) -> String {
        rows.map { row in
            row.map { field in
                field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" })
                    ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
            }.joined(separator: ",")
        }.joined(separator: "\r\n") + "\r\n"
    }

    /// A header and 10,000 seeded rows of 8 fields: ids, words, decimals, dates, and about one field in six with a
    /// comma, a quote, a line end or non-ASCII text; about 700 KB of CSV.
    static let generatedRows: [[String]] = {
        var generator = SeededGenerator(seed: 4180)
        let words = ["alpha", "beta", "gamma", "delta", "user", "token", "state", "scope", "value", "name", "city"]
        let odd = ["Smith, J", "says \"hi\"", "two\nlines", "Zürich", "東京", "café crème", "a,b,c", "\"quoted\""]
        func text() -> String {
            if Int.random(in: 0..<6, using: &generator) == 0 { return odd.randomElement(using: &generator)! }
            return (0..<Int.random(in: 1...3, using: &generator)).map { _ in words.randomElement(using: &generator)! }
                .joined(separator: " ")
        }
        let header = ["id", "name", "city", "amount", "date", "note", "tag", "flag"]
        return [header]
            + (0..<10_000).map { index in
                [
                    String(index), text(), text(),
                    String(Double(Int.random(in: 0..<1_000_000, using: &generator)) / 100),
                    "2026-\(1 + index % 12)-\(1 + index % 28)", text(), text(), index % 3 == 0 ? "true" : "false",
                ]
            }
    }()
}
