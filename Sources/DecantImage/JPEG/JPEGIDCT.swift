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
    /// multiplied by 2^13.
    @inline(__always)
    static func transform(
        _ s0: Int, _ s1: Int, _ s2: Int, _ s3: Int, _ s4: Int, _ s5: Int, _ s6: Int, _ s7: Int
    ) -> (Int, Int, Int, Int, Int, Int, Int, Int) {
        // Even part: a rotation of inputs 2 and 6 by the sqrt(2)*c6 family, and the butterfly of 0 and 4.
        let rotation = (s2 + s6) * fix0_541196100
        let even2 = rotation - s6 * fix1_847759065
        let even3 = rotation + s2 * fix0_765366865
        let even0 = (s0 + s4) << constBits
        let even1 = (s0 - s4) << constBits
        let t10 = even0 + even3
        let t13 = even0 - even3
        let t11 = even1 + even2
        let t12 = even1 - even2

        // Odd part: inputs 7, 5, 3, 1 through the shared rotation by sqrt(2)*c3.
        let z1 = s7 + s1
        let z2 = s5 + s3
        let z3 = s7 + s3
        let z4 = s5 + s1
        let z5 = (z3 + z4) * fix1_175875602
        let r1 = -z1 * fix0_899976223
        let r2 = -z2 * fix2_562915447
        let r3 = -z3 * fix1_961570560 + z5
        let r4 = -z4 * fix0_390180644 + z5
        let o0 = s7 * fix0_298631336 + r1 + r3
        let o1 = s5 * fix2_053119869 + r2 + r4
        let o2 = s3 * fix3_072711026 + r2 + r3
        let o3 = s1 * fix1_501321110 + r1 + r4

        return (t10 + o3, t11 + o2, t12 + o1, t13 + o0, t13 - o0, t12 - o1, t11 - o2, t10 - o3)
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
        // Pass 1: columns, results scaled up by 2^pass1Bits.
        for column in 0..<8 {
            @inline(__always) func input(_ row: Int) -> Int {
                Int(coefficients[row * 8 + column]) * Int(quantization[row * 8 + column])
            }
            if coefficients[8 + column] == 0 && coefficients[16 + column] == 0 && coefficients[24 + column] == 0
                && coefficients[32 + column] == 0 && coefficients[40 + column] == 0
                && coefficients[48 + column] == 0 && coefficients[56 + column] == 0
            {
                // Only the DC term: every output of the column is the same (the full formula gives this exactly).
                let dc = Int32(truncatingIfNeeded: input(0) << pass1Bits)
                for row in 0..<8 { workspace[row * 8 + column] = dc }
                continue
            }
            let out = transform(
                input(0), input(1), input(2), input(3), input(4), input(5), input(6), input(7))
            let shift = constBits - pass1Bits
            let round = 1 << (shift - 1)
            workspace[column] = Int32(truncatingIfNeeded: (out.0 + round) >> shift)
            workspace[8 + column] = Int32(truncatingIfNeeded: (out.1 + round) >> shift)
            workspace[16 + column] = Int32(truncatingIfNeeded: (out.2 + round) >> shift)
            workspace[24 + column] = Int32(truncatingIfNeeded: (out.3 + round) >> shift)
            workspace[32 + column] = Int32(truncatingIfNeeded: (out.4 + round) >> shift)
            workspace[40 + column] = Int32(truncatingIfNeeded: (out.5 + round) >> shift)
            workspace[48 + column] = Int32(truncatingIfNeeded: (out.6 + round) >> shift)
            workspace[56 + column] = Int32(truncatingIfNeeded: (out.7 + round) >> shift)
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
            target[0] = clamp(((out.0 + round) >> shift) + 128)
            target[1] = clamp(((out.1 + round) >> shift) + 128)
            target[2] = clamp(((out.2 + round) >> shift) + 128)
            target[3] = clamp(((out.3 + round) >> shift) + 128)
            target[4] = clamp(((out.4 + round) >> shift) + 128)
            target[5] = clamp(((out.5 + round) >> shift) + 128)
            target[6] = clamp(((out.6 + round) >> shift) + 128)
            target[7] = clamp(((out.7 + round) >> shift) + 128)
        }
    }
}
