/// The checksums of the zlib (RFC 1950 §8.2, Adler-32), gzip (RFC 1952 §8) and PNG (PNG §5.5, CRC-32) formats.
package enum Checksum {
    /// The Adler-32 checksum of `bytes` (RFC 1950 §8.2), continuing from `initial` (1 for a new checksum).
    package static func adler32(_ bytes: UnsafeRawBufferPointer, initial: UInt32 = 1) -> UInt32 {
        var a = initial & 0xFFFF
        var b = initial >> 16
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return initial }
        var index = 0
        let count = bytes.count
        while index < count {
            // 5552 is the largest n with 255n(n+1)/2 + (n+1)(65520) < 2^32 (zlib's NMAX).
            let end = min(count, index + 5552)
            // 16 bytes at a time in SIMD lanes: for each block, b gains 16 * a plus the bytes weighted 16, 15, ... 1,
            // and a gains their sum. `sums` keeps per-lane byte sums, `prefix` the sum of `sums` before each block.
            // Groups of up to 16 blocks add into 16-bit lanes (at most 16 * 255 per lane in `groupSums`, and 16 times
            // that in `groupPrefix`: below 65,536), folded into the 32-bit lanes once per group.
            if index + 16 <= end {
                var sums = SIMD16<UInt32>(repeating: 0)
                var prefix = SIMD16<UInt32>(repeating: 0)
                var blocks: UInt32 = 0
                while index + 16 <= end {
                    var groupSums = SIMD16<UInt16>(repeating: 0)
                    var groupPrefix = SIMD16<UInt16>(repeating: 0)
                    var groupBlocks: UInt32 = 0
                    while index + 16 <= end && groupBlocks < 16 {
                        groupPrefix &+= groupSums
                        groupSums &+= SIMD16<UInt16>(
                            truncatingIfNeeded: UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self))
                        groupBlocks &+= 1
                        index += 16
                    }
                    // Each block of the group also follows every block before the group.
                    prefix &+= SIMD16<UInt32>(truncatingIfNeeded: groupPrefix) &+ sums &* groupBlocks
                    sums &+= SIMD16<UInt32>(truncatingIfNeeded: groupSums)
                    blocks &+= groupBlocks
                }
                let weights = SIMD16<UInt32>(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
                let weighted = UInt64((sums &* weights).wrappedSum())
                let newB = UInt64(b) + 16 * UInt64(blocks) * UInt64(a) + 16 * UInt64(prefix.wrappedSum()) + weighted
                a = UInt32((UInt64(a) + UInt64(sums.wrappedSum())) % 65521)
                b = UInt32(newB % 65521)
            }
            while index + 8 <= end {
                a &+= UInt32(base[index])
                b &+= a
                a &+= UInt32(base[index + 1])
                b &+= a
                a &+= UInt32(base[index + 2])
                b &+= a
                a &+= UInt32(base[index + 3])
                b &+= a
                a &+= UInt32(base[index + 4])
                b &+= a
                a &+= UInt32(base[index + 5])
                b &+= a
                a &+= UInt32(base[index + 6])
                b &+= a
                a &+= UInt32(base[index + 7])
                b &+= a
                index += 8
            }
            while index < end {
                a &+= UInt32(base[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }

    /// The CRC-32 of `bytes` (ISO 3309 / ITU-T V.42 polynomial, as in RFC 1952 §8 and PNG §5.5), continuing from
    /// `initial` (0 for a new checksum).
    package static func crc32(_ bytes: UnsafeRawBufferPointer, initial: UInt32 = 0) -> UInt32 {
        var crc = ~initial
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return initial }
        let count = bytes.count
        var index = 0
        crcTables.withUnsafeBufferPointer { tables in
            let table = tables.baseAddress!
            // Slicing by 8: eight table lookups per eight bytes.
            while index + 8 <= count {
                let low =
                    crc
                    ^ (UInt32(base[index]) | UInt32(base[index + 1]) << 8 | UInt32(base[index + 2]) << 16
                        | UInt32(base[index + 3]) << 24)
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)]
                    ^ table[5 * 256 + Int(low >> 16 & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(base[index + 4])] ^ table[2 * 256 + Int(base[index + 5])]
                    ^ table[1 * 256 + Int(base[index + 6])] ^ table[Int(base[index + 7])]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(base[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        return ~crc
    }

    /// The CRC-32 of `bytes`; see ``crc32(_:initial:)-(UnsafeRawBufferPointer,_)``.
    package static func crc32(_ bytes: [UInt8], initial: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0, initial: initial) }
    }

    /// Eight 256-entry tables for slicing-by-8 (the reflected polynomial 0xEDB88320).
    static let crcTables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            tables[index] = value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = tables[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return tables
    }()
}
