import Decant
import DecantCBOR
import Foundation

/// Helpers of the CBOR tests (a plugin's tests do without DecantTestSupport: they use only what a third party has).
enum CBORTestSupport {
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

    /// The bytes of a hex string; spaces are ignored.
    static func hex(_ text: String) -> Data {
        let digits = Array(text.filter { !$0.isWhitespace })
        var bytes: [UInt8] = []
        var index = 0
        while index + 1 < digits.count {
            bytes.append(UInt8(String(digits[index...index + 1]), radix: 16) ?? 0)
            index += 2
        }
        return Data(bytes)
    }

    /// A response with a CBOR body.
    static func response(_ body: Data, contentType: String = "application/cbor", status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: body)
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
