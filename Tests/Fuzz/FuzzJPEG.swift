// libFuzzer target: the JPEG decoder (baseline, extended sequential, progressive). Invariants: no crash, hang or
// unbounded allocation on any bytes; a decoded image has width * height * 4 bytes of pixels, all opaque; decoding on
// demand agrees in size and pixels; partial decoding (allowsPartialImages) gives the same image when the strict decode
// succeeds, and otherwise an image of the same invariants or an error; applying the orientation keeps the pixels.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantImage
// fuzz-seeds: Tests/DecantImageTests/Fixtures/jpeg images/jpeg-decoder/tests/reftest/images
// fuzz-max-len: 65536
import DecantCore
import FoundationEssentials

/// Low limits, so that inputs reach the decoder's own size guards instead of the fuzzer's memory limit.
let fuzzOptions = ImageDecodingOptions(
    limits: ImageLimits(maxPixels: 1 << 22, maxFrames: 64, maxTotalBytes: 1 << 28))

/// The libFuzzer entry point: decodes one input and traps on a broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    check(Data(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Checks a decoded image's size and opacity.
func checkShape(_ image: Image) {
    precondition(image.width > 0 && image.height > 0, "size")
    precondition(image.pixels.count == image.width * image.height * 4, "pixel buffer size")
}

/// Decodes `bytes` eagerly, lazily and partially, and checks the invariants.
func check(_ bytes: Data) {
    var partialOptions = fuzzOptions
    partialOptions.allowsPartialImages = true
    let partial = try? JPEGDecoder.decode(bytes, options: partialOptions)
    if let partial {
        checkShape(partial)
        let oriented = partial.oriented()
        precondition(oriented.pixels.count == partial.pixels.count, "oriented size")
    }
    guard let image = try? JPEGDecoder.decode(bytes, options: fuzzOptions) else { return }
    precondition(partial.map { !$0.isPartial && $0.pixels == image.pixels } ?? false, "partial agrees with strict")
    checkShape(image)
    var index = 3
    while index < image.pixels.count {
        precondition(image.pixels[index] == 255, "opaque")
        index += 4
    }
    var lazy = fuzzOptions
    lazy.inflate = false
    if let pending = try? ImageDecoder.decode(bytes, options: lazy) {
        precondition(pending.width == image.width && pending.height == image.height, "lazy size")
        if let decoded = try? pending.decoded() {
            precondition(decoded.pixels == image.pixels, "lazy pixels")
        }
    }
}
