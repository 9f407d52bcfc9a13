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
            walk(.twitter, name: "json.walk.twitter"),
            walk(.citm, name: "json.walk.citm"),
            walk(.canada, name: "json.walk.canada"),
            walkAgainstSimdjson(.twitter, name: "json.walk.twitter.simdjson"),
            walkAgainstSimdjson(.citm, name: "json.walk.citm.simdjson"),
            walkAgainstSimdjson(.canada, name: "json.walk.canada.simdjson"),
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

    /// `json.walk.*`: the parse, then every value visited as an application reads it (numbers as `Int` when
    /// integral, else `Double`; strings and keys as `String`), against the same walk over `JSONSerialization`'s tree.
    /// Both walks must visit the same number of values and string bytes.
    private static func walk(_ file: Corpora.JSONFile, name: String) -> Workload {
        Workload(
            name: name, unit: .megabytesPerSecond, baselineName: "JSONSerialization + walk",
            summary: "\(file.rawValue).json parsed, then every value read (numbers, strings, keys)"
        ) { _ in
            let data = try Corpora.data(file.relativePath)
            let decant = decantWalk(data)
            let baseline = foundationWalk(data)
            let same = try decant.run() == baseline.run()
            return .timed(
                TimedBench(
                    quantity: Double(data.count), decant: decant, baseline: .inProcess(baseline),
                    note: same ? nil : "\(name): the walks visited different values"))
        }
    }

    /// `json.walk.*.simdjson`: Decant's parse and walk against simdjson's DOM parse and the same walk, run by
    /// `Tools/jsonbench` as a subprocess on the same file when `$DECANT_JSONBENCH` names its binary.
    private static func walkAgainstSimdjson(_ file: Corpora.JSONFile, name: String) -> Workload {
        Workload(
            name: name, unit: .megabytesPerSecond, baselineName: "simdjson DOM + walk",
            summary: "\(file.rawValue).json parsed and walked as json.walk does vs simdjson (Tools/jsonbench)"
        ) { _ in
            let data = try Corpora.data(file.relativePath)
            let path = try Corpora.path(file.relativePath)
            let decant = decantWalk(data)
            let expected = try decant.run()
            guard let tool = JSONBench.tool else {
                return .timed(
                    TimedBench(
                        quantity: Double(data.count), decant: decant,
                        baseline: .none(
                            reason: "\(name): no baseline (set DECANT_JSONBENCH to Tools/jsonbench's binary)")))
            }
            return .timed(
                TimedBench(
                    quantity: Double(data.count), decant: decant,
                    baseline: .external(name: "simdjson DOM + walk") { settings in
                        let result = try JSONBench.run(tool: tool, file: path, seconds: settings.quick ? 0.2 : 1.0)
                        guard walkSummary(values: result.values, stringBytes: result.stringBytes) == expected else {
                            throw BenchError(
                                description: "\(name): simdjson's walk visited \(result.values) values and "
                                    + "\(result.stringBytes) string bytes, not Decant's")
                        }
                        return result.seconds
                    }))
        }
    }

    /// The walk's summary: values visited and string bytes read, as one number both walks must agree on.
    static func walkSummary(values: Int, stringBytes: Int) -> Int { values &* 1_000_003 &+ stringBytes }

    /// Parses `data` with Decant and reads every value.
    static func decantWalk(_ data: Data) -> Contender {
        let parser = JSONParser()
        return Contender(name: "Decant") {
            var stack = [try parser.parse(data)]
            var values = 0
            var stringBytes = 0
            var numbers = 0
            while let value = stack.popLast() {
                values &+= 1
                switch value.kind {
                case .object:
                    for (key, member) in value.members {
                        stringBytes &+= key.utf8.count
                        stack.append(member)
                    }
                case .array:
                    stack.append(contentsOf: value.elements)
                case .string:
                    stringBytes &+= value.stringValue?.utf8.count ?? 0
                case .number:
                    if let integer = value.intValue {
                        numbers &+= integer
                    } else {
                        numbers &+= Int(truncatingIfNeeded: (value.doubleValue ?? 0).bitPattern)
                    }
                case .bool, .null:
                    break
                }
            }
            consume(numbers)  // the numbers are read, not compared: the two trees type booleans differently
            return walkSummary(values: values, stringBytes: stringBytes)
        }
    }

    /// Parses `data` with `JSONSerialization` and reads every value the way code over `Any` does.
    static func foundationWalk(_ data: Data) -> Contender {
        Contender(name: "JSONSerialization + walk") {
            var stack: [Any] = [try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])]
            var values = 0
            var stringBytes = 0
            var numbers = 0
            while let value = stack.popLast() {
                values &+= 1
                if let object = value as? [String: Any] {
                    for (key, member) in object {
                        stringBytes &+= key.utf8.count
                        stack.append(member)
                    }
                } else if let array = value as? [Any] {
                    stack.append(contentsOf: array)
                } else if let string = value as? String {
                    stringBytes &+= string.utf8.count
                } else if let integer = value as? Int {
                    numbers &+= integer
                } else if let double = value as? Double {
                    numbers &+= Int(truncatingIfNeeded: double.bitPattern)
                }
            }
            consume(numbers)  // the numbers are read, not compared: the two trees type booleans differently
            return walkSummary(values: values, stringBytes: stringBytes)
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

/// `Tools/jsonbench` (simdjson's DOM parse and the json.walk walk, in C++), run as a subprocess.
enum JSONBench {
    /// The binary named by `$DECANT_JSONBENCH`, when it is executable.
    static let tool = ExternalTool.named("jsonbench", by: "DECANT_JSONBENCH")

    /// Runs `tool -t seconds file`: its median CPU seconds per parse and walk, and what its walk visited.
    static func run(
        tool: ExternalTool, file: String, seconds: Double
    ) throws -> (seconds: Double, values: Int, stringBytes: Int) {
        // Columns: file bytes runs median_ms values string_bytes numbers
        let line = try tool.output(["-t", String(seconds), file]).split(separator: "\n").first ?? ""
        let fields = line.split(separator: "\t")
        guard fields.count >= 6, let milliseconds = Double(fields[3]), milliseconds > 0, let values = Int(fields[4]),
            let stringBytes = Int(fields[5])
        else { throw BenchError(description: "unexpected jsonbench output: \(line)") }
        return (milliseconds / 1000, values, stringBytes)
    }
}
