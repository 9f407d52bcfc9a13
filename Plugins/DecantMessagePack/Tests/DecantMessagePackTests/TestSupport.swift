import DecantConformance
import Foundation

/// Helpers of the MessagePack tests (a plugin's tests do without DecantTestSupport: they use only what a third party
/// has).
enum MessagePackTestSupport {
    /// The shared corpora (`../shared/corpora`), when present.
    static let corpora = TestCorpora()

    /// The MessagePack test suite file, when the corpora are present.
    static let suiteFile: URL? = corpora.url("msgpack/msgpack-test-suite/dist/msgpack-test-suite.json")

    /// The bytes of hex text, ignoring dashes and spaces (`"c4-01-ff"`).
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { $0.isHexDigit })
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
    }
}
