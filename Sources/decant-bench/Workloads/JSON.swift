import Decant
import Foundation

/// JSON parsing to a tree: Decant's `JSONParser` into `JSONValue` against `JSONSerialization.jsonObject(with:)`.
enum JSONWorkloads {
    /// `json.parse.*`.
    static var all: [Workload] {
        [
            file(.twitter, name: "json.parse.twitter"),
            file(.citm, name: "json.parse.citm"),
            file(.canada, name: "json.parse.canada"),
            Workload(
                name: "json.parse.1kb", unit: .microsecondsPerOperation, baselineName: "JSONSerialization",
                summary: "a ~1 KB order object parsed ×10,000 per sample"
            ) { settings in
                .timed(
                    TimedBench(
                        quantity: 1, callsPerSample: settings.smallObjectCalls, decant: decantParse(APIObject.data),
                        baseline: .inProcess(foundationParse(APIObject.data))))
            },
            Workload(
                name: "json.parse.jsonexamples", unit: .megabytesPerSecond, baselineName: "JSONSerialization",
                summary: "every simdjson-data/jsonexamples/*.json, each parsed once per call", prepare: examples),
        ]
    }

    /// Parses `data` with Decant; the count of the top-level container goes to the sink.
    static func decantParse(_ data: Data) -> Contender {
        let parser = JSONParser()
        return Contender(name: "Decant") { try parser.parse(data).count }
    }

    /// Parses `data` with `JSONSerialization` (fragments allowed, as Decant allows them).
    static func foundationParse(_ data: Data) -> Contender {
        Contender(name: "JSONSerialization") {
            let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return (object as? [String: Any])?.count ?? (object as? [Any])?.count ?? 1
        }
    }

    /// A standard benchmark file.
    private static func file(_ file: Corpora.JSONFile, name: String) -> Workload {
        Workload(
            name: name, unit: .megabytesPerSecond, baselineName: "JSONSerialization",
            summary: "\(file.rawValue).json parsed to a tree"
        ) { _ in
            let data = try Corpora.data(file.relativePath)
            return .timed(
                TimedBench(
                    quantity: Double(data.count), decant: decantParse(data),
                    baseline: .inProcess(foundationParse(data))))
        }
    }

    /// All of `jsonexamples/*.json`; a file either side cannot parse is left out of both, with a note.
    private static func examples(_ settings: RunSettings) throws -> Prepared {
        let urls = try Corpora.files(in: "json/simdjson-data/jsonexamples", suffix: ".json")
        var files: [Data] = []
        var leftOut: [String] = []
        for url in urls {
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            do {
                _ = try decantParse(data).run()
                _ = try foundationParse(data).run()
                files.append(data)
            } catch {
                leftOut.append("\(url.lastPathComponent) (\(String(describing: error).prefix(80)))")
            }
        }
        guard !files.isEmpty else { throw Skip(reason: "no parseable file in jsonexamples") }
        let decant = files.map(decantParse)
        let foundation = files.map(foundationParse)
        let note =
            "\(files.count) files, \(files.reduce(0) { $0 + $1.count }) bytes"
            + (leftOut.isEmpty ? "" : "; left out: " + leftOut.joined(separator: ", "))
        return .timed(
            TimedBench(
                quantity: Double(files.reduce(0) { $0 + $1.count }),
                decant: Contender(name: "Decant") { try decant.reduce(0) { $0 &+ (try $1.run()) } },
                baseline: .inProcess(
                    Contender(name: "JSONSerialization") { try foundation.reduce(0) { $0 &+ (try $1.run()) } }),
                note: "jsonexamples: " + note))
    }
}
