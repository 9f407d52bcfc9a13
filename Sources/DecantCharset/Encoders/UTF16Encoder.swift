#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes UTF-16LE or UTF-16BE: each UTF-16 code unit of the text as two bytes, without a byte order mark.
///
/// The WHATWG Encoding Standard has no UTF-16 encoders (its "get an output encoding" turns UTF-16 into UTF-8 for
/// forms and URLs); this is the inverse of its UTF-16 decoders (§14.2), for HTTP bodies that ask for UTF-16. A
/// Swift string holds no unpaired surrogates, so every text can be written.
enum UTF16Encoder {
    /// The code units of `text`, little-endian unless `bigEndian`.
    static func encode(_ text: some StringProtocol, bigEndian: Bool) -> Data {
        let units = text.utf16
        var data = Data(count: units.count * 2)
        data.withUnsafeMutableBytes { raw in
            var offset = 0
            for unit in units where offset + 1 < raw.count {
                let high = UInt8(truncatingIfNeeded: unit >> 8)
                let low = UInt8(truncatingIfNeeded: unit)
                raw[offset] = bigEndian ? high : low
                raw[offset + 1] = bigEndian ? low : high
                offset += 2
            }
        }
        return data
    }
}
