extension PNGWriter {
    /// What the pixels need: whether they are all opaque, all grey, and their distinct colours when there are at most
    /// 256, found in one pass.
    struct ColourAnalysis {
        /// Whether every alpha is 255.
        var isOpaque: Bool
        /// Whether every pixel has R = G = B.
        var isGrey: Bool
        /// The distinct colours (`r | g << 8 | b << 16 | a << 24`), or `nil` when there are more than 256 or they
        /// were not counted.
        var colours: Set<UInt32>?

        init(_ rgba: [UInt8], countsColours: Bool) {
            var colours: Set<UInt32>? = countsColours ? [] : nil
            var isOpaque = true
            var isGrey = true
            var last: UInt32?
            rgba.withUnsafeBytes { bytes in
                var offset = 0
                while offset + 4 <= bytes.count {
                    let pixel = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                    offset += 4
                    if pixel == last { continue }
                    last = pixel
                    if pixel >> 24 != 255 { isOpaque = false }
                    let red = pixel & 0xFF
                    if (pixel >> 8) & 0xFF != red || (pixel >> 16) & 0xFF != red { isGrey = false }
                    if colours != nil {
                        colours!.insert(pixel)
                        if colours!.count > 256 { colours = nil }
                    }
                }
            }
            self.colours = colours
            self.isOpaque = isOpaque
            self.isGrey = isGrey
        }

        /// The smallest colour type that holds the pixels exactly: indexed only when its palette costs less than the
        /// bytes per pixel it saves.
        func colourType(pixelCount: Int) -> ColourType {
            if isGrey && isOpaque { return .grey }
            let direct: ColourType = isGrey ? .greyAlpha : isOpaque ? .truecolour : .truecolourAlpha
            if let colours, pixelCount * (direct.channels - 1) > colours.count * 4 + 24 { return .indexed }
            return direct
        }

        /// The palette (translucent colours first, so that `tRNS` is short; then by value) and each pixel's index.
        func indexed(_ rgba: [UInt8]) -> (palette: [UInt32], indices: [UInt8]) {
            let palette = (colours ?? []).sorted { ($0 >> 24 == 255 ? 1 : 0, $0) < ($1 >> 24 == 255 ? 1 : 0, $1) }
            var index = [UInt32: UInt8]()
            for (position, colour) in palette.enumerated() { index[colour] = UInt8(position) }
            let pixelCount = rgba.count / 4
            let indices = [UInt8](unsafeUninitializedCapacity: pixelCount) { output, initialized in
                rgba.withUnsafeBytes { bytes in
                    var last: UInt32 = 0
                    var lastIndex: UInt8 = index[0] ?? 0
                    for pixel in 0..<pixelCount {
                        let colour = UInt32(
                            littleEndian: bytes.loadUnaligned(fromByteOffset: pixel * 4, as: UInt32.self))
                        if colour != last {
                            last = colour
                            lastIndex = index[colour] ?? 0
                        }
                        output[pixel] = lastIndex
                    }
                }
                initialized = pixelCount
            }
            return (palette, indices)
        }
    }
}
