/// Where every workload folds its result, so that the optimiser cannot drop the work (dead-code elimination).
///
/// Only the main thread touches it; the bench is single-threaded.
nonisolated(unsafe) var benchSink = 0

/// Folds `value` into ``benchSink``. Not inlined, so the value must really be computed.
@inline(never)
func consume(_ value: Int) {
    benchSink &+= value
}
