import Decant
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Peak memory of one canada.json parse, in a fresh child process per measurement: the bench runs itself with the
/// hidden `--memory-probe SIDE FILE` option, and the child reports how much its peak RSS (`VmHWM`) grew during
/// the parse, after the file was read. The result is that growth as a multiple of the file size.
enum MemoryWorkloads {
    /// The hidden option that makes the bench a probe.
    static let probeFlag = "--memory-probe"

    /// `memory.canada`.
    static var all: [Workload] {
        [
            Workload(
                name: "memory.canada", unit: .multipleOfInput, baselineName: "JSONSerialization",
                summary: "peak RSS growth of one canada.json parse, in a child process, as a multiple of the input",
                prepare: measure)
        ]
    }

    private static func measure(_ settings: RunSettings) throws -> Prepared {
        let path = try Corpora.path(Corpora.JSONFile.canada.relativePath)
        let size = Double(try Corpora.data(Corpora.JSONFile.canada.relativePath).count)
        let repetitions = settings.quick ? 1 : 3
        var decant: [Double] = []
        var foundation: [Double] = []
        for _ in 0..<repetitions {
            decant.append(Double(try probe(side: "decant", path: path).growth) / size)
            foundation.append(Double(try probe(side: "foundation", path: path).growth) / size)
        }
        return .direct(
            DirectResult(
                decant: Statistics.median(decant), baseline: Statistics.median(foundation),
                baselineName: "JSONSerialization", rounds: repetitions, spread: spread(decant),
                baselineSpread: spread(foundation),
                note: "memory.canada: peak RSS growth during the parse over the file size (\(Int(size)) bytes), "
                    + "median of \(repetitions) child processes; spread is (max-min)/median"))
    }

    /// (max - min) / median of `values`, or `nil` for fewer than two values.
    static func spread(_ values: [Double]) -> Double? {
        let middle = Statistics.median(values)
        return values.count > 1 && middle > 0 ? (values.max()! - values.min()!) / middle : nil
    }

    /// What one child process reported.
    struct Probe {
        /// Growth of the peak RSS during the decode, in bytes.
        var growth: Int
        /// Wall time of the decode.
        var seconds: Double
        /// What came out, in words.
        var outcome: String
    }

    /// Runs the bench executable as a probe and returns what it measured.
    static func probe(side: String, path: String) throws -> Probe {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [probeFlag, side, path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: " ", maxSplits: 2)
        guard process.terminationStatus == 0, fields.count == 3, let growth = Int(fields[0]),
            let seconds = Double(fields[1])
        else {
            throw BenchError(description: "memory probe \(side) failed (status \(process.terminationStatus))")
        }
        return Probe(growth: growth, seconds: seconds, outcome: String(fields[2]))
    }

    /// The child's side: reads `path`, decodes it once as `side` says (`decant` or `foundation` for canada.json,
    /// `xml-tree` or `xml-document` for the generated feed of ``XMLWorkloads``,
    /// `hostile-...` for ``HostileWorkloads``), keeps the result alive and prints the growth of the peak RSS in
    /// bytes, the seconds the decode took and what came out. Returns the exit status.
    static func runProbe(side: String, path: String) -> Int32 {
        if side.hasPrefix("stream-"), let bytes = Int(path) {
            // A generated stream: `path` is its size. The baseline is the peak before anything is decoded.
            let before = peakResidentBytes()
            let start = ContinuousClock.now
            guard let outcome = try? StreamingWorkloads.probe(side: side, bytes: bytes) else { return 1 }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print("\(peakResidentBytes() - before) \(seconds) \(outcome)")
            return 0
        }
        if side.hasPrefix("multipart-") {
            // A generated file part: the probe streams the body, reading the file as it goes.
            do {
                print(try MultipartUploadWorkloads.probe(side: side, path: path))
                return 0
            } catch {
                FileHandle.standardError.write(Data("multipart probe \(side): \(error)\n".utf8))
                return 1
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else { return 1 }
        if side.hasPrefix("hostile-") {
            // Decode the first 4 KiB once first, so that the code the decode runs (a few MB of library pages, which
            // count as resident) is loaded before the peak is read: the row then shows what the body costs.
            // The prefix is usually malformed; libxml2 would say so on standard error, which is silenced meanwhile.
            let savedError = dup(2)
            let null = open("/dev/null", O_WRONLY)
            dup2(null, 2)
            _ = HostileWorkloads.decode(side: side, data: Data(data.prefix(4096)))
            dup2(savedError, 2)
            close(null)
            close(savedError)
        }
        let before = peakResidentBytes()
        let start = ContinuousClock.now
        var outcome = "decoded a value"
        var count = 0
        do {
            switch side {
            case "decant":
                let value = try JSONParser().parse(data)
                count = withExtendedLifetime(value) { peakResidentBytes() > 0 ? value.count : 0 }
            case "foundation":
                let object = try JSONSerialization.jsonObject(with: data)
                count = withExtendedLifetime(object) { peakResidentBytes() > 0 ? 1 : 0 }
            case "xml-tree":
                let tree = try XMLTree(parsing: data)
                count = withExtendedLifetime(tree) { peakResidentBytes() > 0 ? tree.nodeCount : 0 }
            case "xml-document":
                #if canImport(FoundationXML) || os(macOS)
                    let document = try XMLDocument(data: data, options: [.nodeLoadExternalEntitiesNever])
                    count = withExtendedLifetime(document) { peakResidentBytes() > 0 ? document.childCount : 0 }
                #else
                    return 2
                #endif
            default:
                guard let result = HostileWorkloads.decode(side: side, data: data) else { return 2 }
                outcome = result.outcome
                count = withExtendedLifetime(result.keepAlive) { peakResidentBytes() > 0 ? 1 : 0 }
            }
        } catch {
            return 1
        }
        let elapsed = ContinuousClock.now - start
        consume(count)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("\(peakResidentBytes() - before) \(seconds) \(outcome)")
        return 0
    }

    /// The process's peak resident set size in bytes: `VmHWM` from `/proc/self/status`, else `ru_maxrss`.
    ///
    /// `VmHWM` first because Linux keeps `ru_maxrss` across `execve`: a child started by the bench would inherit
    /// the parent's peak (hundreds of MB after the other workloads) and show no growth at all.
    static func peakResidentBytes() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.dropFirst("VmHWM:".count).filter(\.isNumber))
        {
            return kilobytes * 1024
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
    }
}
