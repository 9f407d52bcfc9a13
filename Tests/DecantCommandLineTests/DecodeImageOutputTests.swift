import Decant
import DecantCommandLine
import DecantConformance
import DecantTestSupport
import Foundation
import Testing

/// `decant decode` on images: `--png`, `--rgba` and `--frame` write what was decoded, `--preview` draws it with
/// 24-bit colours and half blocks, and output that is not a terminal keeps the usual text.
@Suite struct DecodeImageOutputTests {
    /// A file in the temporary folder, removed by the caller.
    static func temporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("decant-image-\(UUID().uuidString)\(suffix)").path
    }

    /// `pixels` (RGBA8) written as a PNG file; returns its path.
    static func pngFile(width: Int, height: Int, pixels: [UInt8]) throws -> String {
        let path = temporaryPath(".png")
        try Image(width: width, height: height, pixels: pixels, format: .png).pngData()
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A two-frame GIF89a on a 2×2 canvas (GIF89a §18-§23, LZW minimum code size 2 with a clear code before each
    /// index so that codes stay 3 bits wide): frame 0 all red, frame 1 a blue pixel at (1, 1) over it.
    static let twoFrameGIF: [UInt8] = {
        var bytes = Array("GIF89a".utf8) + [2, 0, 2, 0, 0x81, 0, 0]
        bytes += [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]
        for (x, y, size, indices) in [(0, 0, 2, [0, 0, 0, 0]), (1, 1, 1, [2])] {
            bytes += [0x21, 0xF9, 4, 1 << 2, 5, 0, 0, 0]
            bytes += [0x2C, UInt8(x), 0, UInt8(y), 0, UInt8(size), 0, UInt8(size), 0, 0]
            var writer = BitWriter()
            for index in indices {
                writer.write(4, bits: 3)
                writer.write(index, bits: 3)
            }
            writer.write(5, bits: 3)
            bytes += [2, UInt8(writer.bytes.count)] + writer.bytes + [0]
        }
        return bytes + [0x3B]
    }()

    /// The colours of each drawn line: the foreground (upper pixel) and background (lower pixel) of each half block,
    /// read from the escape sequences as a terminal would.
    static func cells(_ line: Substring) -> [(top: [Int], bottom: [Int]?)] {
        var cells: [(top: [Int], bottom: [Int]?)] = []
        var foreground: [Int] = []
        var background: [Int]?
        var rest = line[...]
        while !rest.isEmpty {
            if rest.hasPrefix("\u{1B}[") {
                let end = rest.firstIndex(of: "m")!
                let parameters = rest[rest.index(rest.startIndex, offsetBy: 2)..<end].split(separator: ";").map {
                    Int($0)!
                }
                if parameters.first == 38 { foreground = Array(parameters.dropFirst(2)) }
                if parameters.first == 48 { background = Array(parameters.dropFirst(2)) }
                rest = rest[rest.index(after: end)...]
            } else {
                #expect(rest.first == "\u{2580}")
                cells.append((foreground, background))
                rest = rest.dropFirst()
            }
        }
        return cells
    }

    /// The lines of a run's output that draw the image.
    static func drawing(_ output: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.contains("\u{2580}") }
    }

    @Test func thePreviewShowsEachPixelInItsHalfCell() throws {
        // 3×3 distinct opaque colours: two lines, the last with only upper halves.
        let colours: [[UInt8]] = (0..<9).map { (index: Int) -> [UInt8] in
            let value = UInt8(index)
            return [value * 20, 255 - value * 10, value * 7, 255]
        }
        let path = try Self.pngFile(width: 3, height: 3, pixels: colours.flatMap { $0 })
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = DecantTool().capture(["decode", "--preview", "--content-type", "image/png", path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("image: PNG 3×3, 1 frame"))
        let lines = Self.drawing(outcome.standardOutput)
        try #require(lines.count == 2)
        for (lineIndex, line) in lines.enumerated() {
            let cells = Self.cells(line)
            try #require(cells.count == 3)
            for (x, cell) in cells.enumerated() {
                let top = lineIndex * 2
                #expect(cell.top == colours[top * 3 + x].prefix(3).map(Int.init))
                if top + 1 < 3 { #expect(cell.bottom == colours[(top + 1) * 3 + x].prefix(3).map(Int.init)) }
            }
            #expect(line.hasSuffix("\u{1B}[0m"))
        }
    }

    /// A wide image is scaled down to 80 columns when the width is unknown, each cell the mean of what it covers;
    /// transparent pixels show the grey checkerboard.
    @Test func aWideImageIsFittedAndTransparencyShowsTheCheckerboard() throws {
        // 160×40: left half opaque white, right half transparent.
        var pixels = [UInt8](repeating: 0, count: 160 * 40 * 4)
        for y in 0..<40 {
            for x in 0..<80 {
                let start = (y * 160 + x) * 4
                pixels.replaceSubrange(start..<start + 4, with: [255, 255, 255, 255])
            }
        }
        let path = try Self.pngFile(width: 160, height: 40, pixels: pixels)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = DecantTool().capture(["decode", "--preview", "--content-type", "image/png", path])
        let lines = Self.drawing(outcome.standardOutput)
        #expect(lines.count == 10)  // 80 columns by 20 pixel rows
        let first = Self.cells(try #require(lines.first))
        #expect(first.count == 80)
        #expect(first[0].top == [255, 255, 255])
        let greys = Set(first[40...].map(\.top))
        #expect(greys == [[0x99, 0x99, 0x99], [0x66, 0x66, 0x66]])
    }

    /// Output that is not a terminal keeps the usual text: no summary line, no drawing; `--no-preview` likewise.
    @Test(arguments: [[], ["--no-preview"]])
    func withoutATerminalNothingIsDrawn(_ extra: [String]) throws {
        let path = try Self.pngFile(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = DecantTool().capture(["decode"] + extra + ["--content-type", "image/png", path])
        #expect(outcome.status == 0)
        #expect(!outcome.standardOutput.contains("image: "))
        #expect(Self.drawing(outcome.standardOutput).isEmpty)
        #expect(outcome.standardOutput.contains(#""format":"png","width":2,"height":2"#))
    }

    /// `--png` and `--rgba` write the frame `--frame` picks: the raw file holds its canvas, top-down RGBA8.
    @Test(arguments: [0, 1])
    func framesAreWrittenAsPNGAndRawRGBA(_ frame: Int) throws {
        let gif = Self.temporaryPath(".gif")
        let png = Self.temporaryPath(".png")
        let rgba = Self.temporaryPath(".rgba")
        defer { for path in [gif, png, rgba] { try? FileManager.default.removeItem(atPath: path) } }
        try Data(Self.twoFrameGIF).write(to: URL(fileURLWithPath: gif))
        let outcome = DecantTool().capture([
            "decode", "--content-type", "image/gif", "--frame", String(frame), "--png", png, "--rgba", rgba, gif,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let red: [UInt8] = [255, 0, 0, 255]
        let expected = red + red + red + (frame == 0 ? red : [0, 0, 255, 255])
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: rgba))) == expected)
        let written = try ImageResponseSerializer().serialize(
            Response(
                status: 200, headers: ["Content-Type": "image/png"], body: Data(contentsOf: URL(fileURLWithPath: png))))
        #expect(written.pixels == expected)
    }

    /// `Tests/DecantImageTests/Fixtures/jpeg`: the JPEG fixtures, with Pillow's renderings beside them.
    static let jpegFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../DecantImageTests/Fixtures/jpeg").standardized

    /// A JPEG stored sideways (EXIF orientation 6, 7×4 stored): `--apply-orientation` writes it upright as Pillow's
    /// `exif_transpose` shows it, without the option the file holds the stored pixels, and the preview is drawn
    /// upright (4 columns, 7 pixel rows) after a summary that names the orientation.
    @Test func orientationIsAppliedOnRequestAndInThePreview() throws {
        let jpeg = Self.jpegFixtures.appendingPathComponent("orientation6.jpg").path
        let rgba = Self.temporaryPath(".rgba")
        defer { try? FileManager.default.removeItem(atPath: rgba) }
        let upright = try ImageResponseSerializer().serialize(
            Response(
                status: 200, headers: ["Content-Type": "image/png"],
                body: Data(contentsOf: Self.jpegFixtures.appendingPathComponent("orientation6.upright.png"))))
        #expect(upright.width == 4 && upright.height == 7)
        for applies in [true, false] {
            let outcome = DecantTool().capture(
                ["decode", "--content-type", "image/jpeg", "--rgba", rgba, jpeg]
                    + (applies ? ["--apply-orientation"] : []))
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let written = Array(try Data(contentsOf: URL(fileURLWithPath: rgba)))
            #expect(written.count == 4 * 7 * 4)
            let largest = zip(written, upright.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            if applies { #expect(largest <= 4) } else { #expect(largest > 40) }
        }
        let preview = DecantTool().capture(["decode", "--preview", "--content-type", "image/jpeg", jpeg])
        #expect(preview.standardOutput.contains("image: JPEG 7×4, 1 frame, rgb 8-bit, orientation 6 (rotate 90°"))
        let lines = Self.drawing(preview.standardOutput)
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { Self.cells($0).count == 4 })
    }

    /// With `--apply-orientation`, the printed value is the image the files hold: for orientations 5 to 8 (stored
    /// 7×4) the printed size is 4×7, the `--rgba` file's, and the printed checksum is that of the file's pixels;
    /// without the option, the stored size. The upright sizes are Pillow's `exif_transpose` renderings' beside the
    /// fixtures.
    @Test(arguments: 1...8)
    func thePrintedSizeIsTheWrittenImages(orientation: Int) throws {
        let jpeg = Self.jpegFixtures.appendingPathComponent("orientation\(orientation).jpg").path
        let upright = try ImageResponseSerializer().serialize(
            Response(
                status: 200, headers: ["Content-Type": "image/png"],
                body: Data(
                    contentsOf: Self.jpegFixtures.appendingPathComponent("orientation\(orientation).upright.png"))))
        #expect(upright.width == (orientation >= 5 ? 4 : 7))
        let rgba = Self.temporaryPath(".rgba")
        defer { try? FileManager.default.removeItem(atPath: rgba) }
        for applies in [true, false] {
            let outcome = DecantTool().capture(
                ["decode", "--json", "--content-type", "image/jpeg", "--rgba", rgba, jpeg]
                    + (applies ? ["--apply-orientation"] : []))
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let (width, height) = applies ? (upright.width, upright.height) : (7, 4)
            let output = outcome.standardOutput
            #expect(output.contains("\"width\":\(width),\"height\":\(height)"), "\(output)")
            let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rgba)))
            #expect(written.count == width * height * 4)
            // The written pixels' canonical form (opaque, so its digest is the SHA-256 of the file) is the printed one.
            let canonical = String(
                decoding: try CanonicalForm.of(Image(width: width, height: height, pixels: written, format: .jpeg))
                    .jsonData(), as: UTF8.self)
            func digest(_ text: String) -> Substring? {
                text.range(of: "\"rgbaSHA256\":\"").map { text[$0.upperBound...].prefix(64) }
            }
            #expect(digest(output) != nil && digest(output) == digest(canonical), "\(output)")
        }
    }

    /// A TIFF page has its own size: `--frame 1` of a three-page file whose second page is 12×14 writes that page
    /// (equal to Pillow's decoding of it) and draws it 12 columns wide.
    @Test func aTIFFPageIsWrittenAndDrawnAtItsOwnSize() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../DecantImageTests/Fixtures/tiff").standardized
        let tiff = fixtures.appendingPathComponent("multipage_lzw.tiff").path
        let png = Self.temporaryPath(".png")
        let rgba = Self.temporaryPath(".rgba")
        defer { for path in [png, rgba] { try? FileManager.default.removeItem(atPath: path) } }
        let outcome = DecantTool().capture([
            "decode", "--preview", "--content-type", "image/tiff", "--frame", "1", "--png", png, "--rgba", rgba, tiff,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let reference = try ImageResponseSerializer().serialize(
            Response(
                status: 200, headers: ["Content-Type": "image/png"],
                body: Data(contentsOf: fixtures.appendingPathComponent("multipage_lzw_page1.png"))))
        #expect(reference.width == 12 && reference.height == 14)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: rgba))) == reference.pixels)
        let written = try ImageResponseSerializer().serialize(
            Response(
                status: 200, headers: ["Content-Type": "image/png"], body: Data(contentsOf: URL(fileURLWithPath: png))))
        #expect(written.width == 12 && written.height == 14 && written.pixels == reference.pixels)
        let lines = Self.drawing(outcome.standardOutput)
        #expect(lines.count == 7)
        #expect(lines.allSatisfy { Self.cells($0).count == 12 })
    }

    @Test func aFrameThatDoesNotExistIsAnError() throws {
        let gif = Self.temporaryPath(".gif")
        let rgba = Self.temporaryPath(".rgba")
        defer { for path in [gif, rgba] { try? FileManager.default.removeItem(atPath: path) } }
        try Data(Self.twoFrameGIF).write(to: URL(fileURLWithPath: gif))
        let outcome = DecantTool().capture([
            "decode", "--content-type", "image/gif", "--frame", "2", "--rgba", rgba, gif,
        ])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("the image has 2 frames"))
        #expect(!FileManager.default.fileExists(atPath: rgba))
    }

    @Test func imageOptionsOnAnotherValueSayWhy() throws {
        let path = Self.temporaryPath(".json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("[1]".utf8).write(to: URL(fileURLWithPath: path))
        let outcome = DecantTool().capture(["decode", "--content-type", "application/json", "--png", "x.png", path])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("need an image"))
    }

    @Test(arguments: [["--frame", "-1"], ["--frame", "first"], ["--preview", "--no-preview"]])
    func badImageOptionsAreUsageErrors(_ arguments: [String]) {
        let outcome = DecantTool().capture(["decode", "--content-type", "image/png"] + arguments + ["x.png"])
        #expect(outcome.status == 2)
    }
}
