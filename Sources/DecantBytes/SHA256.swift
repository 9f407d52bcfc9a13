/// SHA-256 (FIPS 180-4), for the images' canonical form (`rgbaSHA256`, in DecantImage) and the conformance kit. The
/// toolchain has no portable digest on Linux without a package dependency, so the core carries this small one, at
/// `package` access: it is no part of the public API.
package enum SHA256 {
    fileprivate static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    package static func hex(_ bytes: [UInt8]) -> String {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// An incremental digest: bytes fed in pieces, so a large input need not be copied to be hashed.
    package struct Hasher {
        private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
        )
        /// Bytes not yet hashed: fewer than 64.
        private var pending: [UInt8] = []
        private var length: UInt64 = 0

        /// A digest of no bytes yet.
        package init() {}

        /// Feeds `bytes`.
        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            length &+= UInt64(bytes.count)
            var start = 0
            if !pending.isEmpty {
                let taken = min(64 - pending.count, bytes.count)
                pending.append(contentsOf: bytes[0..<taken])
                start = taken
                guard pending.count == 64 else { return }
                let block = pending
                pending.removeAll(keepingCapacity: true)
                block.withUnsafeBytes { compress($0, blocks: 1) }
            }
            let whole = (bytes.count - start) / 64
            if whole > 0 { compress(UnsafeRawBufferPointer(rebasing: bytes[start...]), blocks: whole) }
            pending.append(contentsOf: bytes[(start + whole * 64)...])
        }

        /// Pads the message (FIPS 180-4 §5.1.1) and returns the digest as 64 lowercase hexadecimal digits.
        package consuming func finalize() -> String {
            let bitLength = length &* 8
            var tail = pending
            tail.append(0x80)
            while tail.count % 64 != 56 { tail.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) {
                tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
            }
            tail.withUnsafeBytes { compress($0, blocks: $0.count / 64) }
            let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
            return words.map { word in
                let digits = String(word, radix: 16)
                return String(repeating: "0", count: 8 - digits.count) + digits
            }.joined()
        }

        /// Hashes the first `blocks` 64-byte blocks of `message` (FIPS 180-4 §6.2.2). Written with pointers, locals
        /// and masking shifts so that even an unoptimized build hashes a large image in reasonable time.
        private mutating func compress(_ message: UnsafeRawBufferPointer, blocks: Int) {
            var (h0, h1, h2, h3, h4, h5, h6, h7) = state
            roundConstants.withUnsafeBufferPointer { constants in
                let k = constants.baseAddress!
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { buffer in
                    let w = buffer.baseAddress!
                    var block = 0
                    while block < blocks {
                        let base = message.baseAddress! + block &* 64
                        var t = 0
                        while t < 16 {
                            w[t] = UInt32(bigEndian: base.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
                            t &+= 1
                        }
                        while t < 64 {
                            let x = w[t &- 15]
                            let y = w[t &- 2]
                            let s0 = (x &>> 7 | x &<< 25) ^ (x &>> 18 | x &<< 14) ^ (x &>> 3)
                            let s1 = (y &>> 17 | y &<< 15) ^ (y &>> 19 | y &<< 13) ^ (y &>> 10)
                            w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
                            t &+= 1
                        }
                        var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                        t = 0
                        while t < 64 {
                            let s1 = (e &>> 6 | e &<< 26) ^ (e &>> 11 | e &<< 21) ^ (e &>> 25 | e &<< 7)
                            let choice = (e & f) ^ (~e & g)
                            let temp1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
                            let s0 = (a &>> 2 | a &<< 30) ^ (a &>> 13 | a &<< 19) ^ (a &>> 22 | a &<< 10)
                            let majority = (a & b) ^ (a & c) ^ (b & c)
                            h = g
                            g = f
                            f = e
                            e = d &+ temp1
                            d = c
                            c = b
                            b = a
                            a = temp1 &+ s0 &+ majority
                            t &+= 1
                        }
                        h0 &+= a
                        h1 &+= b
                        h2 &+= c
                        h3 &+= d
                        h4 &+= e
                        h5 &+= f
                        h6 &+= g
                        h7 &+= h
                        block &+= 1
                    }
                }
            }
            state = (h0, h1, h2, h3, h4, h5, h6, h7)
        }
    }
}
