import Decant

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `decode`'s image output: `--png OUT`, `--rgba OUT` and `--frame N` write a frame's pixels, and on a terminal (or
/// with `--preview`) the image is drawn after the usual text.
extension DecodeCommand {
    /// What the image options ask for.
    struct ImageOutput {
        /// `--png OUT`.
        var pngPath: String?
        /// `--rgba OUT`.
        var rgbaPath: String?
        /// `--frame N`: the animation frame to write and draw, from 0.
        var frame: Int?
        /// `--apply-orientation`: the files hold the pixels rotated and mirrored as the EXIF orientation says.
        var appliesOrientation: Bool
        /// Whether to draw the image: `--preview`, or standard output is a terminal and `--no-preview` is absent.
        var preview: Bool

        /// Reads the options, checking `--frame` is a number.
        init(_ parsed: CommandLineArguments, asJSON: Bool) throws {
            pngPath = parsed.value("--png")
            appliesOrientation = parsed.has("--apply-orientation")
            rgbaPath = parsed.value("--rgba")
            if let text = parsed.value("--frame") {
                guard let number = Int(text), number >= 0 else {
                    throw CommandLineArguments.UsageError(
                        description: "--frame takes a frame number from 0 (the first frame), not '\(text)'")
                }
                frame = number
            }
            if parsed.has("--preview") && parsed.has("--no-preview") {
                throw CommandLineArguments.UsageError(description: "--preview and --no-preview contradict each other")
            }
            preview = parsed.has("--preview") || (!parsed.has("--no-preview") && !asJSON && Output.isTerminal)
        }

        /// Whether any option needs the value to be an image.
        var needsImage: Bool { pngPath != nil || rgbaPath != nil || frame != nil || appliesOrientation }
    }

    /// Writes the files `output` asks for from `value`, when it is an image; returns an error message for a value
    /// that is not an image, a frame that does not exist or a file that cannot be written. With
    /// `--apply-orientation`, `value` becomes the image as written (rotated and mirrored, width and height swapped
    /// for orientations 5 to 8), so that the printed value gives the files' size.
    static func writeImageFiles(
        _ value: inout any Sendable, serializerID: SerializerID, _ output: ImageOutput
    ) -> String? {
        guard output.needsImage else { return nil }
        guard var image = value as? Image else {
            return
                "--png, --rgba, --frame and --apply-orientation need an image, but '\(serializerID)' decoded the body to "
                + "\(type(of: value)); check the media type (--content-type) or drop those options"
        }
        do {
            if output.appliesOrientation {
                image = try image.decoded().oriented()
                value = image
            }
            let pixels = try framePixels(image, frame: output.frame)
            if let path = output.pngPath {
                let png = try image.pngData(frame: image.frames.isEmpty ? nil : output.frame)
                try write(png, to: path)
            }
            if let path = output.rgbaPath {
                try write(Data(pixels.rgba), to: path)
            }
        } catch let error as SerializationError {
            return error.message
        } catch {
            return "\(error)"
        }
        return nil
    }

    /// The straight-alpha RGBA8 pixels of frame `frame` (the image itself when `nil`), decoded if they were not, with
    /// their size (a TIFF page's own).
    static func framePixels(
        _ image: Image, frame: Int?
    ) throws(SerializationError) -> (rgba: [UInt8], width: Int, height: Int) {
        let image = try image.decoded()
        var pixels = image.pixels
        var size = (width: image.width, height: image.height)
        if let frame {
            let count = max(1, image.frames.count)
            guard frame < count else {
                throw SerializationError(
                    code: .invalidOption,
                    message: "--frame \(frame): the image has \(count) frame\(count == 1 ? "" : "s") "
                        + "(numbered from 0 to \(count - 1))")
            }
            if !image.frames.isEmpty {
                pixels = image.frames[frame].pixels
                size = image.pixelSize(ofFrame: frame)
            }
        }
        if image.isPremultiplied {
            var index = 0
            while index + 3 < pixels.count {
                let alpha = Int(pixels[index + 3])
                if alpha != 0 && alpha != 255 {
                    for channel in 0..<3 {
                        pixels[index + channel] = UInt8(
                            min(255, (Int(pixels[index + channel]) * 255 + alpha / 2) / alpha))
                    }
                }
                index += 4
            }
        }
        return (pixels, size.width, size.height)
    }

    /// Writes `data` to the file at `path`, replacing it.
    static func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw SerializationError(
                code: .invalidOption, message: "cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// The summary and the drawing printed after the usual text on a terminal: the image upright, as a viewer shows
    /// it (its EXIF orientation applied).
    static func printPreview(_ image: Image, frame: Int?) {
        let decoded: (rgba: [UInt8], width: Int, height: Int)
        do {
            decoded = try framePixels(image.decoded().oriented(), frame: frame)
        } catch {
            Output.line("preview: not drawn: \(error.message)")
            return
        }
        Output.line("image: " + summary(image))
        let size = Output.terminalSize
        let lines = TerminalPreview.render(
            rgba: decoded.rgba, width: decoded.width, height: decoded.height, columns: size.columns,
            maxLines: size.rows.map { max(4, $0 - 4) })
        for line in lines { Output.line(line) }
    }

    /// One line about an image: format, size, frames, colour space, orientation, density and colour profile.
    static func summary(_ image: Image) -> String {
        var parts = ["\(image.format) \(image.width)×\(image.height)"]
        parts.append("\(image.frameCount) frame\(image.frameCount == 1 ? "" : "s")")
        let metadata = image.metadata
        if let colorType = metadata.colorType {
            parts.append(colorType.rawValue + (metadata.bitDepth.map { " \($0)-bit" } ?? ""))
        }
        if metadata.isInterlaced { parts.append("interlaced") }
        if metadata.hasTransparency { parts.append("transparency") }
        if let orientation = metadata.exifOrientation {
            parts.append("orientation \(orientation) (\(orientationName(orientation)))")
        }
        if let dpi = metadata.dotsPerInch {
            let x = Int(dpi.x.rounded())
            let y = Int(dpi.y.rounded())
            parts.append(x == y ? "\(x) dpi" : "\(x)×\(y) dpi")
        }
        if metadata.hasICCProfile { parts.append("ICC profile" + (metadata.iccProfileName.map { " '\($0)'" } ?? "")) }
        return parts.joined(separator: ", ")
    }

    /// What an EXIF orientation (TIFF 6.0 tag 274) asks a viewer to do to the stored pixels.
    static func orientationName(_ value: Int) -> String {
        switch value {
        case 1: return "as stored"
        case 2: return "mirror horizontally"
        case 3: return "rotate 180°"
        case 4: return "mirror vertically"
        case 5: return "mirror horizontally and rotate 270° clockwise"
        case 6: return "rotate 90° clockwise"
        case 7: return "mirror horizontally and rotate 90° clockwise"
        case 8: return "rotate 270° clockwise"
        default: return "unknown value"
        }
    }
}

/// Draws RGBA8 pixels on a terminal with 24-bit ANSI colours and upper half blocks: each character cell shows two
/// pixels, the upper one in the foreground colour and the lower one in the background colour, so square pixels stay
/// square in a cell about twice as tall as it is wide.
enum TerminalPreview {
    /// The most lines drawn when the terminal's height is unknown.
    static let defaultMaxLines = 48

    /// The lines to print: the image scaled down (never up) to at most `columns` wide and `maxLines` lines, each
    /// drawn pixel the average of the source pixels it covers; transparency shows a grey checkerboard.
    static func render(rgba: [UInt8], width: Int, height: Int, columns: Int, maxLines: Int?) -> [String] {
        guard width > 0, height > 0, rgba.count >= width * height * 4 else { return [] }
        let maxRows = 2 * max(1, maxLines ?? defaultMaxLines)
        // Fit the width first, then the height, keeping the aspect ratio.
        var outputWidth = min(width, max(1, columns))
        var outputHeight = max(1, (height * outputWidth + width / 2) / width)
        if outputHeight > maxRows {
            outputHeight = maxRows
            outputWidth = max(1, min(outputWidth, (width * maxRows + height / 2) / height))
        }
        let cells = sample(
            rgba: rgba, width: width, height: height, outputWidth: outputWidth, outputHeight: outputHeight)
        var lines: [String] = []
        lines.reserveCapacity((outputHeight + 1) / 2)
        var row = 0
        while row < outputHeight {
            var line = ""
            var foreground: (UInt8, UInt8, UInt8)?
            var background: (UInt8, UInt8, UInt8)?
            for x in 0..<outputWidth {
                let top = cells[row * outputWidth + x]
                if foreground.map({ $0 != top }) ?? true {
                    line += "\u{1B}[38;2;\(top.0);\(top.1);\(top.2)m"
                    foreground = top
                }
                if row + 1 < outputHeight {
                    let bottom = cells[(row + 1) * outputWidth + x]
                    if background.map({ $0 != bottom }) ?? true {
                        line += "\u{1B}[48;2;\(bottom.0);\(bottom.1);\(bottom.2)m"
                        background = bottom
                    }
                }
                line += "\u{2580}"
            }
            lines.append(line + "\u{1B}[0m")
            row += 2
        }
        return lines
    }

    /// The colour of each output pixel: the mean of the source pixels its area covers, each composited over the
    /// checkerboard square under it (light and dark grey, 4 output pixels a side).
    static func sample(
        rgba: [UInt8], width: Int, height: Int, outputWidth: Int, outputHeight: Int
    ) -> [(UInt8, UInt8, UInt8)] {
        var red = [Int](repeating: 0, count: outputWidth * outputHeight)
        var green = red
        var blue = red
        var alpha = red
        var count = red
        for y in 0..<height {
            let outputY = y * outputHeight / height
            for x in 0..<width {
                let outputX = x * outputWidth / width
                let cell = outputY * outputWidth + outputX
                let index = (y * width + x) * 4
                let a = Int(rgba[index + 3])
                red[cell] += Int(rgba[index]) * a
                green[cell] += Int(rgba[index + 1]) * a
                blue[cell] += Int(rgba[index + 2]) * a
                alpha[cell] += a
                count[cell] += 1
            }
        }
        var cells = [(UInt8, UInt8, UInt8)](repeating: (0, 0, 0), count: outputWidth * outputHeight)
        for cell in 0..<cells.count where count[cell] > 0 {
            let x = cell % outputWidth
            let y = cell / outputWidth
            let backdrop = (x / 4 + y / 4) % 2 == 0 ? 0x99 : 0x66
            let total = 255 * count[cell]
            let uncovered = backdrop * (total - alpha[cell])
            func channel(_ sum: Int) -> UInt8 { UInt8((sum + uncovered + total / 2) / total) }
            cells[cell] = (channel(red[cell]), channel(green[cell]), channel(blue[cell]))
        }
        return cells
    }
}
