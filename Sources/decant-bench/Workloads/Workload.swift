/// The unit a workload's results are printed in.
enum Unit: String {
    /// Megabytes (10^6 bytes) of input per second; higher is better.
    case megabytesPerSecond = "MB/s"
    /// Megapixels (10^6 pixels) of output per second; higher is better.
    case megapixelsPerSecond = "MP/s"
    /// Microseconds per operation; lower is better.
    case microsecondsPerOperation = "µs/op"
    /// Nanoseconds per operation; lower is better.
    case nanosecondsPerOperation = "ns/op"
    /// Peak resident memory growth as a multiple of the input size; lower is better.
    case multipleOfInput = "× input"
    /// Throughput with more threads over throughput with one; higher is better.
    case speedup = "× 1 thread"

    /// Whether a larger number is better in this unit.
    var higherIsBetter: Bool {
        switch self {
        case .megabytesPerSecond, .megapixelsPerSecond, .speedup: true
        case .microsecondsPerOperation, .nanosecondsPerOperation, .multipleOfInput: false
        }
    }

    /// The printed value of one call that took `seconds` and handled `quantity` bytes, pixels or operations.
    func value(secondsPerCall seconds: Double, quantity: Double) -> Double {
        switch self {
        case .megabytesPerSecond, .megapixelsPerSecond: quantity / seconds / 1e6
        case .microsecondsPerOperation: seconds / quantity * 1e6
        case .nanosecondsPerOperation: seconds / quantity * 1e9
        case .multipleOfInput, .speedup: seconds
        }
    }
}

/// One side of a timed workload: a name and the code to time. The code returns a number derived from its result
/// (a count, a length), which the runner folds into ``benchSink``.
struct Contender {
    /// What is measured, such as `JSONSerialization`.
    var name: String
    /// One call: the work to time.
    var run: () throws -> Int
}

/// What a workload compares Decant with.
enum Baseline {
    /// Nothing to compare with; `reason` says why (printed as a note).
    case none(reason: String?)
    /// Code timed in this process, interleaved with Decant.
    case inProcess(Contender)
    /// A baseline that exists but cannot run here, such as a Foundation decoder that returns `nil` on Linux.
    case failing(name: String, reason: String)
    /// A tool run as a subprocess on the same input: `measure` returns its seconds per call (it times itself).
    case external(name: String, measure: (RunSettings) throws -> Double)
}

/// A workload ready to time: both sides and how much work one call does.
struct TimedBench {
    /// Bytes of input, pixels of output or operations per call, as the unit needs.
    var quantity: Double
    /// Calls per sample when fixed (the 1 KB object: 10,000); `nil` to calibrate to the sample length.
    var callsPerSample: Int?
    /// Decant's side.
    var decant: Contender
    /// The baseline.
    var baseline: Baseline
    /// A remark printed under the table, such as a check that failed or files left out.
    var note: String?
}

/// A measurement done by the workload itself rather than by the timing loop (memory).
struct DirectResult {
    /// Decant's value, in the workload's unit.
    var decant: Double
    /// The baseline's value, in the workload's unit.
    var baseline: Double?
    /// The baseline's name.
    var baselineName: String?
    /// How many repetitions each value is the median of.
    var rounds: Int
    /// The spread of Decant's repetitions, (max - min) / median.
    var spread: Double?
    /// The spread of the baseline's repetitions.
    var baselineSpread: Double?
    /// A remark printed under the table.
    var note: String?
}

/// What preparing a workload gives.
enum Prepared {
    /// Time both sides in the interleaved loop.
    case timed(TimedBench)
    /// Already measured.
    case direct(DirectResult)
}

/// Thrown while preparing a workload whose input is missing: the workload is skipped with `reason`.
struct Skip: Error {
    /// Why, such as `../shared/corpora/json/nativejson-benchmark/data/twitter.json not found`.
    var reason: String
}

/// A named benchmark. Names are stable: scripts compare them across runs.
struct Workload {
    /// The stable name, such as `json.parse.twitter`.
    var name: String
    /// The unit of the printed values.
    var unit: Unit
    /// The baseline's name as listed by `--list` (the run may report it as failing).
    var baselineName: String?
    /// A one-line description for `--list`.
    var summary: String
    /// Reads or generates the input and builds both sides. Called only for the selected workloads.
    var prepare: (RunSettings) throws -> Prepared
}

/// A failure of a baseline or a helper process, with a sentence saying what happened.
struct BenchError: Error, CustomStringConvertible {
    /// What happened.
    var description: String
}
