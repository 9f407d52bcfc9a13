import Foundation

/// Helpers of the form tests (a plugin's tests do without DecantTestSupport: they use only what a third party has).
enum FormTestSupport {
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

    /// The bytes of a Python-style literal: ASCII characters as they are, `\xNN` as one byte.
    static func bytes(_ literal: String) -> Data {
        var result: [UInt8] = []
        var utf8 = Array(literal.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "\\"), utf8.first == UInt8(ascii: "x"), utf8.count >= 3,
                let value = UInt8(String(decoding: utf8.dropFirst().prefix(2), as: UTF8.self), radix: 16)
            {
                result.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                result.append(byte)
            }
        }
        return Data(result)
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
