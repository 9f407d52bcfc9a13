import Decant
import DecantCBOR
import Foundation
import Testing

/// RFC 8949 Appendix A, as the cbor/test-vectors `appendix_a.json` file states it (82 vectors).
@Suite struct AppendixATests {
    /// Diagnostic notation of indefinite-length items, which the parser joins into definite ones (the value is the
    /// same; only the encoding differed).
    static let joinedDiagnostics = ["(_ h'0102', h'030405')": "h'0102030405'"]

    /// Every vector decodes (`f8 18`, `simple(24)` in RFC 7049, with ``CBORParsingOptions/allowsTwoByteLowSimpleValues``:
    /// RFC 8949 made it not well-formed, and the default parser rejects it); those with `decoded` match it through the canonical form (with floats checked to be
    /// floats, integers integers, and the sign of zero kept), those with only `diagnostic` match it as printed.
    @Test(.enabled(if: CBORTestSupport.corpora.isAvailable)) func appendixA() throws {
        let file = try #require(CBORTestSupport.corpora.root)
            .appendingPathComponent("cbor/test-vectors/appendix_a.json")
        let vectors = try #require(try JSONParser().parse(Data(contentsOf: file)).arrayValue)
        var passed = 0
        var failed: [String] = []
        for vector in vectors {
            let hex = vector["hex"]?.stringValue ?? "?"
            guard let base64 = vector["cbor"]?.stringValue, let body = Data(base64Encoded: base64) else {
                failed.append(hex + " (no cbor)")
                continue
            }
            let value: CBORValue
            do {
                if hex == "f818" {
                    let error = #expect(throws: SerializationError.self) { try CBORParser().parse(body) }
                    #expect(error?.code == .invalidBody)
                }
                value = try CBORParser(options: CBORParsingOptions(allowsTwoByteLowSimpleValues: true)).parse(body)
            } catch {
                failed.append("\(hex): \(error)")
                continue
            }
            var ok: Bool
            if let expected = vector["decoded"] {
                ok = try value.conformanceValue() == expected
                if let number = expected.numberValue {
                    let isFloatText = !number.isInteger
                    switch value {
                    case .float(let double):
                        ok = ok && isFloatText && (double.sign == .minus) == number.text.hasPrefix("-")
                    case .unsignedInteger, .negativeInteger, .bignum:
                        ok = ok && !isFloatText
                    default:
                        ok = false
                    }
                }
            } else if let diagnostic = vector["diagnostic"]?.stringValue {
                ok = value.description == (Self.joinedDiagnostics[diagnostic] ?? diagnostic)
            } else {
                ok = false
            }
            if ok { passed += 1 } else { failed.append("\(hex): got \(value)") }
        }
        print("cbor appendix A: \(passed) passed, \(failed.count) failed")
        #expect(failed.isEmpty, "\(failed)")
        #expect(passed == 82)
    }
}
