import Decant
import Foundation

/// Helpers of the event stream tests (a plugin's tests do without DecantTestSupport: they use only what a third party has).
enum EventStreamTestSupport {
    /// The shared corpora folder: `DECANT_CORPORA`, else `../shared/corpora` beside the folder holding Package.swift.
    static let corporaDirectory: URL? = {
        if let path = ProcessInfo.processInfo.environment["DECANT_CORPORA"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                let corpora = directory.deletingLastPathComponent().appendingPathComponent("shared/corpora")
                return FileManager.default.fileExists(atPath: corpora.path) ? corpora : nil
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// Whether the corpora are present.
    static let corporaAvailable = corporaDirectory != nil

    /// Cuts `bytes` into chunks of 1 to `maxChunk` bytes at seeded random boundaries.
    static func chunks(_ bytes: Data, seed: UInt64, maxChunk: Int) -> [Data] {
        var generator = SplitMix64(seed: seed)
        var chunks: [Data] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = Swift.min(bytes.endIndex, start + Int.random(in: 1...maxChunk, using: &generator))
            chunks.append(Data(bytes[start..<end]))
            start = end
        }
        return chunks
    }
}

/// Chunks handed out one by one.
struct Chunks: AsyncSequence, Sendable {
    typealias Element = Data
    let chunks: [Data]

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<Data>
        mutating func next() async throws -> Data? { remaining.popFirst() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks[...]) }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seeded generator, so that random inputs are the same every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
