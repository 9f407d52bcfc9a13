// decant-bench: each workload on Decant and on its baseline, interleaved in one process. See `--help`.
import Foundation

#if DEBUG
    FileHandle.standardError.write(
        Data("warning: debug build; the numbers mean nothing. Use: swift run -c release decant-bench\n".utf8))
#endif

let arguments: Arguments
do throws(Arguments.UsageError) {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("decant-bench: \(error.message)\n\(Arguments.usage)\n".utf8))
    exit(2)
}

let workloads = Catalog.all.filter { arguments.selects($0.name) }

switch arguments.action {
case .help:
    print(Arguments.usage)
case .memoryProbe(let side, let path):
    exit(MemoryWorkloads.runProbe(side: side, path: path))
case .countCalls(let side, let workload, let calls):
    exit(InstructionCounts.runChild(side: side, name: workload, calls: calls))
case .instructions:
    guard !workloads.isEmpty else {
        FileHandle.standardError.write(Data("decant-bench: no workload matches \(arguments.filters)\n".utf8))
        exit(2)
    }
    print(InstructionCounts.report(InstructionCounts.measure(workloads), json: arguments.json), terminator: "")
case .list:
    for workload in workloads {
        let name = workload.name.padding(toLength: 30, withPad: " ", startingAt: 0)
        let unit = workload.unit.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
        print("\(name)\(unit)vs \(workload.baselineName ?? "nothing"): \(workload.summary)")
    }
case .run:
    guard !workloads.isEmpty else {
        FileHandle.standardError.write(Data("decant-bench: no workload matches \(arguments.filters)\n".utf8))
        exit(2)
    }
    let runner = Runner(settings: arguments.quick ? .quick : .full)
    var rows: [Row] = []
    for workload in workloads {
        FileHandle.standardError.write(Data("running \(workload.name)...\n".utf8))
        rows.append(runner.run(workload))
    }
    print(arguments.json ? Report.json(rows) : Report.table(rows), terminator: arguments.json ? "\n" : "")
    if benchSink == 42 { FileHandle.standardError.write(Data("\n".utf8)) }  // keeps the sink observable
}
