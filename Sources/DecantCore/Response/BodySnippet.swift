#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Renders a capped, printable snippet of a body for error messages.
enum BodySnippet {
    /// `N bytes: "text…"` for text-like bodies, a hex dump of the first bytes otherwise.
    static func describe(_ body: Data, limit: Int) -> String {
        if body.isEmpty { return "(empty body)" }
        let prefix = body.prefix(limit)
        let size = body.count == 1 ? "1 byte" : "\(body.count) bytes"
        let truncated = body.count > limit
        let controlBytes = prefix.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }.count
        if controlBytes == 0 {
            var text = ""
            for scalar in String(decoding: prefix, as: UTF8.self).unicodeScalars {
                switch scalar {
                case "\n": text += "\\n"
                case "\r": text += "\\r"
                case "\t": text += "\\t"
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                default: text.unicodeScalars.append(scalar)
                }
            }
            return "\(size): \"\(text)\(truncated ? "…" : "")\""
        }
        let hex = prefix.prefix(64).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "\(size): " + hex.joined(separator: " ") + (body.count > 64 ? " …" : "")
    }
}
