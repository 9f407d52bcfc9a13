/// The command line.
struct Arguments {
    /// What to do.
    enum Action {
        /// Run the selected workloads.
        case run
        /// Print the workload names.
        case list
        /// Print the usage.
        case help
        /// Be the child process of `memory.canada`.
        case memoryProbe(side: String, path: String)
        /// Count the instructions of the selected workloads under callgrind.
        case instructions
        /// Be the child process of `--instructions`: run one side of a workload `calls` times.
        case countCalls(side: String, workload: String, calls: Int)
    }

    /// What to do.
    var action = Action.run
    /// Substrings selecting workloads; empty selects all.
    var filters: [String] = []
    /// Print one JSON array instead of the table.
    var json = false
    /// The smoke run.
    var quick = false

    /// A usage error: the message, printed with a hint; the exit status is 2.
    struct UsageError: Error {
        var message: String
    }

    /// Parses `arguments` (without the program name).
    init(_ arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": action = .help
            case "--list": action = .list
            case "--json": json = true
            case "--quick": quick = true
            case "--instructions": action = .instructions
            case InstructionCounts.childFlag:
                guard let side = remaining.popFirst(), let workload = remaining.popFirst(),
                    let calls = remaining.popFirst().flatMap({ Int($0) })
                else {
                    throw UsageError(message: "\(InstructionCounts.childFlag) needs a side, a workload and a count")
                }
                action = .countCalls(side: side, workload: workload, calls: calls)
            case "--filter":
                guard let value = remaining.popFirst() else { throw UsageError(message: "--filter needs a value") }
                try addFilters(value)
            case _ where argument.hasPrefix("--filter="):
                try addFilters(String(argument.dropFirst("--filter=".count)))
            case MemoryWorkloads.probeFlag:
                guard let side = remaining.popFirst(), let path = remaining.popFirst() else {
                    throw UsageError(message: "\(MemoryWorkloads.probeFlag) needs a side and a file")
                }
                action = .memoryProbe(side: side, path: path)
            default:
                throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
    }

    private mutating func addFilters(_ value: String) throws(UsageError) {
        let parts = value.split(separator: ",").map(String.init).filter { !$0.isEmpty }
        guard !parts.isEmpty else { throw UsageError(message: "--filter needs a non-empty value") }
        filters += parts
    }

    /// Whether `name` is selected by the filters.
    func selects(_ name: String) -> Bool {
        filters.isEmpty
            || filters.contains { filter in
                // A filter that is a whole workload name selects that workload alone; any other is a substring.
                Catalog.all.contains { $0.name == filter } ? name == filter : name.contains(filter)
            }
    }

    /// The usage text.
    static let usage = """
        usage: decant-bench [--quick] [--filter SUBSTRING]... [--json]
               decant-bench --instructions [--filter SUBSTRING]... [--json]
               decant-bench --list | --help

        Runs each workload on Decant and on its baseline in the same process, interleaved (the two alternate within
        every round, which goes first alternates between rounds, and a sample that follows the other side's starts
        with one untimed call), and prints the medians, the ratio and the spread.

          --filter SUBSTRING  run only workloads whose name contains SUBSTRING, or exactly the workload SUBSTRING
                              names (repeatable, or a comma list)
          --json              print one JSON array of {"workload", "unit", "decant", "baseline", "baselineName",
                              "ratio", "spread", "baselineSpread", "rounds", "skipped", "notes"} instead of the table
          --quick             a fast smoke run: 3 rounds, short samples, 500 calls per sample for the 1 KB object
          --instructions      instead of timing, count the instructions one call executes (Decant and an in-process
                              baseline) under valgrind's callgrind, per byte, pixel or operation: a figure a busy
                              machine does not move. Each side runs in a child process, once with 1 call and once
                              with 3; the difference over 2 calls is counted. Needs valgrind; slow (50× or so)
          --list              print the workload names, units and baselines
          --help              print this text

        Timing: CPU time of the measuring thread (clock_gettime(CLOCK_THREAD_CPUTIME_ID)), steadier than wall time
        on a shared machine. A sample repeats one call until it lasts at least 20 ms (the 1 KB workloads: 10,000
        calls); a workload runs at least 5 rounds, then stops when both medians move less than 2% from the previous
        round, after 8 s, or after 60 rounds. MB/s is 10^6 bytes of input per second, MP/s 10^6 pixels of output per
        second. ratio = baseline time / Decant time: above 1, Decant is faster (memory: baseline footprint / Decant
        footprint). spread = interquartile range / median of the samples, Decant / baseline.

        Inputs: ../shared/corpora beside the package (or $DECANT_CORPORA); workloads whose input is absent are
        skipped with the reason. Image baselines: set $DECANT_IMGBENCH to the imgbench binary built from
        ../shared/tools/imgbench (see its README); it then runs as a subprocess on the same file. XML baselines
        (xml.sax.expat, xml.sax.libxml2, xml.dom.pugixml): set $DECANT_XMLBENCH to the xmlbench binary built from
        ../shared/tools/xmlbench; it parses the same generated feed. simdjson baselines (json.walk.*.simdjson): set
        $DECANT_JSONBENCH to the binary built from Tools/jsonbench (see its README).
        Build in release mode: swift run -c release decant-bench.

        Exit status: 0 on success, 2 on a usage error.
        """
}
