import Foundation

/// `--instructions`: the instructions one call of a workload executes, counted by valgrind's callgrind, for Decant
/// and for an in-process baseline. A count that a busy or shared machine does not move, printed per byte (per pixel,
/// per operation) beside the timed rows' MB/s so that a change shows even when the timings are noisy.
///
/// Each side runs in a child process of the bench (the hidden `--count-calls SIDE WORKLOAD CALLS`) under callgrind,
/// once with one call and once with three; the difference over two calls leaves out the preparation of the input and
/// every one-time cost of the first call. The children hash with a fixed seed (`SWIFT_DETERMINISTIC_HASHING`), so
/// that the same build counts the same.
enum InstructionCounts {
    /// The hidden option that makes the bench a child that runs one side of a workload.
    static let childFlag = "--count-calls"

    /// One workload's counts.
    struct Count {
        var workload: String
        var unit: String
        var decant: Double?
        var baseline: Double?
        var baselineName: String?
        var note: String?
    }

    /// The child's side: prepares `name` and runs `side`'s (`decant` or `baseline`) call `calls` times. Returns the
    /// exit status.
    static func runChild(side: String, name: String, calls: Int) -> Int32 {
        guard let workload = Catalog.all.first(where: { $0.name == name }),
            case .timed(let bench)? = try? workload.prepare(.quick)
        else { return 2 }
        let contender: Contender
        switch (side, bench.baseline) {
        case ("decant", _): contender = bench.decant
        case ("baseline", .inProcess(let baseline)): contender = baseline
        default: return 2
        }
        do {
            for _ in 0..<calls { consume(try contender.run()) }
        } catch {
            FileHandle.standardError.write(Data("\(name) \(side): \(error)\n".utf8))
            return 1
        }
        return 0
    }

    /// Counts the timed workloads among `workloads`.
    static func measure(_ workloads: [Workload]) -> [Count] {
        workloads.compactMap { workload -> Count? in
            let per: String
            switch workload.unit {
            case .megabytesPerSecond: per = "instr/byte"
            case .megapixelsPerSecond: per = "instr/pixel"
            case .microsecondsPerOperation, .nanosecondsPerOperation: per = "instr/op"
            case .multipleOfInput, .speedup: return nil
            }
            FileHandle.standardError.write(Data("counting \(workload.name)...\n".utf8))
            var count = Count(workload: workload.name, unit: per, baselineName: workload.baselineName)
            guard case .timed(let bench)? = try? workload.prepare(.quick) else {
                count.note = "not a timed workload here (its input is absent, or it measures itself)"
                return count
            }
            do {
                count.decant = try perUnit(side: "decant", workload.name, quantity: bench.quantity)
                if case .inProcess = bench.baseline {
                    count.baseline = try perUnit(side: "baseline", workload.name, quantity: bench.quantity)
                } else {
                    count.note = "the baseline runs in another process (or not at all) and is not counted"
                }
            } catch {
                count.note = "\(error)"
            }
            return count
        }
    }

    /// (instructions of three calls − instructions of one call) / 2 / `quantity`.
    private static func perUnit(side: String, _ name: String, quantity: Double) throws -> Double {
        let one = try instructions(side: side, name, calls: 1)
        let three = try instructions(side: side, name, calls: 3)
        return Double(three - one) / 2 / quantity
    }

    /// The instructions callgrind counts for a child process running `calls` calls.
    private static func instructions(side: String, _ name: String, calls: Int) throws -> Int {
        let bench = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        // Hashing seeded the same in every child: a dictionary's layout (and so the work of a workload that builds
        // one) would otherwise differ from process to process, and with it the count.
        let text = try valgrind().output(
            ["--tool=callgrind", "--callgrind-out-file=/dev/null", bench, childFlag, side, name, String(calls)],
            environment: ["SWIFT_DETERMINISTIC_HASHING": "1"], from: .standardError)
        // callgrind ends with "==PID== Collected : N".
        guard let line = text.split(separator: "\n").last(where: { $0.contains("Collected :") }),
            let count = Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "")
        else {
            throw BenchError(description: "callgrind printed no instruction count for the \(side) child")
        }
        return count
    }

    /// valgrind, found on `PATH`.
    private static func valgrind() throws -> ExternalTool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/valgrind"
            if FileManager.default.isExecutableFile(atPath: candidate) {
                return ExternalTool(name: "valgrind", path: candidate)
            }
        }
        throw BenchError(description: "valgrind is not installed (apt-get install valgrind)")
    }

    /// The counts as a table, or as one JSON array.
    static func report(_ counts: [Count], json: Bool) -> String {
        if json {
            let objects = counts.map { count -> [String: Any] in
                var object: [String: Any] = ["workload": count.workload, "unit": count.unit]
                object["decant"] = count.decant ?? NSNull()
                object["baseline"] = count.baseline ?? NSNull()
                object["baselineName"] = count.baselineName ?? NSNull()
                object["note"] = count.note ?? NSNull()
                return object
            }
            let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])) ?? Data("[]".utf8)
            return String(decoding: data, as: UTF8.self)
        }
        func number(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "—" }
        var lines = [["workload", "unit", "Decant", "baseline", "vs", "ratio"]]
        for count in counts {
            let ratio = count.decant.flatMap { decant in count.baseline.map { String(format: "%.2f×", $0 / decant) } }
            lines.append([
                count.workload, count.unit, number(count.decant), number(count.baseline), count.baselineName ?? "—",
                ratio ?? "—",
            ])
        }
        var text = Report.grid(lines, numeric: [2, 3, 5])
        let notes = counts.compactMap { count in count.note.map { "  - \(count.workload): \($0)" } }
        if !notes.isEmpty { text += "\nnotes:\n" + notes.joined(separator: "\n") + "\n" }
        return text
    }
}
