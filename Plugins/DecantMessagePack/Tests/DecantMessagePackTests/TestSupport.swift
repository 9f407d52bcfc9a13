import Foundation

/// Helpers of the MessagePack tests (a plugin's tests do without DecantTestSupport: they use only what a third party
/// has).
enum MessagePackTestSupport {
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

    /// The MessagePack test suite file, when the corpora are present.
    static let suiteFile: URL? = corporaDirectory.map {
        $0.appendingPathComponent("msgpack/msgpack-test-suite/dist/msgpack-test-suite.json")
    }.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }

    /// The bytes of hex text, ignoring dashes and spaces (`"c4-01-ff"`).
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { $0.isHexDigit })
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }
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
