/// The accurate integer inverse DCT of an 8×8 block (ITU-T T.81 §A.3.3), in the factorisation of Loeffler, Ligtenberg
/// and Moschytz ("Practical fast 1-D DCT algorithms with 11 multiplications", ICASSP 1989): 12 multiplications per
/// 1-D pass, constants scaled by 2^13, a column pass keeping 2 extra bits, then a row pass; output rounded, level
/// shifted by 128 and clamped to 0...255. Its precision is that of the IJG "islow" method.
enum JPEGIDCT {
    /// Fixed-point scale of the constants.
    static let constBits = 13
    /// Extra precision kept between the two passes.
    static let pass1Bits = 2

    /// sqrt(2) * (-c1 + c3 + c5 - c7) * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix0_298631336 = 2446
    /// sqrt(2) * (c3 - c5) * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix0_390180644 = 3196
    /// sqrt(2) * c6 * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix0_541196100 = 4433
    /// sqrt(2) * (c2 - c6) * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix0_765366865 = 6270
    /// sqrt(2) * (c3 - c7) * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix0_899976223 = 7373
    /// sqrt(2) * c3 * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix1_175875602 = 9633
    /// sqrt(2) * (c1 + c3 - c5 - c7) * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix1_501321110 = 12299
    /// sqrt(2) * (c2 + c6) * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix1_847759065 = 15137
    /// sqrt(2) * (c3 + c5) * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix1_961570560 = 16069
    /// sqrt(2) * (c1 + c3 - c5 + c7) * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix2_053119869 = 16819
    /// sqrt(2) * (c1 + c3) * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix2_562915447 = 20995
    /// sqrt(2) * (c1 + c3 + c5 - c7) * 2^13, rounded (ck = cos(k * pi / 16)).
    static let fix3_072711026 = 25172

    /// One 1-D inverse transform of `s0...s7` (already scaled), returning the 8 outputs before descaling, each
    /// multiplied by 2^13: on single numbers (`Int`) or on the eight columns of a block at once (`SIMD8<Int32>`).
    ///
    /// Wrapping arithmetic: dequantized coefficients of a valid image stay under 2^15 in magnitude, so products and
    /// sums stay under 2^31 (libjpeg-turbo's SIMD code relies on the same bound); damaged data gives wrong samples,
    /// never a trap.
    @inline(__always)
    static func transform<Lane: IDCTLane>(
        _ s0: Lane, _ s1: Lane, _ s2: Lane, _ s3: Lane, _ s4: Lane, _ s5: Lane, _ s6: Lane, _ s7: Lane
    ) -> (Lane, Lane, Lane, Lane, Lane, Lane, Lane, Lane) {
        // Even part: a rotation of inputs 2 and 6 by the sqrt(2)*c6 family, and the butterfly of 0 and 4.
        let rotation = s2.plus(s6).scaled(fix0_541196100)
        let even2 = rotation.minus(s6.scaled(fix1_847759065))
        let even3 = rotation.plus(s2.scaled(fix0_765366865))
        let even0 = s0.plus(s4).shiftedLeft(constBits)
        let even1 = s0.minus(s4).shiftedLeft(constBits)
        let t10 = even0.plus(even3)
        let t13 = even0.minus(even3)
        let t11 = even1.plus(even2)
        let t12 = even1.minus(even2)

        // Odd part: inputs 7, 5, 3, 1 through the shared rotation by sqrt(2)*c3.
        let z1 = s7.plus(s1)
        let z2 = s5.plus(s3)
        let z3 = s7.plus(s3)
        let z4 = s5.plus(s1)
        let z5 = z3.plus(z4).scaled(fix1_175875602)
        let r1 = z1.scaled(-fix0_899976223)
        let r2 = z2.scaled(-fix2_562915447)
        let r3 = z5.minus(z3.scaled(fix1_961570560))
        let r4 = z5.minus(z4.scaled(fix0_390180644))
        let o0 = s7.scaled(fix0_298631336).plus(r1).plus(r3)
        let o1 = s5.scaled(fix2_053119869).plus(r2).plus(r4)
        let o2 = s3.scaled(fix3_072711026).plus(r2).plus(r3)
        let o3 = s1.scaled(fix1_501321110).plus(r1).plus(r4)

        return (
            t10.plus(o3), t11.plus(o2), t12.plus(o1), t13.plus(o0), t13.minus(o0), t12.minus(o1), t11.minus(o2),
            t10.minus(o3)
        )
    }

    /// Clamps a level-shifted sample to 0...255.
    @inline(__always)
    static func clamp(_ value: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: value < 0 ? 0 : (value > 255 ? 255 : value))
    }

    /// Transforms the 64 coefficients at `coefficients` (natural order, not yet dequantized), multiplying each by
    /// its entry of `quantization`, and writes 8 rows of 8 samples to `output`, `stride` bytes apart.
    @inline(__always)
    static func inverse(
        _ coefficients: UnsafePointer<Int16>, quantization: UnsafePointer<Int32>,
        workspace: UnsafeMutablePointer<Int32>, output: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        // Pass 1: the eight columns at once (each vector one row of the block), results scaled up by 2^pass1Bits.
        @inline(__always) func row(_ index: Int) -> SIMD8<Int32> {
            let coefficientRow = UnsafeRawPointer(coefficients + index &* 8).loadUnaligned(as: SIMD8<Int16>.self)
            let quantizationRow = UnsafeRawPointer(quantization + index &* 8).loadUnaligned(as: SIMD8<Int32>.self)
            return SIMD8<Int32>(truncatingIfNeeded: coefficientRow) &* quantizationRow
        }
        let raw = UnsafeMutableRawPointer(workspace)
        let r0 = row(0)
        let r1 = row(1)
        let r2 = row(2)
        let r3 = row(3)
        let r4 = row(4)
        let r5 = row(5)
        let r6 = row(6)
        let r7 = row(7)
        if r1 == .zero && r2 == .zero && r3 == .zero && r4 == .zero && r5 == .zero && r6 == .zero && r7 == .zero {
            // Only DC terms: every output of a column is the same (the full formula gives this exactly).
            let dc = r0 &<< Int32(pass1Bits)
            for index in 0..<8 { raw.storeBytes(of: dc, toByteOffset: index &* 32, as: SIMD8<Int32>.self) }
        } else {
            let out = transform(r0, r1, r2, r3, r4, r5, r6, r7)
            let shift = Int32(constBits - pass1Bits)
            let round = SIMD8<Int32>(repeating: 1 << (shift - 1))
            raw.storeBytes(of: (out.0 &+ round) &>> shift, toByteOffset: 0, as: SIMD8<Int32>.self)
            raw.storeBytes(of: (out.1 &+ round) &>> shift, toByteOffset: 32, as: SIMD8<Int32>.self)
            raw.storeBytes(of: (out.2 &+ round) &>> shift, toByteOffset: 64, as: SIMD8<Int32>.self)
            raw.storeBytes(of: (out.3 &+ round) &>> shift, toByteOffset: 96, as: SIMD8<Int32>.self)
            raw.storeBytes(of: (out.4 &+ round) &>> shift, toByteOffset: 128, as: SIMD8<Int32>.self)
            raw.storeBytes(of: (out.5 &+ round) &>> shift, toByteOffset: 160, as: SIMD8<Int32>.self)
            raw.storeBytes(of: (out.6 &+ round) &>> shift, toByteOffset: 192, as: SIMD8<Int32>.self)
            raw.storeBytes(of: (out.7 &+ round) &>> shift, toByteOffset: 224, as: SIMD8<Int32>.self)
        }
        // Pass 2: rows, removing both scalings and the factor 8 of the 2-D transform, then level shifting.
        let shift = constBits + pass1Bits + 3
        let round = 1 << (shift - 1)
        for row in 0..<8 {
            let w = workspace + row * 8
            let target = output + row * stride
            if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                // Only the DC term: the full formula gives (w0 * 2^13 + round) >> shift, which is this exactly.
                let value = clamp(((Int(w[0]) + (1 << (pass1Bits + 2))) >> (pass1Bits + 3)) + 128)
                for column in 0..<8 { target[column] = value }
                continue
            }
            let out = transform(
                Int(w[0]), Int(w[1]), Int(w[2]), Int(w[3]), Int(w[4]), Int(w[5]), Int(w[6]), Int(w[7]))
            target[0] = clamp(((out.0 &+ round) &>> shift) &+ 128)
            target[1] = clamp(((out.1 &+ round) &>> shift) &+ 128)
            target[2] = clamp(((out.2 &+ round) &>> shift) &+ 128)
            target[3] = clamp(((out.3 &+ round) &>> shift) &+ 128)
            target[4] = clamp(((out.4 &+ round) &>> shift) &+ 128)
            target[5] = clamp(((out.5 &+ round) &>> shift) &+ 128)
            target[6] = clamp(((out.6 &+ round) &>> shift) &+ 128)
            target[7] = clamp(((out.7 &+ round) &>> shift) &+ 128)
        }
    }
}

/// What ``JPEGIDCT/transform(_:_:_:_:_:_:_:_:)`` computes on: one number, or eight lanes of a block at once.
protocol IDCTLane {
    /// The sum, wrapping on overflow.
    func plus(_ other: Self) -> Self
    /// The difference, wrapping on overflow.
    func minus(_ other: Self) -> Self
    /// The value multiplied by a fixed-point constant, wrapping on overflow.
    func scaled(_ constant: Int) -> Self
    /// The value shifted left by `bits`.
    func shiftedLeft(_ bits: Int) -> Self
}

extension Int: IDCTLane {
    /// `self &+ other`.
    @inline(__always) func plus(_ other: Int) -> Int { self &+ other }
    /// `self &- other`.
    @inline(__always) func minus(_ other: Int) -> Int { self &- other }
    /// `self &* constant`.
    @inline(__always) func scaled(_ constant: Int) -> Int { self &* constant }
    /// `self &<< bits`.
    @inline(__always) func shiftedLeft(_ bits: Int) -> Int { self &<< bits }
}

extension SIMD8<Int32>: IDCTLane {
    /// Each lane `&+` the other's.
    @inline(__always) func plus(_ other: SIMD8<Int32>) -> SIMD8<Int32> { self &+ other }
    /// Each lane `&-` the other's.
    @inline(__always) func minus(_ other: SIMD8<Int32>) -> SIMD8<Int32> { self &- other }
    /// Each lane `&*` the constant.
    @inline(__always) func scaled(_ constant: Int) -> SIMD8<Int32> { self &* Int32(truncatingIfNeeded: constant) }
    /// Each lane `&<<` `bits`.
    @inline(__always) func shiftedLeft(_ bits: Int) -> SIMD8<Int32> { self &<< Int32(truncatingIfNeeded: bits) }
}
