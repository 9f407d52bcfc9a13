import Decant
import Foundation

/// `concurrency.registry`: one `SerializerRegistry.standard` shared by two threads decoding the repository's mixed
/// fixtures (JSON, text, property lists, XML, images, errors among them), against one thread doing the same work.
/// The row is the two threads' throughput over one thread's, in wall time: 2.0 means no contention at all.
enum ConcurrencyWorkloads {
    /// `concurrency.registry`.
    static var all: [Workload] {
        [
            Workload(
                name: "concurrency.registry", unit: .speedup, baselineName: nil,
                summary: "throughput of 2 threads sharing SerializerRegistry.standard over the fixtures vs 1 thread",
                prepare: measure)
        ]
    }

    /// The format folders of `Fixtures/` whose responses are decoded.
    private static let areas = ["json", "string", "propertyList", "xmlDocument", "image"]

    /// The raw responses of `Fixtures/<area>/*.http`, in a fixed order.
    private static func fixtures() throws -> [Response] {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/",
            !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path)
        {
            directory = directory.deletingLastPathComponent()
        }
        var responses: [Response] = []
        for area in areas {
            let folder = directory.appendingPathComponent("Fixtures/\(area)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".http") {
                guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                    let response = try? Response(raw: data)
                else { continue }
                responses.append(response)
            }
        }
        guard !responses.isEmpty else { throw Skip(reason: "no fixtures found under Fixtures/ beside Package.swift") }
        return responses
    }

    /// Decodes every fixture once; returns a count derived from the results.
    private static func pass(_ responses: [Response]) -> Int {
        var count = 0
        for response in responses {
            do {
                let value = try SerializerRegistry.standard.serialize(response)
                count &+= value.serializerID.rawValue.count
            } catch {
                count &+= error.code.rawValue.count
            }
        }
        return count
    }

    /// Wall seconds for `threads` threads each doing `passes` passes at once.
    private static func wallSeconds(threads: Int, passes: Int, _ responses: [Response]) -> Double {
        let start = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var count = 0
            for _ in 0..<passes { count &+= pass(responses) }
            consume(count)
        }
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private static func measure(_ settings: RunSettings) throws -> Prepared {
        let responses = try fixtures()
        consume(pass(responses))  // warm up: first-use costs (registry set-up, code pages) out of the timing
        // Enough passes for one thread to take about half a second (a tenth in a quick run).
        let target = settings.quick ? 0.1 : 0.5
        var passes = 1
        while wallSeconds(threads: 1, passes: passes, responses) < target / 4 { passes *= 2 }
        passes *= 4
        let rounds = settings.quick ? 1 : 5
        var speedups: [Double] = []
        for _ in 0..<rounds {
            let one = wallSeconds(threads: 1, passes: passes, responses)
            let two = wallSeconds(threads: 2, passes: passes, responses)
            speedups.append(2 * one / two)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return .direct(
            DirectResult(
                decant: Statistics.median(speedups), baseline: nil, baselineName: nil, rounds: rounds,
                spread: MemoryWorkloads.spread(speedups), baselineSpread: nil,
                note: "concurrency.registry: \(responses.count) fixtures × \(passes) passes per thread, wall time, "
                    + "median of \(rounds); 2.0 is perfect scaling (the target is 1.8 on two idle cores; this "
                    + "machine has \(cores))"))
    }
}
