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

    /// The samples in component `index`'s plane: `blocksPerLine * 8` per row, `blocksPerColumn * 8` rows.
    func planeSize(of index: Int) -> Int {
        components[index].blocksPerLine * 8 * components[index].blocksPerColumn * 8
    }

    /// Transforms block rows `blockRows` of component `index`, whose coefficients start at block row `heldFrom` of
    /// its coefficient storage, into its plane at `output` (``planeSize(of:)`` samples, `blocksPerLine * 8` per row).
    /// Only the blocks that hold samples (and one more, which upsampling may read) are transformed; the rest of the
    /// MCU padding is never shown.
    func transform(_ index: Int, blockRows: Range<Int>, heldFrom: Int, into output: UnsafeMutablePointer<UInt8>) {
        let component = components[index]
        let stride = component.blocksPerLine * 8
        let quantization = component.quantization ?? [Int16](repeating: 0, count: 64)
        let columns = min(component.blocksPerLine, component.usedBlocksPerLine + 1)
        let coefficientBase = component.coefficients.pointer
        let heldRows = component.coefficients.count / max(1, component.blocksPerLine * 64)
        guard !blockRows.isEmpty, heldFrom >= 0, heldFrom + blockRows.count <= heldRows,
            blockRows.lowerBound >= 0, blockRows.upperBound <= component.blocksPerColumn
        else { return }
        quantization.withUnsafeBufferPointer { quantization in
            guard let table = quantization.baseAddress else { return }
            for (held, row) in zip(heldFrom..., blockRows) {
                for column in 0..<columns {
                    JPEGIDCT.inverse(
                        coefficientBase + (held * component.blocksPerLine + column) * 64, quantization: table,
                        output: output + row * 8 * stride + column * 8, stride: stride)
                }
            }
        }
    }

    /// How a component's plane becomes full-resolution rows.
    enum Upsampling {
        /// The component has full resolution: its plane's rows are read in place.
        case none
        /// 2:1 horizontally, triangular ("fancy"): 3/4 of the nearer sample and 1/4 of the farther.
        case h2v1
        /// 2:1 in both directions, triangular in both.
        case h2v2
        /// 2:1 vertically, triangular.
        case h1v2
        /// Any other ratio: samples replicated.
        case replicate
    }

    /// How component `index` is upsampled, as libjpeg's default ("fancy") upsampling chooses: triangular
    /// interpolation for 2:1 ratios (horizontally only for components more than 2 samples wide), replication
    /// otherwise.
    func upsampling(of index: Int) -> Upsampling {
        let component = components[index]
        let horizontalRatio = maxHorizontal / component.horizontal
        let verticalRatio = maxVertical / component.vertical
        let exactH = maxHorizontal % component.horizontal == 0 && (horizontalRatio == 1 || component.width > 2)
        let exactV = maxVertical % component.vertical == 0
        guard exactH && exactV else { return .replicate }
        switch (horizontalRatio, verticalRatio) {
        case (1, 1): return .none
        case (2, 1): return .h2v1
        case (2, 2): return .h2v2
        case (1, 2): return .h1v2
        default: return .replicate
        }
    }

    /// Stores `even[0], odd[0], even[1], odd[1], ...` as 16 bytes at `out` (every lane holds 0...255).
    @inline(__always)
    static func storeInterleaved(_ even: SIMD8<Int16>, _ odd: SIMD8<Int16>, at out: UnsafeMutablePointer<UInt8>) {
        let x = SIMD8<UInt8>(truncatingIfNeeded: even)
        let y = SIMD8<UInt8>(truncatingIfNeeded: odd)
        let bytes = SIMD16(
            x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3], x[4], y[4], x[5], y[5], x[6], y[6], x[7], y[7])
        UnsafeMutableRawPointer(out).storeBytes(of: bytes, as: SIMD16<UInt8>.self)
    }

    /// Writes output row `y` of component `index` at full resolution (`width` samples) to `out`, from its plane
    /// `input` (`stride` samples per row); `sums` holds at least the component's width. Rounding is libjpeg's.
    @inline(__always)
    func upsampleRow(
        _ index: Int, _ mode: Upsampling, y: Int, plane input: UnsafePointer<UInt8>, stride: Int,
        sums: UnsafeMutablePointer<Int16>, into out: UnsafeMutablePointer<UInt8>
    ) {
        let component = components[index]
        let count = component.width
        let lastRow = component.height - 1
        switch mode {
        case .none:
            out.update(from: input + y * stride, count: width)
        case .h2v1:
            // Interior samples branch-free; the first and last use themselves as their missing neighbour.
            let row = input + y * stride
            @inline(__always) func pair(_ i: Int, _ left: Int32, _ right: Int32) {
                let center = 3 &* Int32(row[i])
                let x = 2 &* i
                if x < width { out[x] = UInt8(truncatingIfNeeded: (center &+ left &+ 1) &>> 2) }
                if x &+ 1 < width { out[x &+ 1] = UInt8(truncatingIfNeeded: (center &+ right &+ 2) &>> 2) }
            }
            pair(0, Int32(row[0]), Int32(row[min(1, count - 1)]))
            if count > 2 {
                // Eight input samples at a time, then one by one.
                var i = 1
                while i &+ 8 < count {
                    @inline(__always) func load(_ offset: Int) -> SIMD8<Int16> {
                        SIMD8(truncatingIfNeeded: UnsafeRawPointer(row + offset).loadUnaligned(as: SIMD8<UInt8>.self))
                    }
                    let center = load(i) &* 3
                    Self.storeInterleaved(
                        (center &+ load(i &- 1) &+ 1) &>> 2, (center &+ load(i &+ 1) &+ 2) &>> 2, at: out + 2 &* i)
                    i &+= 8
                }
                while i < count &- 1 {
                    let center = 3 &* Int32(row[i])
                    out[2 &* i] = UInt8(truncatingIfNeeded: (center &+ Int32(row[i &- 1]) &+ 1) &>> 2)
                    out[2 &* i &+ 1] = UInt8(truncatingIfNeeded: (center &+ Int32(row[i &+ 1]) &+ 2) &>> 2)
                    i &+= 1
                }
            }
            if count > 1 { pair(count - 1, Int32(row[count - 2]), Int32(row[count - 1])) }
        case .h2v2:
            let row = input + (y / 2) * stride
            let neighbour = input + min(max(y / 2 + (y % 2 == 0 ? -1 : 1), 0), lastRow) * stride
            // The vertical sums (at most 4 * 255), eight at a time, then one by one.
            var start = 0
            while start &+ 8 <= count {
                @inline(__always) func load(_ plane: UnsafePointer<UInt8>) -> SIMD8<Int16> {
                    SIMD8(truncatingIfNeeded: UnsafeRawPointer(plane + start).loadUnaligned(as: SIMD8<UInt8>.self))
                }
                UnsafeMutableRawPointer(sums + start).storeBytes(
                    of: load(row) &* 3 &+ load(neighbour), as: SIMD8<Int16>.self)
                start &+= 8
            }
            for i in start..<count { sums[i] = 3 &* Int16(row[i]) &+ Int16(neighbour[i]) }
            // Interior samples branch-free; the first and last use themselves as their missing neighbour.
            @inline(__always) func pair(_ i: Int, _ left: Int16, _ right: Int16) {
                let center = 3 &* sums[i]
                let x = 2 &* i
                if x < width { out[x] = UInt8(truncatingIfNeeded: (center &+ left &+ 8) &>> 4) }
                if x &+ 1 < width { out[x &+ 1] = UInt8(truncatingIfNeeded: (center &+ right &+ 7) &>> 4) }
            }
            pair(0, sums[0], sums[min(1, count - 1)])
            if count > 2 {
                // Eight sums at a time (the weighted sums stay under 2^12), then one by one.
                var i = 1
                while i &+ 8 < count {
                    @inline(__always) func load(_ offset: Int) -> SIMD8<Int16> {
                        UnsafeRawPointer(sums + offset).loadUnaligned(as: SIMD8<Int16>.self)
                    }
                    let center = load(i) &* 3
                    Self.storeInterleaved(
                        (center &+ load(i &- 1) &+ 8) &>> 4, (center &+ load(i &+ 1) &+ 7) &>> 4, at: out + 2 &* i)
                    i &+= 8
                }
                while i < count &- 1 {
                    let center = 3 &* sums[i]
                    out[2 &* i] = UInt8(truncatingIfNeeded: (center &+ sums[i &- 1] &+ 8) &>> 4)
                    out[2 &* i &+ 1] = UInt8(truncatingIfNeeded: (center &+ sums[i &+ 1] &+ 7) &>> 4)
                    i &+= 1
                }
            }
            if count > 1 { pair(count - 1, sums[count - 2], sums[count - 1]) }
        case .h1v2:
            let row = input + (y / 2) * stride
            let upper = y % 2 == 0
            let neighbour = input + min(max(y / 2 + (upper ? -1 : 1), 0), lastRow) * stride
            let bias: Int32 = upper ? 1 : 2
            for x in 0..<width {
                out[x] = UInt8(truncatingIfNeeded: (3 * Int32(row[x]) + Int32(neighbour[x]) + bias) >> 2)
            }
        case .replicate:
            let row = input + (y * component.vertical / maxVertical) * stride
            for x in 0..<width { out[x] = row[x * component.horizontal / maxHorizontal] }
        }
    }

    /// Decodes the pixels after EOI and returns the image: each component's blocks transformed into its plane, then
    /// row by row the planes upsampled (full-resolution planes read in place) and converted to RGBA8.
    mutating func finish(source: Data) throws(SerializationError) -> Image {
        let modes = components.indices.map { upsampling(of: $0) }
        let strides = components.map { $0.blocksPerLine * 8 }
        let space = colorSpace
        let componentCount = components.count
        let width = self.width
        let height = self.height
        // The planes: a sequential frame's, written while its scans were decoded, or a progressive frame's,
        // transformed now from every coefficient into one decoder-owned block (sized by the frame header, which the
        // limits bounded). Then the upsampled rows of up to four components and the sums of vertical interpolation.
        let offsets = planeOffsets
        let sumCount = components.map(\.width).max() ?? 1
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * width)
        defer { rows.deallocate() }
        let sums = UnsafeMutablePointer<Int16>.allocate(capacity: sumCount)
        defer { sums.deallocate() }
        let planes = samples ?? JPEGSamples(count: offsets.last ?? 0, repeating: 128)
        if samples == nil {
            for index in components.indices {
                let rowCount = min(components[index].blocksPerColumn, components[index].usedBlocksPerColumn + 1)
                transform(index, blockRows: 0..<rowCount, heldFrom: 0, into: planes.pointer + offsets[index])
            }
        }
        let storage = planes.pointer
        // Writes every row of RGBA8 pixels at `out`.
        func writeRows(_ out: UnsafeMutablePointer<UInt8>) {
            let fallback = UnsafePointer(rows)
            var pointers = (fallback, fallback, fallback, fallback)
            for y in 0..<height {
                for index in 0..<componentCount {
                    let plane = storage + offsets[index]
                    let pointer: UnsafePointer<UInt8>
                    if modes[index] == .none {
                        pointer = UnsafePointer(plane + y * strides[index])
                    } else {
                        let row = rows + index * width
                        upsampleRow(
                            index, modes[index], y: y, plane: plane, stride: strides[index], sums: sums, into: row)
                        pointer = UnsafePointer(row)
                    }
                    switch index {
                    case 0: pointers.0 = pointer
                    case 1: pointers.1 = pointer
                    case 2: pointers.2 = pointer
                    default: pointers.3 = pointer
                    }
                }
                Self.convert(
                    space, count: width, pointers.0, pointers.1, pointers.2, pointers.3, into: out + y * width * 4)
            }
        }
        let byteCount = width * height * 4
        let pixels: [UInt8]
        if pixelStorage.capacity >= byteCount || !pixelStorage.isEmpty {
            // The caller's memory: trimmed or grown to the size (growing writes zeros once, then rows over them).
            var reused: [UInt8] = []
            swap(&reused, &pixelStorage)
            if reused.count > byteCount {
                reused.removeLast(reused.count - byteCount)
            } else if reused.count < byteCount {
                reused.append(contentsOf: repeatElement(0, count: byteCount - reused.count))
            }
            reused.withUnsafeMutableBufferPointer { buffer in
                if let out = buffer.baseAddress { writeRows(out) }
            }
            pixels = reused
        } else {
            pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
                if let out = buffer.baseAddress { writeRows(out) }
                initialized = byteCount
            }
        }
        var image = Image(
            width: width, height: height, pixels: pixels, format: .jpeg, scale: options.imageScale,
            metadata: metadata)
        image.isPartial = isPartial
        return image
    }

    /// Converts `count` samples of the planes `p0`...`p3` (those the colour space uses) to opaque RGBA8 in `out`.
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
                out[4 * i + 3] = 255
            }
        case .rgb:
            for i in 0..<count {
                out[4 * i] = p0[i]
                out[4 * i + 1] = p1[i]
                out[4 * i + 2] = p2[i]
                out[4 * i + 3] = 255
            }
        case .yCbCr:
            // Eight pixels at a time in SIMD lanes (the same arithmetic as `rgb(y:cb:cr:)`), the rest one by one.
            var start = 0
            #if _endian(little)
                let vectorEnd = count
            #else
                let vectorEnd = 0  // the words below put R in the low byte: little-endian memory only
            #endif
            while start &+ 8 <= vectorEnd {
                let pixels = rgba8(
                    y: UnsafeRawPointer(p0 + start).loadUnaligned(as: SIMD8<UInt8>.self),
                    cb: UnsafeRawPointer(p1 + start).loadUnaligned(as: SIMD8<UInt8>.self),
                    cr: UnsafeRawPointer(p2 + start).loadUnaligned(as: SIMD8<UInt8>.self))
                UnsafeMutableRawPointer(out + 4 &* start).storeBytes(of: pixels, as: SIMD8<UInt32>.self)
                start &+= 8
            }
            for i in start..<count {
                let rgb = rgb(y: p0[i], cb: p1[i], cr: p2[i])
                out[4 * i] = rgb.0
                out[4 * i + 1] = rgb.1
                out[4 * i + 2] = rgb.2
                out[4 * i + 3] = 255
            }
        case .cmyk(let inverted):
            for i in 0..<count {
                var ink = (p0[i], p1[i], p2[i], p3[i])
                if inverted { ink = (~ink.0, ~ink.1, ~ink.2, ~ink.3) }
                let rgb = rgb(cyan: ink.0, magenta: ink.1, yellow: ink.2, black: ink.3)
                out[4 * i] = rgb.0
                out[4 * i + 1] = rgb.1
                out[4 * i + 2] = rgb.2
                out[4 * i + 3] = 255
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
                out[4 * i + 3] = 255
            }
        }
    }

    /// JFIF YCbCr to RGB (full-range ITU-R BT.601), in 16-bit fixed point rounded as libjpeg does.
    @inline(__always)
    static func rgb(y: UInt8, cb: UInt8, cr: UInt8) -> (UInt8, UInt8, UInt8) {
        let luma = Int(y)
        let blue = Int(cb) &- 128
        let red = Int(cr) &- 128
        let half = 1 << 15
        // round(1.402 * 2^16), round(1.772 * 2^16), round(0.71414 * 2^16), round(0.34414 * 2^16).
        // Wrapping arithmetic: every term is under 2^25.
        let r = luma &+ ((91881 &* red &+ half) &>> 16)
        let g = luma &+ ((half &- 46802 &* red &- 22554 &* blue) &>> 16)
        let b = luma &+ ((116130 &* blue &+ half) &>> 16)
        return (JPEGIDCT.clamp(r), JPEGIDCT.clamp(g), JPEGIDCT.clamp(b))
    }

    /// Eight JFIF YCbCr samples to eight opaque RGBA8 pixels (little-endian words: R in the low byte), computed as
    /// ``rgb(y:cb:cr:)`` computes one.
    ///
    /// The 17-bit constants are split into a multiple of 2^16 and a 16-bit rest, so that every product has 16-bit
    /// inputs and each sum of two products is one multiply-add per four lanes on baseline x86-64 (which has no 32-bit
    /// vector multiply): with c = cr - 128 and b = cb - 128,
    ///   R = Y + c + ((26345 c + 2^15) >> 16)                as 91881 = 2^16 + 26345,
    ///   G = Y - c + ((18734 c - 22554 b + 2^15) >> 16)      as 46802 = 2^16 - 18734,
    ///   B = Y + 2 b + ((-14942 b + 2^15) >> 16)             as 116130 = 2^17 - 14942,
    /// exactly the same numbers, since adding a multiple of 2^16 before the shift adds its quotient after it.
    @inline(__always)
    static func rgba8(y: SIMD8<UInt8>, cb: SIMD8<UInt8>, cr: SIMD8<UInt8>) -> SIMD8<UInt32> {
        typealias Narrow = SIMD8<Int16>
        typealias Wide = SIMD8<Int32>
        let luma = Narrow(truncatingIfNeeded: y)
        let blue = Narrow(truncatingIfNeeded: cb) &- 128
        let red = Narrow(truncatingIfNeeded: cr) &- 128
        let two = Narrow(repeating: 2)
        // (a x + b z + extra) >> 16; for R and B the rounding term 2^15 is the product 2 * 16384.
        @inline(__always) func high(_ a: Narrow, _ x: Int32, _ b: Narrow, _ z: Int32, plus extra: Int32 = 0) -> Narrow {
            let sum = Wide(truncatingIfNeeded: a) &* x &+ Wide(truncatingIfNeeded: b) &* z &+ extra
            return Narrow(truncatingIfNeeded: sum &>> 16)
        }
        let r = luma &+ red &+ high(red, 26345, two, 16384)
        let g = luma &- red &+ high(red, 18734, blue, -22554, plus: 1 << 15)
        let b = luma &+ blue &+ blue &+ high(blue, -14942, two, 16384)
        // Clamped and narrowed to bytes (saturating packs), interleaved into red-green and blue-alpha pairs, then
        // the pairs into pixels: written as interleavings of lanes, which the compiler turns into unpacks.
        let red8 = SIMD8<UInt8>(truncatingIfNeeded: JPEGIDCT.clampedToByte(r))
        let green8 = SIMD8<UInt8>(truncatingIfNeeded: JPEGIDCT.clampedToByte(g))
        let blue8 = SIMD8<UInt8>(truncatingIfNeeded: JPEGIDCT.clampedToByte(b))
        let opaque = SIMD8<UInt8>(repeating: 255)
        @inline(__always) func interleave(_ x: SIMD8<UInt8>, _ y: SIMD8<UInt8>) -> SIMD16<UInt8> {
            SIMD16(x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3], x[4], y[4], x[5], y[5], x[6], y[6], x[7], y[7])
        }
        let redGreen = unsafeBitCast(interleave(red8, green8), to: Narrow.self)
        let blueAlpha = unsafeBitCast(interleave(blue8, opaque), to: Narrow.self)
        let first = unsafeBitCast(JPEGIDCT.low16(redGreen, blueAlpha), to: SIMD4<UInt32>.self)
        let second = unsafeBitCast(JPEGIDCT.high16(redGreen, blueAlpha), to: SIMD4<UInt32>.self)
        return SIMD8(lowHalf: first, highHalf: second)
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
