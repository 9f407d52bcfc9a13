import DecantCore

/// Uncompressed or losslessly compressed YCbCr images (TIFF 6.0 §21): chroma subsampled in blocks, converted to RGB
/// as libtiff's RGBA interface (and so Pillow) does.
extension TIFFPage {
    /// Decodes every strip or tile of blocks (each `h × v` luma samples, then Cb and Cr) into `pixels`, each block's
    /// chroma applying to all its pixels (no interpolation).
    func decodeYCbCr(into pixels: inout [UInt8]) throws(SerializationError) {
        let (h, v) = subsampling
        let blockBytes = h * v + 2
        let blocksAcross = (chunkWidth + h - 1) / h
        let (capacity, overflow) = blocksAcross.multipliedReportingOverflow(
            by: ((chunkHeight + v - 1) / v) * blockBytes)
        guard !overflow, capacity <= decoder.options.limits.maxTotalBytes - pixels.count else {
            throw SerializationError(
                code: .limitExceeded,
                message: "Decoding the \(width)×\(height) YCbCr TIFF image would take more than the limit of "
                    + "\(decoder.options.limits.maxTotalBytes) bytes; raise maxTotalBytes if the image is trusted.")
        }
        var chunk = [UInt8](repeating: 0, count: capacity)
        var lzw = compression == 5 ? LZWDecoder() : nil
        let table = YCbCrTable(luma: lumaWeights, reference: referenceBlackWhite)
        for down in 0..<chunksDown {
            let top = down * chunkHeight
            let rows = isTiled ? chunkHeight : min(chunkHeight, height - top)
            let blocksDown = (rows + v - 1) / v
            for across in 0..<chunksAcross {
                let index = down * chunksAcross + across
                try decompress(index, into: &chunk, at: 0, count: blocksAcross * blocksDown * blockBytes, lzw: &lzw)
                let left = across * chunkWidth
                for blockRow in 0..<blocksDown {
                    for blockColumn in 0..<blocksAcross {
                        let block = (blockRow * blocksAcross + blockColumn) * blockBytes
                        let cb = Int(chunk[block + h * v])
                        let cr = Int(chunk[block + h * v + 1])
                        for j in 0..<v {
                            let y = top + blockRow * v + j
                            guard y < height, blockRow * v + j < rows else { continue }
                            for i in 0..<h {
                                let x = left + blockColumn * h + i
                                guard x < width, blockColumn * h + i < chunkWidth else { continue }
                                let rgb = table.rgb(Int(chunk[block + j * h + i]), cb, cr)
                                let at = (y * width + x) * 4
                                pixels[at] = rgb.0
                                pixels[at + 1] = rgb.1
                                pixels[at + 2] = rgb.2
                            }
                        }
                    }
                }
            }
        }
    }
}

/// YCbCr to RGB (TIFF 6.0 §21: `R = Cr * (2 - 2 * LumaRed) + Y`, `B = Cb * (2 - 2 * LumaBlue) + Y`,
/// `G = (Y - LumaBlue * B - LumaRed * R) / LumaGreen`), each code first scaled by ReferenceBlackWhite, in the 16-bit
/// fixed point libtiff uses, so that the pixels equal those of libtiff's RGBA interface.
struct YCbCrTable {
    /// Y code to scaled luma.
    var luma = [Int](repeating: 0, count: 256)
    /// Cr code to its red term, Cb code to its blue term.
    var redFromCr = [Int](repeating: 0, count: 256), blueFromCb = [Int](repeating: 0, count: 256)
    /// Cr and Cb codes to their green terms, 16-bit fixed point (the Cb one with the rounding half).
    var greenFromCr = [Int](repeating: 0, count: 256), greenFromCb = [Int](repeating: 0, count: 256)

    /// Builds the tables from YCbCrCoefficients and ReferenceBlackWhite.
    init(luma weights: [Double], reference: [Double]) {
        let one = Float(1 << 16)
        func fixed(_ value: Float) -> Int { Int(value * one + 0.5) }
        let red = Float(weights[0]), green = Float(weights[1]), blue = Float(weights[2])
        let f1 = 2 - 2 * red
        let f2 = red * f1 / green
        let f3 = 2 - 2 * blue
        let f4 = blue * f3 / green
        let d1 = fixed(min(max(f1, 0), 2)), d2 = -fixed(min(max(f2, 0), 2))
        let d3 = fixed(min(max(f3, 0), 2)), d4 = -fixed(min(max(f4, 0), 2))
        /// A code scaled from the black...white reference range to `range` (TIFF 6.0 §21 "ReferenceBlackWhite").
        func scaled(_ code: Int, _ black: Float, _ white: Float, _ range: Float) -> Int {
            let span = white - black != 0 ? white - black : 1
            let value = (Float(code) - black) * range / span
            return Int(min(max(value, -128 * 32), 128 * 32))
        }
        let reference = reference.map { Float($0) }
        for index in 0..<256 {
            let code = index - 128
            let cr = scaled(code, reference[4] - 128, reference[5] - 128, 127)
            let cb = scaled(code, reference[2] - 128, reference[3] - 128, 127)
            redFromCr[index] = (d1 * cr + (1 << 15)) >> 16
            blueFromCb[index] = (d3 * cb + (1 << 15)) >> 16
            greenFromCr[index] = d2 * cr
            greenFromCb[index] = d4 * cb + (1 << 15)
            luma[index] = scaled(index, reference[0], reference[1], 255)
        }
    }

    /// The RGB of one pixel.
    @inline(__always)
    func rgb(_ y: Int, _ cb: Int, _ cr: Int) -> (UInt8, UInt8, UInt8) {
        let base = luma[y]
        func clamp(_ value: Int) -> UInt8 { UInt8(min(max(value, 0), 255)) }
        return (
            clamp(base + redFromCr[cr]), clamp(base + ((greenFromCb[cb] + greenFromCr[cr]) >> 16)),
            clamp(base + blueFromCb[cb])
        )
    }
}
