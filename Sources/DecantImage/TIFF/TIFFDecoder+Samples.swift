import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The first page's samples as stored, for tests against other decoders' native output.
extension TIFFDecoder {
    /// The sum of every sample of the first page, as stored (TIFF 6.0 §2 "Image data"): samples of fewer than 8 bits
    /// summed as the bytes that pack them, rows padded to a byte; 8-bit samples as bytes (signed when SampleFormat is
    /// 2); samples of 9 to 16 bits as 16-bit integers; 32-bit as integers or IEEE floats; 64-bit floats. JPEG pages
    /// throw `unsupportedFeature` (their samples come out of the JPEG decoder already converted).
    static func nativeSampleSum(_ data: Data, options: ImageDecodingOptions) throws(SerializationError) -> Double {
        try ImageDecoder.withBytes(of: data) { (raw) throws(SerializationError) in
            try nativeSampleSum(raw.assumingMemoryBound(to: UInt8.self), options: options)
        }
    }

    /// ``nativeSampleSum(_:options:)`` over the body's bytes.
    private static func nativeSampleSum(
        _ bytes: UnsafeBufferPointer<UInt8>, options: ImageDecodingOptions
    ) throws(SerializationError) -> Double {
        guard bytes.count >= 8 else { throw truncated(bytes.count, "its 8-byte header") }
        let little = bytes[0] == 0x49
        let version = little ? Int(bytes[2]) | Int(bytes[3]) << 8 : Int(bytes[2]) << 8 | Int(bytes[3])
        let decoder = TIFFDecoder(bytes: bytes, options: options, littleEndian: little, isBig: version == 43)
        let (entries, _) = try decoder.readDirectory(at: decoder.firstDirectoryOffset())
        let page = try TIFFPage(decoder: decoder, entries: entries)
        guard page.compression != 7 else { throw unsupported("native samples of JPEG-compressed pages") }
        let (raw, planeRowBytes) = try page.decodeSamples()
        let bits = page.bitsPerSample
        let signed = page.sampleFormat == 2
        let float = page.sampleFormat == 3
        let planes = page.isPlanar ? page.samplesPerPixel : 1
        let rowSamples = page.width * (page.isPlanar ? 1 : page.samplesPerPixel)
        var sum = 0.0
        for row in 0..<(planes * page.height) {
            let start = row * planeRowBytes
            func unsigned(_ index: Int, _ size: Int) -> UInt64 {
                var value: UInt64 = 0
                for byte in 0..<size {
                    value = value << 8 | UInt64(raw[start + index * size + (little ? size - 1 - byte : byte)])
                }
                return value
            }
            switch bits {
            case ..<8:
                for index in 0..<planeRowBytes { sum += Double(raw[start + index]) }
            case 8:
                for index in 0..<rowSamples {
                    let byte = raw[start + index]
                    sum += signed ? Double(Int8(bitPattern: byte)) : Double(byte)
                }
            case 16:
                for index in 0..<rowSamples {
                    let value = UInt16(unsigned(index, 2))
                    sum +=
                        float
                        ? Double(Float16(bitPattern: value)) : signed ? Double(Int16(bitPattern: value)) : Double(value)
                }
            case 32:
                for index in 0..<rowSamples {
                    let value = UInt32(unsigned(index, 4))
                    sum +=
                        float
                        ? Double(Float(bitPattern: value)) : signed ? Double(Int32(bitPattern: value)) : Double(value)
                }
            case 64:
                for index in 0..<rowSamples { sum += Double(bitPattern: unsigned(index, 8)) }
            default:
                // 9 to 15 bits: unpacked, most significant bit first.
                for index in 0..<rowSamples {
                    var value = 0
                    for bit in (index * bits)..<((index + 1) * bits) {
                        value = value << 1 | Int((raw[start + bit >> 3] >> (7 - UInt8(bit & 7))) & 1)
                    }
                    sum += Double(value)
                }
            }
        }
        return sum
    }
}
