// libFuzzer target: the TIFF decoder (classic and BigTIFF, strips and tiles, PackBits, LZW, Deflate, JPEG, every
// page). Invariants: no crash, hang or unbounded allocation on any bytes; a decoded image has width * height * 4 bytes
// of pixels, every frame width * height * 4 of its own; decoding on demand agrees in size, frame count and pixels.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantImage
// fuzz-seeds: Tests/DecantImageTests/Fixtures/tiff images/image-tiff/tests/images
// fuzz-max-len: 65536
import DecantCore
import FoundationEssentials

/// Low limits, so that inputs reach the decoder's own size guards instead of the fuzzer's memory limit.
let fuzzOptions = ImageDecodingOptions(
    limits: ImageLimits(maxPixels: 1 << 22, maxFrames: 64, maxTotalBytes: 1 << 28))

/// The libFuzzer entry point: decodes one input and traps on a broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTIFF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    check(Data(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Decodes `bytes` eagerly and lazily and checks the invariants.
func check(_ bytes: Data) {
    guard let image = try? TIFFDecoder.decode(bytes, options: fuzzOptions) else { return }
    precondition(image.width > 0 && image.height > 0, "size")
    precondition(image.pixels.count == image.width * image.height * 4, "pixel buffer size")
    precondition(image.frames.isEmpty || image.frames.count == image.frameCount, "frame count")
    for frame in image.frames {
        precondition(frame.pixels.count == frame.width * frame.height * 4, "frame buffer size")
    }
    var lazy = fuzzOptions
    lazy.inflate = false
    if let pending = try? ImageDecoder.decode(bytes, options: lazy) {
        precondition(pending.width == image.width && pending.height == image.height, "lazy size")
        precondition(pending.frameCount == image.frameCount, "lazy frame count")
        if let decoded = try? pending.decoded() {
            precondition(decoded.pixels == image.pixels, "lazy pixels")
        }
    }
}
