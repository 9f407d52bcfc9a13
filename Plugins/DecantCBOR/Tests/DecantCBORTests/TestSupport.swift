import Decant
import DecantCBOR
import DecantConformance
import Foundation

/// Helpers of the CBOR tests (a plugin's tests do without DecantTestSupport: they use only what a third party has).
enum CBORTestSupport {
    /// The shared corpora (`../shared/corpora`), when present.
    static let corpora = TestCorpora()

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
