import DecantBytes
import DecantCore
public import DecantJSON

extension Image: ConformanceRepresentable {
    /// `{"format", "width", "height", "frames", "rgbaSHA256"}`: the SHA-256 of the chosen frame's straight RGBA8
    /// pixels (top-down rows), or `null` when the pixels were not decoded (`inflate` off).
    ///
    /// The colour of a fully transparent pixel carries no meaning (decoders differ: a GIF's transparent index keeps
    /// its palette colour in Pillow, becomes black elsewhere), so the form zeroes R, G and B where A is 0.
    public func conformanceValue() throws -> JSONValue {
        .object([
            ("format", JSONValue(format.rawValue)), ("width", JSONValue(width)), ("height", JSONValue(height)),
            ("frames", JSONValue(frameCount)), ("rgbaSHA256", isDecoded ? JSONValue(canonicalPixelDigest()) : nil),
        ])
    }

    /// The digest of the pixels with transparent pixels' colour zeroed, hashed a block at a time so that the pixels
    /// are not copied (an image at the limits is hundreds of megabytes).
    func canonicalPixelDigest() -> String {
        var hasher = SHA256.Hasher()
        var block = [UInt8](repeating: 0, count: 64 * 1024)
        pixels.withUnsafeBufferPointer { pixels in
            var start = 0
            while start < pixels.count {
                let count = min(block.count, pixels.count - start)
                block.withUnsafeMutableBytes { block in
                    let target = block.baseAddress!
                    target.copyMemory(from: pixels.baseAddress! + start, byteCount: count)
                    // Whole pixels as 32-bit words: alpha is the most significant byte of a little-endian load.
                    var offset = 0
                    while offset &+ 4 <= count {
                        let pixel = UInt32(littleEndian: target.load(fromByteOffset: offset, as: UInt32.self))
                        if pixel < 0x0100_0000 { target.storeBytes(of: 0, toByteOffset: offset, as: UInt32.self) }
                        offset &+= 4
                    }
                    hasher.update(UnsafeRawBufferPointer(start: target, count: count))
                }
                start += count
            }
        }
        return hasher.finalize()
    }
}
