// libFuzzer target: the PNG decoder (and Inflate underneath), APNG frames included. Invariants: no crash, hang or
// unbounded allocation on any bytes; a decoded image has width * height * 4 bytes of pixels and frames of the same
// size, as many frames as its frame count (or none and a count of 1); decoding on demand agrees.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantImage
// fuzz-seeds: Fixtures/image images/pngsuite/image-png/tests/pngsuite images/image-rs/tests/images/png
// fuzz-max-len: 65536
import DecantCompression
import DecantCore
import FoundationEssentials

/// Low limits, so that inputs reach the decoders' own size guards instead of the fuzzer's memory limit.
let fuzzOptions = ImageDecodingOptions(
    limits: ImageLimits(maxPixels: 1 << 22, maxFrames: 64, maxTotalBytes: 1 << 28))

/// The libFuzzer entry point: decodes one input, and the same input with its chunks' CRCs repaired, and traps on a
/// broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    check(Data(bytes))
    let repaired = repairingCRCs(bytes)
    if repaired != bytes { check(Data(repaired)) }
    return 0
}

/// `bytes` with the CRC of every complete chunk recomputed, so that mutations reach what lies behind the CRC check
/// (chunk fields, APNG sequence numbers and frame regions) instead of stopping at it.
func repairingCRCs(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    var position = 8
    while position + 12 <= bytes.count {
        let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
        guard length <= bytes.count - position - 12 else { break }
        let crc = Checksum.crc32(Array(bytes[(position + 4)..<(position + 8 + length)]))
        for index in 0..<4 { bytes[position + 8 + length + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
        position += 12 + length
    }
    return bytes
}

/// Decodes `bytes` eagerly and lazily and checks the invariants.
func check(_ bytes: Data) {
    guard let image = try? PNGDecoder.decode(bytes, options: fuzzOptions) else { return }
    precondition(image.pixels.count == image.width * image.height * 4, "pixel buffer size")
    for frame in image.frames {
        precondition(frame.pixels.count == image.width * image.height * 4, "frame buffer size")
    }
    precondition(image.frames.isEmpty ? image.frameCount == 1 : image.frames.count == image.frameCount, "frames")
    var lazy = fuzzOptions
    lazy.inflate = false
    lazy.premultipliedAlpha = true
    if let pending = try? ImageDecoder.decode(bytes, options: lazy) {
        precondition(pending.width == image.width && pending.height == image.height, "lazy size")
        // The lazy count is what the APNG chunks say; only frame data that fails to decode makes it differ.
        precondition(image.frames.isEmpty || pending.frameCount == image.frameCount, "lazy frame count")
        if let decoded = try? pending.decoded() {
            precondition(decoded.pixels.count == image.pixels.count, "lazy pixels")
            precondition(decoded.frames.count == image.frames.count, "lazy frames")
        }
    }
}
