import Foundation

/// A goal for one workload, from the project's issues (the first performance issue and its round 2, the plugin,
/// streaming and image issues).
struct Target {
    /// The workload it applies to.
    var workload: String
    /// How it reads, such as `ratio ≥ 7×`.
    var description: String
    /// Whether a row meets it.
    var isMet: (Row) -> Bool
    /// The measured quantity it checks, for the line printed.
    var measured: (Row) -> String

    /// The ratio to the baseline at least `minimum`.
    static func ratio(_ workload: String, atLeast minimum: Double) -> Target {
        Target(
            workload: workload, description: "ratio ≥ \(Report.format(minimum))×",
            isMet: { ($0.ratio ?? 0) >= minimum }, measured: { $0.ratio.map { Report.format($0) + "×" } ?? "n/a" })
    }

    /// At least `minimum` of the workload's unit on Decant's side (MB/s, MP/s).
    static func rate(_ workload: String, atLeast minimum: Double) -> Target {
        Target(
            workload: workload, description: "Decant ≥ \(Report.format(minimum))",
            isMet: { ($0.decant ?? 0) >= minimum }, measured: { $0.decant.map(Report.format) ?? "n/a" })
    }

    /// Every target.
    static var all: [Target] {
        [
            .ratio("json.parse.twitter", atLeast: 7), .ratio("json.parse.citm", atLeast: 7),
            .ratio("json.parse.canada", atLeast: 18), .ratio("json.parse.1kb", atLeast: 7),
            .ratio("json.walk.twitter", atLeast: 10), .ratio("json.walk.citm", atLeast: 10),
            .ratio("json.walk.canada", atLeast: 10), .ratio("json.walk.twitter.simdjson", atLeast: 0.7),
            .ratio("json.walk.citm.simdjson", atLeast: 0.7),
            .ratio("json.decodable.twitter", atLeast: 4.5), .ratio("json.decodable.1kb", atLeast: 3),
            Target(
                workload: "registry.path.1kb", description: "registry overhead over the bare parser ≤ 5%",
                isMet: { row in row.ratio.map { 1 / $0 - 1 <= 0.05 } ?? false },
                measured: { row in row.ratio.map { Report.format((1 / $0 - 1) * 100) + "%" } ?? "n/a" }),
            Target(
                workload: "registry.path.1kb.prepared", description: "prepared serializer over the bare parser ≤ 2%",
                isMet: { row in row.ratio.map { 1 / $0 - 1 <= 0.02 } ?? false },
                measured: { row in row.ratio.map { Report.format((1 / $0 - 1) * 100) + "%" } ?? "n/a" }),
            .ratio("string.utf8", atLeast: 3), .ratio("string.windows1252", atLeast: 3),
            .ratio("plist.binary", atLeast: 3), .ratio("plist.xml", atLeast: 10),
            .ratio("plist.encode.xml", atLeast: 3), .ratio("plist.encode.binary", atLeast: 3),
            .ratio("xml.sax", atLeast: 3), .ratio("xml.sax.delegate", atLeast: 1),
            .ratio("xml.sax.spans.expat", atLeast: 1), .ratio("xml.dom", atLeast: 3),
            .ratio("xml.dom.pugixml", atLeast: 0.5),
            Target(
                workload: "memory.xml.dom", description: "XMLTree peak RSS ≤ 3× the body",
                isMet: { ($0.decant ?? .infinity) <= 3 },
                measured: { $0.decant.map { Report.format($0) + "×" } ?? "n/a" }),
            .ratio("image.png", atLeast: 1.3), .ratio("image.photo.png", atLeast: 1.3), .ratio("image.ico", atLeast: 1),
            .ratio("image.photo.jpeg.nosimd", atLeast: 1), .ratio("image.photo.jpeg.444.nosimd", atLeast: 1),
            .ratio("image.photo.jpeg", atLeast: 1 / 1.5), .ratio("image.photo.jpeg.progressive", atLeast: 1 / 1.5),
            .ratio("image.photo.tiff.lzw", atLeast: 1 / 1.2), .ratio("image.photo.tiff.deflate", atLeast: 1 / 1.2),
            .ratio("inflate.photo.png", atLeast: 1.5),
            .ratio("plugin.cbor", atLeast: 10), .ratio("plugin.cbor.json", atLeast: 1),
            .ratio("plugin.msgpack", atLeast: 10), .ratio("plugin.msgpack.json", atLeast: 1),
            .ratio("plugin.cbor.encode", atLeast: 1), .ratio("plugin.msgpack.encode", atLeast: 1),
            .rate("plugin.multipart", atLeast: 1000),
            .ratio("stream.ndjson", atLeast: 10), .rate("stream.sse", atLeast: 1000),
            Target(
                workload: "memory.canada", description: "peak RSS ≤ 4× the input",
                isMet: { ($0.decant ?? .infinity) <= 4 },
                measured: { $0.decant.map { Report.format($0) + "×" } ?? "n/a" }),
        ]
    }
}

/// Prints rows as a table or as JSON.
enum Report {
    /// `lines` (the first one the header) as aligned columns, two spaces apart, a rule under the header, and the
    /// columns in `numeric` aligned to the right.
    static func grid(_ lines: [[String]], numeric: Set<Int>) -> String {
        let columns = lines.first?.count ?? 0
        let widths = (0..<columns).map { column in lines.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for (index, line) in lines.enumerated() {
            let cells = line.indices.map { column in
                pad(line[column], to: widths[column], right: numeric.contains(column))
            }
            text += cells.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
            if index == 0 { text += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
        }
        return text
    }

    /// The table, its notes and one line per target of the workloads that ran.
    static func table(_ rows: [Row]) -> String {
        let header = ["workload", "unit", "Decant", "baseline", "baseline name", "ratio", "spread D/B", "rounds"]
        var lines: [[String]] = [header]
        for row in rows {
            if row.skipped != nil {
                lines.append([row.workload, row.unit.rawValue, "skipped", "", "", "", "", ""])
                continue
            }
            lines.append([
                row.workload, row.unit.rawValue, row.decant.map(format) ?? "n/a", row.baseline.map(format) ?? "—",
                row.baselineName ?? "—", row.ratio.map { format($0) + "×" } ?? "—",
                percent(row.spread) + "/" + percent(row.baselineSpread), String(row.rounds),
            ])
        }
        var text = grid(lines, numeric: [2, 3, 5, 7])
        let notes = rows.flatMap { row in
            (row.skipped.map { ["\(row.workload) skipped: \($0)"] } ?? []) + row.notes
        }
        if !notes.isEmpty {
            text += "\nnotes:\n" + notes.map { "  - " + $0 }.joined(separator: "\n") + "\n"
        }
        let ran = Dictionary(rows.map { ($0.workload, $0) }, uniquingKeysWith: { first, _ in first })
        let targets = Target.all.filter { ran[$0.workload] != nil }
        if !targets.isEmpty {
            text += "\ntargets:\n"
            for target in targets {
                let row = ran[target.workload]!
                let verdict: String
                if let skipped = row.skipped {
                    verdict = "NOT MEASURED (\(skipped))"
                } else {
                    verdict = (target.isMet(row) ? "met" : "NOT MET") + " (\(target.measured(row)))"
                }
                text += "  \(target.workload): \(target.description): \(verdict)\n"
            }
        }
        return text
    }

    /// One JSON array, an object per row.
    static func json(_ rows: [Row]) -> String {
        let targets = Dictionary(Target.all.map { ($0.workload, $0) }, uniquingKeysWith: { first, _ in first })
        let objects = rows.map { row in
            var fields: [(String, String)] = [
                ("workload", quote(row.workload)), ("unit", quote(row.unit.rawValue)), ("decant", number(row.decant)),
                ("baseline", number(row.baseline)), ("baselineName", row.baselineName.map(quote) ?? "null"),
                ("ratio", number(row.ratio)), ("spread", number(row.spread)),
                ("baselineSpread", number(row.baselineSpread)), ("rounds", String(row.rounds)),
                ("skipped", row.skipped.map(quote) ?? "null"),
                ("notes", "[" + row.notes.map(quote).joined(separator: ",") + "]"),
            ]
            if let target = targets[row.workload] {
                fields.append(("target", quote(target.description)))
                fields.append(("targetMet", row.skipped == nil ? String(target.isMet(row)) : "null"))
            }
            return "{" + fields.map { quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        }
        return "[\n" + objects.map { "  " + $0 }.joined(separator: ",\n") + "\n]"
    }

    /// A value with 3 significant digits at least, no exponent.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        return String(format: "%.\(decimals)f", value)
    }

    private static func percent(_ value: Double?) -> String {
        value.map { String(format: "%.1f%%", $0 * 100) } ?? "—"
    }

    private static func pad(_ text: String, to width: Int, right: Bool) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }

    private static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        return String(format: "%.6g", value)
    }

    private static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension String {
    /// The string without trailing spaces.
    fileprivate func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
