import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turning decoded coefficients into RGBA8 pixels: inverse DCT, chroma upsampling, colour conversion.
extension JPEGDecoder {
    /// The colour space of the components, decided as libjpeg does from their count, JFIF, Adobe and identifiers.
    enum ColorSpace {
        /// One component of grey levels.
        case gray
        /// JFIF luma and chroma (ITU-R BT.601, full range).
        case yCbCr
        /// Red, green and blue stored as they are (Adobe transform 0, or component identifiers 'R', 'G', 'B').
        case rgb
        /// CMYK or YCCK, `inverted` when an Adobe segment says Photoshop stored the inks inverted.
        case cmyk(inverted: Bool), ycck(inverted: Bool)
    }

    /// The colour space the frame's components are in.
    var colorSpace: ColorSpace {
        switch components.count {
        case 1:
            return .gray
        case 3:
            if let embeddedColorSpace { return embeddedColorSpace }
            let ids = components.map(\.id)
            if ids == [1, 2, 3] { return .yCbCr }
            if ids == [0x52, 0x47, 0x42] { return .rgb }  // 'R', 'G', 'B'
            if sawJFIF { return .yCbCr }
            if adobeTransform == 0 { return .rgb }
            return .yCbCr
        default:
            if adobeTransform == 2 { return .ycck(inverted: true) }
            return .cmyk(inverted: adobeTransform != nil)
        }
    }

    /// Transforms every block of component `index` into its plane of samples, `blocksPerLine * 8` wide.
    func plane(of index: Int) -> [UInt8] {
        let component = components[index]
        let stride = component.blocksPerLine * 8
        var plane = [UInt8](repeating: 0, count: stride * component.blocksPerColumn * 8)
        let quantization = component.quantization ?? [Int32](repeating: 0, count: 64)
        var workspace = [Int32](repeating: 0, count: 64)
        // Only the blocks that hold samples are transformed; the MCU padding is never shown.
        let rows = min(component.blocksPerColumn, component.usedBlocksPerColumn + 1)
        let columns = min(component.blocksPerLine, component.usedBlocksPerLine + 1)
        let coefficientBase = component.coefficients.pointer
        quantization.withUnsafeBufferPointer { quantization in
            workspace.withUnsafeMutableBufferPointer { workspace in
                plane.withUnsafeMutableBufferPointer { plane in
                    guard stride / 8 * component.blocksPerColumn * 64 <= component.coefficients.count,
                        let table = quantization.baseAddress,
                        let work = workspace.baseAddress, let output = plane.baseAddress
                    else { return }
                    for row in 0..<rows {
                        for column in 0..<columns {
                            JPEGIDCT.inverse(
                                coefficientBase + (row * component.blocksPerLine + column) * 64,
                                quantization: table, workspace: work,
                                output: output + row * 8 * stride + column * 8, stride: stride)
                        }
                    }
                }
            }
        }
        return plane
    }

    /// Component `index` at full resolution: `width * height` samples, `width` per row.
    ///
    /// Chroma subsampled 2:1 horizontally (h2v1), in both directions (h2v2) or vertically (h1v2) is interpolated
    /// triangularly, 3/4 of the nearer sample and 1/4 of the farther, with the rounding of libjpeg's "fancy"
    /// upsampling (horizontally only for components more than 2 samples wide, as libjpeg does); other factors are
    /// replicated.
    func upsampled(_ index: Int) -> [UInt8] {
        let component = components[index]
        let source = plane(of: index)
        let stride = component.blocksPerLine * 8
        let horizontalRatio = maxHorizontal / component.horizontal
        let verticalRatio = maxVertical / component.vertical
        // libjpeg interpolates horizontally only when the component is more than 2 samples wide.
        let exactH = maxHorizontal % component.horizontal == 0 && (horizontalRatio == 1 || component.width > 2)
        let exactV = maxVertical % component.vertical == 0
        var output = [UInt8](repeating: 0, count: width * height)
        let lastRow = component.height - 1
        let count = component.width
        source.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { output in
                guard let input = source.baseAddress, let out = output.baseAddress else { return }
                if horizontalRatio == 1 && verticalRatio == 1 && exactH && exactV {
                    for y in 0..<height { (out + y * width).update(from: input + y * stride, count: width) }
                } else if horizontalRatio == 2 && verticalRatio == 1 && exactH && exactV {
                    var wide = [UInt8](repeating: 0, count: 2 * count)
                    for y in 0..<height {
                        let row = input + y * stride
                        for i in 0..<count {
                            let center = 3 * Int(row[i])
                            let left = Int(i > 0 ? row[i - 1] : row[i])
                            let right = Int(i < count - 1 ? row[i + 1] : row[i])
                            wide[2 * i] = UInt8(truncatingIfNeeded: (center + left + 1) >> 2)
                            wide[2 * i + 1] = UInt8(truncatingIfNeeded: (center + right + 2) >> 2)
                        }
                        for x in 0..<width { out[y * width + x] = wide[x] }
                    }
                } else if horizontalRatio == 2 && verticalRatio == 2 && exactH && exactV {
                    var sums = [Int](repeating: 0, count: count)
                    for y in 0..<height {
                        let row = input + (y / 2) * stride
                        let neighbour = input + min(max(y / 2 + (y % 2 == 0 ? -1 : 1), 0), lastRow) * stride
                        for i in 0..<count { sums[i] = 3 * Int(row[i]) + Int(neighbour[i]) }
                        for x in 0..<width {
                            let i = x / 2
                            let center = 3 * sums[i]
                            if x % 2 == 0 {
                                out[y * width + x] = UInt8(
                                    truncatingIfNeeded: (center + (i > 0 ? sums[i - 1] : sums[i]) + 8) >> 4)
                            } else {
                                let right = i < count - 1 ? sums[i + 1] : sums[i]
                                out[y * width + x] = UInt8(truncatingIfNeeded: (center + right + 7) >> 4)
                            }
                        }
                    }
                } else if horizontalRatio == 1 && verticalRatio == 2 && exactH && exactV {
                    for y in 0..<height {
                        let row = input + (y / 2) * stride
                        let upper = y % 2 == 0
                        let neighbour = input + min(max(y / 2 + (upper ? -1 : 1), 0), lastRow) * stride
                        let bias = upper ? 1 : 2
                        for x in 0..<width {
                            out[y * width + x] = UInt8(
                                truncatingIfNeeded: (3 * Int(row[x]) + Int(neighbour[x]) + bias) >> 2)
                        }
                    }
                } else {
                    for y in 0..<height {
                        let row = input + (y * component.vertical / maxVertical) * stride
                        for x in 0..<width { out[y * width + x] = row[x * component.horizontal / maxHorizontal] }
                    }
                }
            }
        }
        return output
    }

    /// Decodes the pixels after EOI and returns the image.
    mutating func finish(source: Data) throws(SerializationError) -> Image {
        var planes = components.indices.map { upsampled($0) }
        // A fourth plane that is never read keeps the conversion below uniform for 1 and 3 components.
        while planes.count < 4 { planes.append([]) }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let count = width * height
        let space = colorSpace
        pixels.withUnsafeMutableBufferPointer { pixels in
            planes[0].withUnsafeBufferPointer { first in
                planes[1].withUnsafeBufferPointer { second in
                    planes[2].withUnsafeBufferPointer { third in
                        planes[3].withUnsafeBufferPointer { fourth in
                            guard let out = pixels.baseAddress, let p0 = first.baseAddress else { return }
                            Self.convert(
                                space, count: count, p0, second.baseAddress ?? p0, third.baseAddress ?? p0,
                                fourth.baseAddress ?? p0, into: out)
                        }
                    }
                }
            }
        }
        return Image(
            width: width, height: height, pixels: pixels, format: .jpeg, scale: options.imageScale,
            metadata: metadata)
    }

    /// Converts `count` samples of the planes `p0`...`p3` (those the colour space uses) to RGB in `out`, whose alpha
    /// bytes are already 255.
    static func convert(
        _ space: ColorSpace, count: Int, _ p0: UnsafePointer<UInt8>, _ p1: UnsafePointer<UInt8>,
        _ p2: UnsafePointer<UInt8>, _ p3: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>
    ) {
        switch space {
        case .gray:
            for i in 0..<count {
                out[4 * i] = p0[i]
                out[4 * i + 1] = p0[i]
                out[4 * i + 2] = p0[i]
            }
        case .rgb:
            for i in 0..<count {
                out[4 * i] = p0[i]
                out[4 * i + 1] = p1[i]
                out[4 * i + 2] = p2[i]
            }
        case .yCbCr:
            for i in 0..<count {
                let rgb = rgb(y: p0[i], cb: p1[i], cr: p2[i])
                out[4 * i] = rgb.0
                out[4 * i + 1] = rgb.1
                out[4 * i + 2] = rgb.2
            }
        case .cmyk(let inverted):
            for i in 0..<count {
                var ink = (p0[i], p1[i], p2[i], p3[i])
                if inverted { ink = (~ink.0, ~ink.1, ~ink.2, ~ink.3) }
                let rgb = rgb(cyan: ink.0, magenta: ink.1, yellow: ink.2, black: ink.3)
                out[4 * i] = rgb.0
                out[4 * i + 1] = rgb.1
                out[4 * i + 2] = rgb.2
            }
        case .ycck(let inverted):
            for i in 0..<count {
                // YCC to RGB gives the inverted inks (C = 255 - R, ...), K as stored (libjpeg's YCCK -> CMYK).
                let converted = rgb(y: p0[i], cb: p1[i], cr: p2[i])
                var ink = (~converted.0, ~converted.1, ~converted.2, p3[i])
                if inverted { ink = (~ink.0, ~ink.1, ~ink.2, ~ink.3) }
                let rgb = rgb(cyan: ink.0, magenta: ink.1, yellow: ink.2, black: ink.3)
                out[4 * i] = rgb.0
                out[4 * i + 1] = rgb.1
                out[4 * i + 2] = rgb.2
            }
        }
    }

    /// JFIF YCbCr to RGB (full-range ITU-R BT.601), in 16-bit fixed point rounded as libjpeg does.
    @inline(__always)
    static func rgb(y: UInt8, cb: UInt8, cr: UInt8) -> (UInt8, UInt8, UInt8) {
        let luma = Int(y)
        let blue = Int(cb) - 128
        let red = Int(cr) - 128
        let half = 1 << 15
        // round(1.402 * 2^16), round(1.772 * 2^16), round(0.71414 * 2^16), round(0.34414 * 2^16).
        let r = luma + ((91881 * red + half) >> 16)
        let g = luma + ((-46802 * red - 22554 * blue + half) >> 16)
        let b = luma + ((116130 * blue + half) >> 16)
        return (JPEGIDCT.clamp(r), JPEGIDCT.clamp(g), JPEGIDCT.clamp(b))
    }

    /// CMYK inks to RGB as Pillow converts mode CMYK to RGB: each channel `(255 - ink) * (255 - black) / 255`,
    /// rounded.
    @inline(__always)
    static func rgb(cyan: UInt8, magenta: UInt8, yellow: UInt8, black: UInt8) -> (UInt8, UInt8, UInt8) {
        let white = 255 - Int(black)
        @inline(__always) func channel(_ ink: UInt8) -> UInt8 {
            let product = (255 - Int(ink)) * white + 128
            return UInt8(truncatingIfNeeded: (product + (product >> 8)) >> 8)
        }
        return (channel(cyan), channel(magenta), channel(yellow))
    }
}
