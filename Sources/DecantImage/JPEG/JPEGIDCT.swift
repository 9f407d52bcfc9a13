/// The accurate integer inverse DCT of an 8×8 block (ITU-T T.81 §A.3.3), in the factorisation of Loeffler, Ligtenberg
/// and Moschytz ("Practical fast 1-D DCT algorithms with 11 multiplications", ICASSP 1989): constants scaled by 2^13,
/// a column pass keeping 2 extra bits, then a row pass; output rounded, level shifted by 128 and clamped to 0...255.
/// Its precision and rounding are those of the IJG "islow" method, column pass first, so samples equal libjpeg's.
///
/// Both passes work on eight lanes at once: the column pass on the block's rows (each vector one row, so each lane
/// computes one column), the row pass on the transposed intermediate, whose result is transposed back into rows. The
/// inputs of every multiplication are 16-bit and the products 32-bit, and each product pair is a sum of two
/// products (the rotations are written that way), which baseline x86-64 (SSE2, without a 32-bit vector multiply)
/// does in one instruction per four lanes, as libjpeg-turbo's SSE2 code does.
///
/// 16-bit intermediates: dequantized coefficients of a valid 8-bit image and the column pass's outputs stay well under
/// 2^15 in magnitude (libjpeg-turbo's SIMD code relies on the same bound, and libjpeg-turbo keeps quantization values in
/// 16 bits too); damaged data wraps and gives wrong samples, never a trap.
enum JPEGIDCT {
    /// Fixed-point scale of the constants.
    static let constBits: Int32 = 13
    /// Extra precision kept between the two passes.
    static let pass1Bits: Int32 = 2

    // The 2^13-scaled constants of the factorisation (ck = cos(k * pi / 16)), combined into the coefficient pairs of
    // the sums of products below:
    //   0.298631336 = sqrt(2) * (-c1 + c3 + c5 - c7)   -> 2446     0.390180644 = sqrt(2) * (c3 - c5)  -> 3196
    //   0.541196100 = sqrt(2) * c6                      -> 4433     0.765366865 = sqrt(2) * (c2 - c6)  -> 6270
    //   0.899976223 = sqrt(2) * (c3 - c7)               -> 7373     1.175875602 = sqrt(2) * c3         -> 9633
    //   1.501321110 = sqrt(2) * (c1 + c3 - c5 - c7)     -> 12299    1.847759065 = sqrt(2) * (c2 + c6)  -> 15137
    //   1.961570560 = sqrt(2) * (c3 + c5)               -> 16069    2.053119869 = sqrt(2) * (c1 + c3 - c5 + c7) -> 16819
    //   2.562915447 = sqrt(2) * (c1 + c3)               -> 20995    3.072711026 = sqrt(2) * (c1 + c3 + c5 - c7) -> 25172

    /// Eight 32-bit lanes.
    typealias Wide = SIMD8<Int32>
    /// Eight 16-bit lanes.
    typealias Narrow = SIMD8<Int16>

    /// Clamps a level-shifted sample to 0...255.
    @inline(__always)
    static func clamp(_ value: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: value < 0 ? 0 : (value > 255 ? 255 : value))
    }

    /// Each lane clamped to 0...255, with masks (the generic pointwise functions are not always inlined): narrowed to
    /// bytes after this, the whole is one saturating pack on SSE2.
    @inline(__always)
    static func clampedToByte(_ value: Narrow) -> Narrow {
        let maximum = Narrow(repeating: 255)
        let low = value & ~(value &>> 15)  // negative lanes become 0
        let over = (maximum &- low) &>> 15  // all ones where low > 255
        return (low & ~over) | (maximum & over)
    }

    /// `a * x + b * y` in 32-bit lanes, from 16-bit inputs and constants (one multiply-add per four lanes on SSE2).
    @inline(__always)
    static func products(_ a: Narrow, _ x: Int32, _ b: Narrow, _ y: Int32) -> Wide {
        Wide(truncatingIfNeeded: a) &* x &+ Wide(truncatingIfNeeded: b) &* y
    }

    /// One 1-D inverse transform of `s0...s7`, lane by lane, returning the 8 outputs before descaling, each multiplied
    /// by 2^13. Exactly the islow arithmetic: each rotation's shared product is distributed over its two terms.
    @inline(__always)
    static func transform(
        _ s0: Narrow, _ s1: Narrow, _ s2: Narrow, _ s3: Narrow, _ s4: Narrow, _ s5: Narrow, _ s6: Narrow,
        _ s7: Narrow
    ) -> (Wide, Wide, Wide, Wide, Wide, Wide, Wide, Wide) {
        // Even part: inputs 2 and 6 rotated by the sqrt(2)*c6 family, and the butterfly of 0 and 4.
        //   even3 = (s2 + s6) * 4433 + s2 * 6270;  even2 = (s2 + s6) * 4433 - s6 * 15137.
        let even3 = products(s2, 4433 + 6270, s6, 4433)
        let even2 = products(s2, 4433, s6, 4433 - 15137)
        //   even0 = (s0 + s4) * 2^13;  even1 = (s0 - s4) * 2^13.
        let even0 = products(s0, 1 << 13, s4, 1 << 13)
        let even1 = products(s0, 1 << 13, s4, -(1 << 13))
        let t10 = even0 &+ even3
        let t13 = even0 &- even3
        let t11 = even1 &+ even2
        let t12 = even1 &- even2

        // Odd part: with z3 = s7 + s3, z4 = s5 + s1 and z5 = (z3 + z4) * 9633,
        //   r3 = z5 - z3 * 16069;  r4 = z5 - z4 * 3196;
        //   o0 = s7 * 2446 - (s7 + s1) * 7373 + r3;   o3 = s1 * 12299 - (s7 + s1) * 7373 + r4;
        //   o1 = s5 * 16819 - (s5 + s3) * 20995 + r4; o2 = s3 * 25172 - (s5 + s3) * 20995 + r3.
        let z3 = s7 &+ s3
        let z4 = s5 &+ s1
        let r3 = products(z3, 9633 - 16069, z4, 9633)
        let r4 = products(z3, 9633, z4, 9633 - 3196)
        let o0 = products(s7, 2446 - 7373, s1, -7373) &+ r3
        let o3 = products(s7, -7373, s1, 12299 - 7373) &+ r4
        let o1 = products(s5, 16819 - 20995, s3, -20995) &+ r4
        let o2 = products(s5, -20995, s3, 25172 - 20995) &+ r3

        return (
            t10 &+ o3, t11 &+ o2, t12 &+ o1, t13 &+ o0, t13 &- o0, t12 &- o1, t11 &- o2, t10 &- o3
        )
    }

    /// Interleaves the 16-bit lanes of the low halves of two vectors: `x0 y0 x1 y1 x2 y2 x3 y3`.
    @inline(__always)
    static func low16(_ x: Narrow, _ y: Narrow) -> Narrow {
        Narrow(x[0], y[0], x[1], y[1], x[2], y[2], x[3], y[3])
    }

    /// Interleaves the 16-bit lanes of the high halves of two vectors: `x4 y4 x5 y5 x6 y6 x7 y7`.
    @inline(__always)
    static func high16(_ x: Narrow, _ y: Narrow) -> Narrow {
        Narrow(x[4], y[4], x[5], y[5], x[6], y[6], x[7], y[7])
    }

    /// Interleaves the vectors' low halves in pairs of lanes (32 bits).
    @inline(__always)
    static func low32(_ a: Narrow, _ b: Narrow) -> Narrow {
        let x = unsafeBitCast(a, to: SIMD4<Int32>.self)
        let y = unsafeBitCast(b, to: SIMD4<Int32>.self)
        return unsafeBitCast(SIMD4(x[0], y[0], x[1], y[1]), to: Narrow.self)
    }

    /// Interleaves the vectors' high halves in pairs of lanes (32 bits).
    @inline(__always)
    static func high32(_ a: Narrow, _ b: Narrow) -> Narrow {
        let x = unsafeBitCast(a, to: SIMD4<Int32>.self)
        let y = unsafeBitCast(b, to: SIMD4<Int32>.self)
        return unsafeBitCast(SIMD4(x[2], y[2], x[3], y[3]), to: Narrow.self)
    }

    /// The low four lanes of `a` followed by those of `b`.
    @inline(__always)
    static func low64(_ a: Narrow, _ b: Narrow) -> Narrow {
        let x = unsafeBitCast(a, to: SIMD2<Int64>.self)
        let y = unsafeBitCast(b, to: SIMD2<Int64>.self)
        return unsafeBitCast(SIMD2(x[0], y[0]), to: Narrow.self)
    }

    /// The high four lanes of `a` followed by those of `b`.
    @inline(__always)
    static func high64(_ a: Narrow, _ b: Narrow) -> Narrow {
        let x = unsafeBitCast(a, to: SIMD2<Int64>.self)
        let y = unsafeBitCast(b, to: SIMD2<Int64>.self)
        return unsafeBitCast(SIMD2(x[1], y[1]), to: Narrow.self)
    }

    /// The 8×8 matrix whose rows are `r`, transposed: lanes interleaved in pairs of rows, then pairs of lanes, then
    /// halves (24 unpack instructions on SSE2; written as one step per width, so that the compiler keeps them so
    /// instead of merging the steps into slower general shuffles).
    @inline(__always)
    static func transposed(
        _ r: (Narrow, Narrow, Narrow, Narrow, Narrow, Narrow, Narrow, Narrow)
    ) -> (Narrow, Narrow, Narrow, Narrow, Narrow, Narrow, Narrow, Narrow) {
        // a0 = 00 10 01 11 02 12 03 13, a1 = 04 14 05 15 ..., a2 = 20 30 21 31 ..., and so on (row, column).
        let a0 = low16(r.0, r.1)
        let a1 = high16(r.0, r.1)
        let a2 = low16(r.2, r.3)
        let a3 = high16(r.2, r.3)
        let a4 = low16(r.4, r.5)
        let a5 = high16(r.4, r.5)
        let a6 = low16(r.6, r.7)
        let a7 = high16(r.6, r.7)
        // b0 = 00 10 20 30 01 11 21 31, b1 = 02 12 22 32 03 13 23 33, ...; b4...b7 the same of rows 4-7.
        let b0 = low32(a0, a2)
        let b1 = high32(a0, a2)
        let b2 = low32(a1, a3)
        let b3 = high32(a1, a3)
        let b4 = low32(a4, a6)
        let b5 = high32(a4, a6)
        let b6 = low32(a5, a7)
        let b7 = high32(a5, a7)
        return (
            low64(b0, b4), high64(b0, b4), low64(b1, b5), high64(b1, b5), low64(b2, b6), high64(b2, b6),
            low64(b3, b7), high64(b3, b7)
        )
    }

    /// Transforms the 64 coefficients at `coefficients` (natural order, not yet dequantized), multiplying each by its
    /// entry of `quantization` (natural order), and writes 8 rows of 8 samples to `output`, `stride` bytes apart.
    @inline(__always)
    static func inverse(
        _ coefficients: UnsafePointer<Int16>, quantization: UnsafePointer<Int16>,
        output: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        @inline(__always) func row(_ index: Int) -> Narrow {
            let coefficientRow = UnsafeRawPointer(coefficients + index &* 8).loadUnaligned(as: Narrow.self)
            let quantizationRow = UnsafeRawPointer(quantization + index &* 8).loadUnaligned(as: Narrow.self)
            return coefficientRow &* quantizationRow
        }
        let r0 = row(0)
        let r1 = row(1)
        let r2 = row(2)
        let r3 = row(3)
        let r4 = row(4)
        let r5 = row(5)
        let r6 = row(6)
        let r7 = row(7)
        let ac = r1 | r2 | r3 | r4 | r5 | r6 | r7
        // Pass 1: the eight columns at once, results scaled up by 2^pass1Bits, then transposed so that each vector
        // holds a row's values.
        let columns: (Narrow, Narrow, Narrow, Narrow, Narrow, Narrow, Narrow, Narrow)
        if ac == .zero {
            // Only the first row: every output of a column is its DC term (the full formula gives this exactly).
            let dc = r0 &<< Int16(pass1Bits)
            if dc & Narrow(0, -1, -1, -1, -1, -1, -1, -1) == .zero {
                // Only the DC term: the full formula gives (dc * 2^13 + round) >> (13 + 2 + 3), this exactly.
                let value = (Int(dc[0]) &+ (1 &<< Int(pass1Bits &+ 2))) &>> Int(pass1Bits &+ 3) &+ 128
                let fill = SIMD8<UInt8>(repeating: clamp(value))
                for index in 0..<8 {
                    UnsafeMutableRawPointer(output + index &* stride).storeBytes(of: fill, as: SIMD8<UInt8>.self)
                }
                return
            }
            // Every row of the intermediate is `dc`: transposed, each vector repeats one of its lanes.
            columns = (
                Narrow(repeating: dc[0]), Narrow(repeating: dc[1]), Narrow(repeating: dc[2]),
                Narrow(repeating: dc[3]), Narrow(repeating: dc[4]), Narrow(repeating: dc[5]),
                Narrow(repeating: dc[6]), Narrow(repeating: dc[7])
            )
        } else {
            let out = transform(r0, r1, r2, r3, r4, r5, r6, r7)
            let shift = constBits &- pass1Bits
            let round = Wide(repeating: 1 &<< (shift &- 1))
            @inline(__always) func descale(_ value: Wide) -> Narrow {
                // `(value + round) >> shift` in 16 bits, computed so that the compiler sees it fits them and packs
                // without masking: the bits from `shift` up, shifted to the top half and back.
                Narrow(truncatingIfNeeded: ((value &+ round) &<< (16 &- shift)) &>> 16)
            }
            columns = transposed(
                (
                    descale(out.0), descale(out.1), descale(out.2), descale(out.3), descale(out.4), descale(out.5),
                    descale(out.6), descale(out.7)
                ))
        }
        // Pass 2: the eight rows at once (each lane one row), removing both scalings and the factor 8 of the 2-D
        // transform, level shifting by 128 (folded into the rounding term) and clamping, then transposed back.
        let out = transform(
            columns.0, columns.1, columns.2, columns.3, columns.4, columns.5, columns.6, columns.7)
        let shift = constBits &+ pass1Bits &+ 3
        let round = Wide(repeating: (1 &<< (shift &- 1)) &+ (128 &<< shift))
        @inline(__always) func descale(_ value: Wide) -> Narrow {
            Narrow(truncatingIfNeeded: (value &+ round) &>> shift)
        }
        let rows = transposed(
            (
                descale(out.0), descale(out.1), descale(out.2), descale(out.3), descale(out.4), descale(out.5),
                descale(out.6), descale(out.7)
            ))
        @inline(__always) func store(_ row: Narrow, _ index: Int) {
            UnsafeMutableRawPointer(output + index &* stride).storeBytes(
                of: SIMD8<UInt8>(truncatingIfNeeded: clampedToByte(row)), as: SIMD8<UInt8>.self)
        }
        store(rows.0, 0)
        store(rows.1, 1)
        store(rows.2, 2)
        store(rows.3, 3)
        store(rows.4, 4)
        store(rows.5, 5)
        store(rows.6, 6)
        store(rows.7, 7)
    }
}
