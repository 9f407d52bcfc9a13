/// How long and how often to measure.
struct RunSettings {
    /// Rounds measured at least (one Decant sample and one baseline sample per round).
    var minRounds: Int
    /// Rounds measured at most.
    var maxRounds: Int
    /// The run stops once both medians moved less than this fraction from the previous round.
    var stability: Double
    /// Wall-clock seconds one workload may take once it has its minimum rounds.
    var budgetSeconds: Double
    /// CPU seconds a calibrated sample lasts at least.
    var minSampleSeconds: Double
    /// Calls per sample of the 1 KB workloads (10,000 as the issue asks; fewer with `--quick`).
    var smallObjectCalls: Int
    /// Whether this is the `--quick` smoke run.
    var quick: Bool

    /// The full run: at least 5 rounds, until the medians move less than 2%, at most 8 s per workload.
    static let full = RunSettings(
        minRounds: 5, maxRounds: 60, stability: 0.02, budgetSeconds: 8, minSampleSeconds: 0.02,
        smallObjectCalls: 10_000, quick: false)
    /// The smoke run: 3 rounds, short samples, half a second per workload.
    static let quick = RunSettings(
        minRounds: 3, maxRounds: 3, stability: 1, budgetSeconds: 0.5, minSampleSeconds: 0.002,
        smallObjectCalls: 500, quick: true)
}

/// The result of one workload: what the report prints.
struct Row {
    /// The workload's name.
    var workload: String
    /// The unit of ``decant`` and ``baseline``.
    var unit: Unit
    /// Decant's median, or `nil` when skipped.
    var decant: Double?
    /// The baseline's median, or `nil` when there is none or it failed.
    var baseline: Double?
    /// The baseline's name, or `nil` when there is none.
    var baselineName: String?
    /// Baseline time / Decant time (> 1: Decant is faster; for memory, baseline / Decant footprint).
    var ratio: Double?
    /// Decant's spread: the interquartile range over the median.
    var spread: Double?
    /// The baseline's spread.
    var baselineSpread: Double?
    /// Rounds measured.
    var rounds: Int
    /// Why the workload was skipped, if it was.
    var skipped: String?
    /// Remarks: a failing baseline, files left out, a results check.
    var notes: [String] = []
}

/// Times workloads: Decant and its baseline alternate within each round, in the same process, until the medians are
/// stable or the time budget is spent.
struct Runner {
    /// The measuring settings.
    var settings: RunSettings

    /// Prepares and measures `workload`, reporting progress on standard error.
    func run(_ workload: Workload) -> Row {
        var row = Row(workload: workload.name, unit: workload.unit, baselineName: workload.baselineName, rounds: 0)
        let prepared: Prepared
        do {
            prepared = try workload.prepare(settings)
        } catch let skip as Skip {
            row.skipped = skip.reason
            return row
        } catch {
            row.skipped = "preparing the input failed: \(error)"
            return row
        }
        switch prepared {
        case .direct(let result):
            row.decant = result.decant
            row.baseline = result.baseline
            row.baselineName = result.baselineName
            row.spread = result.spread
            row.baselineSpread = result.baselineSpread
            row.rounds = result.rounds
            // > 1 when Decant is better: a rate over the baseline's, a footprint under it.
            if let baseline = result.baseline, result.decant > 0, baseline > 0 {
                row.ratio = workload.unit.higherIsBetter ? result.decant / baseline : baseline / result.decant
            }
            if let note = result.note { row.notes.append(note) }
        case .timed(let bench):
            measure(bench, unit: workload.unit, into: &row)
        }
        return row
    }

    /// The interleaved loop.
    private func measure(_ bench: TimedBench, unit: Unit, into row: inout Row) {
        if let note = bench.note { row.notes.append(note) }
        // Warm up both sides once; a side that throws here is reported, not timed.
        do {
            consume(try bench.decant.run())
        } catch {
            row.skipped = "Decant failed on the input: \(error)"
            return
        }
        var baseline: Contender?
        var external: (name: String, measure: (RunSettings) throws -> Double)?
        switch bench.baseline {
        case .none(let reason):
            row.baselineName = nil
            if let reason { row.notes.append(reason) }
        case .failing(let name, let reason):
            row.baselineName = name
            row.notes.append("baseline \(name) fails: \(reason)")
        case .external(let name, let measure):
            row.baselineName = name
            external = (name, measure)
        case .inProcess(let contender):
            row.baselineName = contender.name
            do {
                consume(try contender.run())
                baseline = contender
            } catch {
                row.notes.append("baseline \(contender.name) fails: \(error)")
            }
        }
        let decantCalls = bench.callsPerSample ?? calibrate(bench.decant.run)
        let baselineCalls = baseline.map { bench.callsPerSample ?? calibrate($0.run) } ?? 0
        var decantSamples: [Double] = []
        var baselineSamples: [Double] = []
        var previous: (Double, Double)?
        let start = Clock.wallSeconds()
        // Which side made the last call: a side's sample that follows the other side's starts with one untimed call,
        // so that it is not billed for what the other left behind. (The first call of Decant's event stream decoder
        // after the Foundation loop's 50 MB of strings ran 35% slower, in the record writes, with no page fault: a
        // cost of the baseline's garbage, not of the decoder.)
        var lastSideWasDecant = true
        func settle(decant: Bool, _ body: () throws -> Int) {
            if lastSideWasDecant != decant { consume((try? body()) ?? -1) }
            lastSideWasDecant = decant
        }
        for round in 0..<settings.maxRounds {
            // Alternate which side goes first, so neither always runs on a warmer or colder machine state.
            if round % 2 == 0 {
                settle(decant: true, bench.decant.run)
                decantSamples.append(sample(bench.decant.run, calls: decantCalls))
                if let baseline {
                    settle(decant: false, baseline.run)
                    baselineSamples.append(sample(baseline.run, calls: baselineCalls))
                }
            } else {
                if let baseline {
                    settle(decant: false, baseline.run)
                    baselineSamples.append(sample(baseline.run, calls: baselineCalls))
                }
                settle(decant: true, bench.decant.run)
                decantSamples.append(sample(bench.decant.run, calls: decantCalls))
            }
            let rounds = round + 1
            guard rounds >= settings.minRounds else { continue }
            let current = (Statistics.median(decantSamples), Statistics.median(baselineSamples))
            if let previous, Self.moved(previous.0, current.0) < settings.stability,
                Self.moved(previous.1, current.1) < settings.stability
            {
                break
            }
            previous = current
            if Clock.wallSeconds() - start > settings.budgetSeconds { break }
        }
        row.rounds = decantSamples.count
        let decantSeconds = Statistics.median(decantSamples)
        row.decant = unit.value(secondsPerCall: decantSeconds, quantity: bench.quantity)
        row.spread = Statistics.spread(decantSamples)
        if baseline != nil {
            let baselineSeconds = Statistics.median(baselineSamples)
            row.baseline = unit.value(secondsPerCall: baselineSeconds, quantity: bench.quantity)
            row.baselineSpread = Statistics.spread(baselineSamples)
            row.ratio = baselineSeconds / decantSeconds
        } else if let external {
            do {
                let baselineSeconds = try external.measure(settings)
                row.baseline = unit.value(secondsPerCall: baselineSeconds, quantity: bench.quantity)
                row.ratio = baselineSeconds / decantSeconds
                row.notes.append("baseline \(external.name) ran as a subprocess right after Decant's rounds")
            } catch {
                row.notes.append("baseline \(external.name) fails: \(error)")
            }
        }
    }

    /// The relative change from `old` to `new` (0 when both are 0).
    private static func moved(_ old: Double, _ new: Double) -> Double {
        old == 0 ? (new == 0 ? 0 : 1) : abs(new - old) / old
    }

    /// Calls per sample so that one sample lasts at least ``RunSettings/minSampleSeconds``.
    private func calibrate(_ body: () throws -> Int) -> Int {
        var calls = 1
        while true {
            let seconds = sample(body, calls: calls) * Double(calls)
            if seconds >= settings.minSampleSeconds || calls >= 1 << 24 { return calls }
            let estimate = seconds > 0 ? Int((settings.minSampleSeconds / seconds * Double(calls)).rounded(.up)) : calls
            calls = max(calls * 2, min(estimate, calls * 100))
        }
    }

    /// Thread CPU seconds per call over `calls` calls. Errors were ruled out by the warm-up; one now is folded in as
    /// a sink value rather than stopping the run.
    private func sample(_ body: () throws -> Int, calls: Int) -> Double {
        let start = Clock.threadCPUSeconds()
        for _ in 0..<calls {
            consume((try? body()) ?? -1)
        }
        return (Clock.threadCPUSeconds() - start) / Double(calls)
    }
}

/// Medians and spreads.
enum Statistics {
    /// The median of `values` (0 when empty).
    static func median(_ values: [Double]) -> Double {
        quantile(values.sorted(), 0.5)
    }

    /// The interquartile range over the median (`nil` with fewer than 3 values).
    static func spread(_ values: [Double]) -> Double? {
        guard values.count >= 3 else { return nil }
        let sorted = values.sorted()
        let middle = quantile(sorted, 0.5)
        return middle > 0 ? (quantile(sorted, 0.75) - quantile(sorted, 0.25)) / middle : nil
    }

    /// The `q` quantile of sorted `values`, interpolating linearly.
    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let position = q * Double(sorted.count - 1)
        let lower = Int(position)
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}
