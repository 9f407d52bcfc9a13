// libFuzzer target: the GIF decoder (LZW, frames, disposal). Invariants: no crash, hang or unbounded
// allocation on any bytes; a decoded image has width * height * 4 bytes of pixels and frames of the same size;
// decoding on demand agrees.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantImage
// fuzz-seeds: Fixtures/image images/image-gif/tests images/image-rs/tests/images/gif
// fuzz-max-len: 65536
import DecantCore
import FoundationEssentials

/// Low limits, so that inputs reach the decoders' own size guards instead of the fuzzer's memory limit.
let fuzzOptions = ImageDecodingOptions(
    limits: ImageLimits(maxPixels: 1 << 22, maxFrames: 64, maxTotalBytes: 1 << 28))

/// The libFuzzer entry point: decodes one input and traps on a broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let image = try? GIFDecoder.decode(bytes, options: fuzzOptions)
    if let image {
        precondition(image.pixels.count == image.width * image.height * 4, "pixel buffer size")
        for frame in image.frames {
            precondition(frame.pixels.count == image.width * image.height * 4, "frame buffer size")
        }
        var lazy = fuzzOptions
        lazy.inflate = false
        lazy.premultipliedAlpha = true
        if let pending = try? ImageDecoder.decode(bytes, options: lazy) {
            precondition(pending.width == image.width && pending.height == image.height, "lazy size")
            if let decoded = try? pending.decoded() {
                precondition(decoded.pixels.count == image.pixels.count, "lazy pixels")
            }
        }
    }
    return 0
}
