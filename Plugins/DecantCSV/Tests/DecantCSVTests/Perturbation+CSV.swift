import Decant
import DecantConformance
import Foundation

extension Perturbation {
    /// CSV's own perturbation for conformance runs: every line end of a UTF-8 `text/csv` body without quotes written
    /// as CRLF if it had LF, or as LF if it had CRLF (RFC 4180 allows both; the table must not change). Bodies with a
    /// quote are left alone, since a line end inside a quoted field is data. It lives in the test target because the
    /// plugin's module does not depend on the conformance kit.
    ///
    /// ```swift
    /// let runner = ConformanceRunner(registry: registry, perturbations: Perturbation.all + [.csvLineEnds])
    /// ```
    static let csvLineEnds = Perturbation(name: "csvLineEnds") { response, _ in
        guard let mediaType = response.contentType, mediaType.type == "text", mediaType.subtype == "csv",
            !response.body.isEmpty, !response.body.contains(0x22),
            String(decoding: response.body, as: UTF8.self).utf8.elementsEqual(response.body)  // valid UTF-8
        else { return nil }
        let bytes = [UInt8](response.body)
        var swapped: [UInt8] = []
        swapped.reserveCapacity(bytes.count * 2)
        let hasCRLF = bytes.indices.contains { $0 + 1 < bytes.count && bytes[$0] == 0x0D && bytes[$0 + 1] == 0x0A }
        var index = 0
        while index < bytes.count {
            if hasCRLF && bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A {
                swapped.append(0x0A)
                index += 2
                continue
            }
            if !hasCRLF && bytes[index] == 0x0A {
                swapped += [0x0D, 0x0A]
            } else {
                swapped.append(bytes[index])
            }
            index += 1
        }
        guard swapped != bytes else { return nil }
        return response.replacingBody(Data(swapped)).rawMessage
    }
}
