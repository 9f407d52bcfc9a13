import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Converting the decoded samples to RGBA8 (TIFF 6.0 §3-§5, §16 for CMYK, §18 for ExtraSamples), as Pillow does.
extension TIFFPage {
    /// Converts the planes of samples in `raw` (`planeRowBytes` per row) to RGBA8 in `pixels`, whose alpha bytes are
    /// already 255.
    ///
    /// Integer samples of more than 8 bits keep their high 8 bits; those of fewer are scaled to 0...255 (1-bit 0
    /// and 255, 2-bit multiples of 85, 4-bit of 17). Signed samples are offset by half their range. Floating-point
    /// samples are taken as 0...1 and scaled to 0...255, clamped. WhiteIsZero is inverted. Palette indices map
    /// through the ColorMap's high bytes (those past a short ColorMap's end are black). CMYK converts as Pillow does:
    /// each channel `(255 - ink) * (255 - K) / 255`.
    /// Associated alpha is divided out as Pillow does (`min(255, colour * 255 / alpha)`, truncated).
    func convert(_ raw: [UInt8], planeRowBytes: Int, into pixels: inout [UInt8]) {
        let samples = samplesPerPixel
        let planeSamples = isPlanar ? 1 : samples
        let planeSize = planeRowBytes * height
        let little = decoder.littleEndian
        let bits = bitsPerSample
        let maximum = bits >= 32 ? 0 : (1 << bits) - 1
        let palette: [UInt8] = colorMap.map { UInt8(truncatingIfNeeded: $0 >> 8) }
        let paletteSize = photometric == 3 ? min(colorMap.count / 3, 1 << bits) : 0
        if bits == 8 && sampleFormat == 1 && !isPlanar && (photometric == 1 || photometric == 2)
            && !associatedAlpha
        {
            convert8(raw, planeRowBytes: planeRowBytes, into: &pixels)
            return
        }
        var row = [Int](repeating: 0, count: samples * width)
        raw.withUnsafeBufferPointer { raw in
            pixels.withUnsafeMutableBufferPointer { pixels in
                guard let source = raw.baseAddress, let out = pixels.baseAddress else { return }
                for y in 0..<height {
                    // Every sample of the row scaled to 8 bits (palette indices kept as they are).
                    for plane in 0..<(isPlanar ? samples : 1) {
                        let line = source + plane * planeSize + y * planeRowBytes
                        let count = width * planeSamples
                        for index in 0..<count {
                            let target = isPlanar ? index * samples + plane : index
                            row[target] = sample(line, index, bits: bits, little: little, maximum: maximum)
                        }
                    }
                    let pixelRow = out + y * width * 4
                    for x in 0..<width {
                        let s = x * samples
                        let pixel = pixelRow + x * 4
                        var red: Int, green: Int, blue: Int
                        switch photometric {
                        case 0:
                            red = 255 - row[s]
                            green = red
                            blue = red
                        case 1:
                            red = row[s]
                            green = red
                            blue = red
                        case 3:
                            let index = row[s]
                            if index < paletteSize {
                                red = Int(palette[index])
                                green = Int(palette[paletteSize + index])
                                blue = Int(palette[2 * paletteSize + index])
                            } else {
                                red = 0
                                green = 0
                                blue = 0
                            }
                        case 5:
                            let rgb = JPEGDecoder.rgb(
                                cyan: UInt8(row[s]), magenta: UInt8(row[s + 1]), yellow: UInt8(row[s + 2]),
                                black: UInt8(row[s + 3]))
                            red = Int(rgb.0)
                            green = Int(rgb.1)
                            blue = Int(rgb.2)
                        default:
                            red = row[s]
                            green = row[s + 1]
                            blue = row[s + 2]
                        }
                        if let alphaIndex {
                            let alpha = row[s + alphaIndex]
                            pixel[3] = UInt8(alpha)
                            if associatedAlpha {
                                if alpha == 0 {
                                    red = 0
                                    green = 0
                                    blue = 0
                                } else if alpha < 255 {
                                    red = min(255, red * 255 / alpha)
                                    green = min(255, green * 255 / alpha)
                                    blue = min(255, blue * 255 / alpha)
                                }
                            }
                        }
                        pixel[0] = UInt8(red)
                        pixel[1] = UInt8(green)
                        pixel[2] = UInt8(blue)
                    }
                }
            }
        }
    }

    /// The common case of ``convert(_:planeRowBytes:into:)``: chunky 8-bit unsigned grey or RGB, with or without an
    /// unassociated alpha, copied straight to RGBA8.
    func convert8(_ raw: [UInt8], planeRowBytes: Int, into pixels: inout [UInt8]) {
        let samples = samplesPerPixel
        let alpha = alphaIndex ?? -1
        let gray = photometric == 1
        raw.withUnsafeBufferPointer { raw in
            pixels.withUnsafeMutableBufferPointer { pixels in
                guard let source = raw.baseAddress, let out = pixels.baseAddress,
                    planeRowBytes * height <= raw.count, width * height * 4 <= pixels.count
                else { return }
                if !gray && alpha < 0 && samples == 3 {
                    // RGB: each pixel stored as one 32-bit word, opaque.
                    let words = UnsafeMutableRawPointer(out)
                    for y in 0..<height {
                        let input = source + y * planeRowBytes
                        let row = y * width
                        for x in 0..<width {
                            let pixel = input + 3 * x
                            let word =
                                UInt32(pixel[0]) | UInt32(pixel[1]) &<< 8 | UInt32(pixel[2]) &<< 16 | 0xFF00_0000
                            words.storeBytes(
                                of: UInt32(littleEndian: word), toByteOffset: 4 * (row + x), as: UInt32.self)
                        }
                    }
                    return
                }
                for y in 0..<height {
                    var input = source + y * planeRowBytes
                    var output = out + y * width * 4
                    for _ in 0..<width {
                        if gray {
                            output[0] = input[0]
                            output[1] = input[0]
                            output[2] = input[0]
                        } else {
                            output[0] = input[0]
                            output[1] = input[1]
                            output[2] = input[2]
                        }
                        if alpha >= 0 { output[3] = input[alpha] }
                        input += samples
                        output += 4
                    }
                }
            }
        }
    }

    /// Sample `index` of the row at `line`, scaled to 0...255 (a palette index as it is).
    @inline(__always)
    func sample(_ line: UnsafePointer<UInt8>, _ index: Int, bits: Int, little: Bool, maximum: Int) -> Int {
        if sampleFormat == 3 {
            let value: Double
            switch bits {
            case 16:
                let raw = UInt16(line[2 * index]) | UInt16(line[2 * index + 1]) << 8
                value = Double(Float16(bitPattern: little ? raw : raw.byteSwapped))
            case 32:
                var raw: UInt32 = 0
                for byte in 0..<4 { raw |= UInt32(line[4 * index + byte]) << UInt32(8 * byte) }
                value = Double(Float(bitPattern: little ? raw : raw.byteSwapped))
            default:
                var raw: UInt64 = 0
                for byte in 0..<8 { raw |= UInt64(line[8 * index + byte]) << UInt64(8 * byte) }
                value = Double(bitPattern: little ? raw : raw.byteSwapped)
            }
            guard !value.isNaN else { return 0 }
            return Int(min(max(value, 0), 1) * 255 + 0.5)
        }
        var value: Int
        switch bits {
        case 8:
            value = Int(line[index])
        case 16:
            value =
                little
                ? Int(line[2 * index]) | Int(line[2 * index + 1]) << 8
                : Int(line[2 * index]) << 8 | Int(line[2 * index + 1])
        case 32:
            value = 0
            for byte in 0..<4 {
                value = value << 8 | Int(line[4 * index + (little ? 3 - byte : byte)])
            }
        default:
            // Samples packed most significant bit first, rows starting on a byte.
            let start = index * bits
            value = 0
            for bit in start..<(start + bits) {
                value = value << 1 | Int((line[bit >> 3] >> (7 - UInt8(bit & 7))) & 1)
            }
        }
        if sampleFormat == 2 {
            // Signed: offset by half the range so the most negative value is 0.
            value ^= 1 << (bits - 1)
        }
        if photometric == 3 { return value }
        if bits == 8 { return value }
        if bits > 8 { return value >> (bits - 8) }
        return (value * 255 + maximum / 2) / maximum
    }
}
