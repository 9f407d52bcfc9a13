import Decant
import DecantCompression
import DecantCore
import Foundation

/// Writing: DEFLATE compression (`compression.deflate`, MB/s of input) and PNG encoding (`image.encode.png`, MB/s of
/// RGBA8 pixels). Linux Foundation has neither a compressor nor an image encoder, and imgbench only decodes, so there
/// is no timed baseline: the note gives the output size beside Python's (zlib level 6, and Pillow's PNG writer, which
/// uses zlib level 6) when `python3` is found.
enum CompressionWorkloads {
    /// `compression.deflate` and `image.encode.png`.
    static var all: [Workload] {
        [deflateRow(), pngRow()]
    }

    /// The corpus file compressed by `compression.deflate`.
    static let deflateInput = "json/nativejson-benchmark/data/twitter.json"
    /// The corpus image decoded once and written by `image.encode.png`.
    static let pngInput = "images/pngsuite/image-png/tests/benches/kodim07.png"

    private static func deflateRow() -> Workload {
        Workload(
            name: "compression.deflate", unit: .megabytesPerSecond, baselineName: "zlib 6 (size only)",
            summary: "twitter.json compressed by Deflate.zlib at the default level (no baseline; size vs zlib 6)"
        ) { _ in
            let input = try [UInt8](Corpora.data(deflateInput))
            let size = Deflate.zlib(input).count
            let reference = try? python(
                "import sys, zlib; print(len(zlib.compress(open(sys.argv[1], 'rb').read(), 6)))",
                [Corpora.path(deflateInput)])
            let decant = Contender(name: "Decant") { Deflate.zlib(input).count }
            return .timed(
                TimedBench(
                    quantity: Double(input.count), decant: decant, baseline: .none(reason: nil),
                    note: "compression.deflate: \(input.count) bytes to \(size) bytes"
                        + (reference.map { "; Python zlib level 6: \($0) bytes" } ?? "")))
        }
    }

    private static func pngRow() -> Workload {
        Workload(
            name: "image.encode.png", unit: .megabytesPerSecond, baselineName: "Pillow PNG (size only)",
            summary: "kodim07.png decoded, then written by PNGWriter (no baseline; size vs Pillow)"
        ) { _ in
            let response = Response(headers: ["Content-Type": "image/png"], body: try Corpora.data(pngInput))
            let image = try ImageResponseSerializer().serialize(response)
            let size = try PNGWriter().write(image).count
            let reference = try? python(
                "import sys, io; from PIL import Image; out = io.BytesIO(); "
                    + "Image.open(sys.argv[1]).convert('RGBA').save(out, 'PNG'); print(len(out.getvalue()))",
                [Corpora.path(pngInput)])
            let decant = Contender(name: "Decant") { try PNGWriter().write(image).count }
            return .timed(
                TimedBench(
                    quantity: Double(image.pixels.count), decant: decant, baseline: .none(reason: nil),
                    note: "image.encode.png: \(image.width)×\(image.height) RGBA8 to \(size) bytes"
                        + (reference.map { "; Pillow (zlib level 6) from the same RGBA: \($0) bytes" } ?? "")))
        }
    }

    /// What `python3 -c script arguments` prints, trimmed; throws when python3 is missing or fails.
    private static func python(_ script: String, _ arguments: [String]) throws -> String {
        let tool =
            ExternalTool.named("python3", by: "DECANT_PYTHON")
            ?? ExternalTool(name: "python3", path: "/usr/bin/python3")
        return try tool.output(["-c", script] + arguments).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
