import DecantConformance
import Foundation

/// Helpers of the form tests (a plugin's tests do without DecantTestSupport: they use only what a third party has).
enum FormTestSupport {
    /// The shared corpora (`../shared/corpora`), when present.
    static let corpora = TestCorpora()

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
