import Decant
import DecantCore
import Foundation

/// Image decoding to RGBA8 in megapixels per second. Linux Foundation decodes no images, so the baseline is the
/// reference C decoders of `../shared/tools/imgbench` when `$DECANT_IMGBENCH` names its binary (run as a subprocess
/// on the same file, right after Decant's rounds), else none.
enum ImageWorkloads {
    /// `image.*`.
    static var all: [Workload] {
        [
            corpusImage(
                "image.png", path: "images/pngsuite/image-png/tests/benches/kodim07.png", mediaType: "image/png",
                decoder: "libpng", summary: "kodim07.png, a 768×512 RGB photo"),
            corpusImage(
                "image.jpeg", path: "images/jpeg-decoder/tests/reftest/images/mjpeg.jpg", mediaType: "image/jpeg",
                decoder: "turbojpeg", summary: "mjpeg.jpg, a 960×720 baseline 4:2:2 camera frame"),
            corpusImage(
                "image.jpeg.progressive", path: "images/jpeg-decoder/tests/reftest/images/progressive3.jpg",
                mediaType: "image/jpeg", decoder: "turbojpeg",
                summary: "progressive3.jpg, a 650×470 progressive 4:4:4 photo"),
            corpusImage(
                "image.tiff.lzw", path: "images/image-tiff/tests/benches/kodim07-lzw.tif", mediaType: "image/tiff",
                decoder: "libtiff-rgba",
                summary: "kodim07-lzw.tif, a 768×512 RGB photo, LZW with the horizontal predictor"),
            corpusImage(
                "image.gif", path: "images/image-gif/tests/samples/interlaced.gif", mediaType: "image/gif",
                decoder: "giflib", summary: "interlaced.gif, 540×330, one frame"),
            corpusImage(
                "image.gif.animation", path: "images/image-gif/tests/samples/gifplayer-muybridge.gif",
                mediaType: "image/gif", decoder: "giflib",
                summary: "gifplayer-muybridge.gif, 380 frames, decoded (frames are composited when read) vs giflib's "
                    + "DGifSlurp of every frame; MP/s of one canvas per decode"),
            photo(
                "image.photo.jpeg", file: "mosaic2k.q90.jpg", decoder: "turbojpeg",
                summary: "imgbench's 2048×2048 photo mosaic, baseline q90 4:2:0, vs libjpeg-turbo (SIMD)"),
            photo(
                "image.photo.jpeg.nosimd", file: "mosaic2k.q90.jpg", decoder: "turbojpeg-nosimd",
                summary: "the same file vs libjpeg-turbo without SIMD (JSIMD_FORCENONE=1)"),
            photo(
                "image.photo.jpeg.reuse", file: "mosaic2k.q90.jpg", decoder: "turbojpeg-nosimd",
                summary: "the same file decoded into reused pixel memory (serialize(_:reusing:)) vs libjpeg-turbo "
                    + "without SIMD",
                reusing: true),
            photo(
                "image.photo.jpeg.444", file: "mosaic2k.q90.444.jpg", decoder: "turbojpeg",
                summary: "the mosaic, baseline q90 4:4:4, vs libjpeg-turbo (SIMD)"),
            photo(
                "image.photo.jpeg.444.nosimd", file: "mosaic2k.q90.444.jpg", decoder: "turbojpeg-nosimd",
                summary: "the same file vs libjpeg-turbo without SIMD"),
            photo(
                "image.photo.jpeg.progressive", file: "mosaic2k.q90.prog.jpg", decoder: "turbojpeg",
                summary: "the mosaic, progressive q90 4:2:0, vs libjpeg-turbo (SIMD)"),
            photo(
                "image.photo.tiff.lzw", file: "mosaic2k.lzw.tif", decoder: "libtiff-rgba",
                summary: "the mosaic as an LZW RGB8 TIFF, vs libtiff's TIFFReadRGBAImage"),
            photo(
                "image.photo.tiff.lzw.predictor", file: "mosaic2k.lzw.pred2.tif", decoder: "libtiff-rgba",
                summary: "the mosaic as an LZW TIFF with the horizontal predictor, vs libtiff"),
            photo(
                "image.photo.tiff.deflate", file: "mosaic2k.deflate.tif", decoder: "libtiff-rgba",
                summary: "the mosaic as a Deflate (Adobe) RGB8 TIFF, vs libtiff"),
            photo(
                "image.photo.png", file: "mosaic2k.png", decoder: "libpng",
                summary: "the mosaic as an RGB8 PNG (zlib level 6, adaptive filters), vs libpng"),
            inflateRow(),
            generatedImage(
                "image.bmp", file: "decant-bench.bmp", mediaType: "image/bmp", decoder: "bmp-naive",
                summary: "a generated 1024×768 24-bit BMP"
            ) { GeneratedBitmaps.bmp },
            generatedImage(
                "image.ico", file: "decant-bench.ico", mediaType: "image/x-icon", decoder: "ico",
                summary: "a generated 256×256 32-bit ICO (BMP entry with AND mask)"
            ) { GeneratedBitmaps.ico },
        ]
    }

    /// `inflate.photo.png`: the mosaic PNG's image data (its IDAT chunks, one zlib stream) inflated by Decant's inflate
    /// into a buffer of the known size, as the PNG decoder does, against zlib's `uncompress` on the same stream
    /// (imgbench's `png-inflate`); megabytes of inflated output per second.
    private static func inflateRow() -> Workload {
        Workload(
            name: "inflate.photo.png", unit: .megabytesPerSecond, baselineName: "png-inflate",
            summary: "the mosaic PNG's zlib stream inflated (no unfiltering), vs zlib's uncompress"
        ) { _ in
            guard let folder = ProcessInfo.processInfo.environment["DECANT_IMGSET"], !folder.isEmpty else {
                throw Skip(reason: "set DECANT_IMGSET to imgbench's images/ folder (../shared/tools/imgbench)")
            }
            let path = URL(fileURLWithPath: folder).appendingPathComponent("mosaic2k.png").path
            guard let file = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
                throw Skip(reason: "mosaic2k.png not found in \(folder)")
            }
            // The chunks: length, type, data, CRC (PNG §5.3); the image data is every IDAT's data in order.
            var stream: [UInt8] = []
            var width = 0
            var height = 0
            var offset = 8
            while offset + 12 <= file.count {
                let length = file[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
                let type = String(decoding: file[(offset + 4)..<(offset + 8)], as: UTF8.self)
                let data = file[(offset + 8)..<min(file.count, offset + 8 + length)]
                if type == "IHDR" {
                    width = data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                    height = data.dropFirst(4).prefix(4).reduce(0) { $0 << 8 | Int($1) }
                }
                if type == "IDAT" { stream += data }
                offset += 12 + length
            }
            let size = try Inflate.zlib(stream, maxOutput: 1 << 30).count
            let decant = Contender(name: "Decant") {
                var output = OutputBuffer(exactly: size)
                defer { output.deallocate() }
                _ = try stream.withUnsafeBytes { (bytes) throws(InflateError) in
                    try Inflate.zlib(bytes, into: &output)
                }
                return output.count
            }
            let baseline: Baseline
            if let tool = ImageBench.tool {
                baseline = .external(name: "png-inflate") { settings in
                    try ImageBench.secondsPerDecode(
                        tool: tool, file: path, decoder: "png-inflate", seconds: settings.quick ? 0.2 : 1.0,
                        expectedSize: (width, height))
                }
            } else {
                baseline = .none(reason: "png-inflate: no baseline (set DECANT_IMGBENCH)")
            }
            return .timed(TimedBench(quantity: Double(size), decant: decant, baseline: baseline, note: nil))
        }
    }

    private static func corpusImage(
        _ name: String, path: String, mediaType: String, decoder: String, summary: String
    ) -> Workload {
        Workload(name: name, unit: .megapixelsPerSecond, baselineName: decoder, summary: summary) { _ in
            let file = try Corpora.path(path)
            let data = try Corpora.data(path)
            return .timed(try bench(data, file: file, mediaType: mediaType, decoder: decoder))
        }
    }

    /// A file of imgbench's photo set (`src/gen_images.py` writes it to `images/`), found through
    /// `$DECANT_IMGSET`; skipped when that is not set.
    private static func photo(
        _ name: String, file: String, decoder: String, summary: String, reusing: Bool = false
    ) -> Workload {
        Workload(name: name, unit: .megapixelsPerSecond, baselineName: decoder, summary: summary) { _ in
            guard let folder = ProcessInfo.processInfo.environment["DECANT_IMGSET"], !folder.isEmpty else {
                throw Skip(reason: "set DECANT_IMGSET to imgbench's images/ folder (../shared/tools/imgbench)")
            }
            let path = URL(fileURLWithPath: folder).appendingPathComponent(file).path
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Skip(reason: "\(file) not found in \(folder)")
            }
            let mediaType = file.hasSuffix(".png") ? "image/png" : file.hasSuffix(".tif") ? "image/tiff" : "image/jpeg"
            return .timed(try bench(data, file: path, mediaType: mediaType, decoder: decoder, reusing: reusing))
        }
    }

    private static func generatedImage(
        _ name: String, file: String, mediaType: String, decoder: String, summary: String,
        input: @escaping () -> Data
    ) -> Workload {
        Workload(name: name, unit: .megapixelsPerSecond, baselineName: decoder, summary: summary) { _ in
            let data = input()
            var path: String?
            if ImageBench.tool != nil {
                // The C tool reads a file: write the generated image to the temporary directory.
                let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "\(ProcessInfo.processInfo.processIdentifier)-\(file)")
                try data.write(to: url)
                path = url.path
            }
            return .timed(try bench(data, file: path, mediaType: mediaType, decoder: decoder))
        }
    }

    /// Decant's `image` serializer on `data`; pixels counted from the decoded first frame.
    /// The pixel memory a reusing decode hands back and takes again.
    private final class Storage {
        var bytes: [UInt8] = []
    }

    private static func bench(
        _ data: Data, file: String?, mediaType: String, decoder: String, reusing: Bool = false
    ) throws -> TimedBench {
        let serializer = ImageResponseSerializer()
        let response = Response(headers: ["Content-Type": mediaType], body: data)
        let image = try serializer.serialize(response)
        let storage = Storage()
        let decant = Contender(name: "Decant") {
            guard reusing else { return try serializer.serialize(response).pixels.count }
            let image = try serializer.serialize(response, reusing: &storage.bytes)
            let count = image.pixels.count
            storage.bytes = (consume image).pixels
            return count
        }
        let baseline: Baseline
        if let tool = ImageBench.tool, let file {
            baseline = .external(name: decoder) { settings in
                try ImageBench.secondsPerDecode(
                    tool: tool, file: file, decoder: decoder, seconds: settings.quick ? 0.2 : 1.0,
                    expectedSize: (image.width, image.height))
            }
        } else {
            baseline = .none(
                reason: "\(decoder): no baseline (Linux Foundation decodes no images; set DECANT_IMGBENCH)")
        }
        return TimedBench(
            quantity: Double(image.width * image.height), decant: decant, baseline: baseline,
            note: nil)
    }
}

/// The reference C decoders of `../shared/tools/imgbench`, run as a subprocess.
enum ImageBench {
    /// The binary named by `$DECANT_IMGBENCH`, when it is executable.
    static let tool = ExternalTool.named("imgbench", by: "DECANT_IMGBENCH")

    /// Runs `tool -t seconds file decoder` and returns its median CPU seconds per decode.
    static func secondsPerDecode(
        tool: ExternalTool, file: String, decoder: String, seconds: Double, expectedSize: (Int, Int)
    ) throws -> Double {
        // `NAME-nosimd` runs decoder NAME with libjpeg-turbo's SIMD turned off.
        let noSIMD = decoder.hasSuffix("-nosimd")
        let text = try tool.output(
            ["-t", String(seconds), file, noSIMD ? String(decoder.dropLast(7)) : decoder],
            environment: noSIMD ? ["JSIMD_FORCENONE": "1"] : [:])
        // Columns: file decoder width height in_bytes out_bytes runs cpu_median_ms ...
        guard let line = text.split(separator: "\n").first(where: { !$0.hasPrefix("#") }) else {
            throw BenchError(description: "imgbench printed no result")
        }
        let fields = line.split(separator: "\t")
        guard fields.count > 7, let width = Int(fields[2]), let height = Int(fields[3]),
            let milliseconds = Double(fields[7]), milliseconds > 0
        else { throw BenchError(description: "unexpected imgbench output: \(line)") }
        guard width == expectedSize.0, height == expectedSize.1 else {
            throw BenchError(
                description: "imgbench decoded \(width)×\(height), Decant \(expectedSize.0)×\(expectedSize.1)")
        }
        return milliseconds / 1000
    }
}
