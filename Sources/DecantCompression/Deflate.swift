#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// A DEFLATE compressor (RFC 1951) with the zlib (RFC 1950) and gzip (RFC 1952) wrappers: the inverse of ``Inflate``.
///
/// Matches are found by LZ77 over the 32 KiB window with hash chains: each position is hashed by its next three
/// bytes, and at most ``Level/maxChainLength`` earlier positions with the same hash are compared, so the work per input
/// byte is bounded and compression is linear in the input. ``Level/default`` and ``Level/best`` defer a match by one
/// byte when the next position starts a longer one ("lazy" matching); ``Level/fast`` takes the first good match.
///
/// The symbols are written in blocks of at most ``blockSymbols`` symbols. Each block is written in whichever of the
/// three block types (§3.2.3) is smallest: dynamic Huffman codes built for the block (length limited to 15 bits, the
/// code-length code to 7, by the package-merge algorithm, so every code is optimal under its limit), the fixed codes
/// (§3.2.6), or stored bytes (§3.2.4) for data that does not compress. Memory is the input, the output, two hash
/// tables of the window's size and one block's symbols.
///
/// ```swift
/// let compressed = Deflate.zlib(bytes)                 // what zlib.decompress reads
/// let body = Deflate.gzip(bytes, level: .best)         // a Content-Encoding: gzip body
/// ```
///
/// Compressing cannot fail: every input has an encoding. The PNG writer of `DecantImage` compresses image data with it.
package enum Deflate {
    /// How hard the compressor looks for matches: the trade of speed for size.
    package struct Level: Sendable, Hashable {
        /// The most earlier positions compared when looking for a match at one position (bounds the work per byte).
        package var maxChainLength: Int
        /// A match this long ends the search at once.
        package var niceLength: Int
        /// With lazy matching, a match this long is taken without looking for a longer one at the next position; `0`
        /// takes every match at once (greedy matching).
        package var maxLazyLength: Int
        /// With lazy matching, when the match deferred is at least this long, the next search walks a quarter of the
        /// chain.
        package var goodLength: Int
        /// The level zlib's header (FLEVEL, RFC 1950 §2.2) and gzip's (XFL, RFC 1952 §2.3.1) report: 0 fastest to 3
        /// smallest.
        package var headerLevel: Int

        /// Greedy matching with short chains: the fastest, about zlib's level 1-2.
        package static let fast = Level(
            maxChainLength: 8, niceLength: 32, maxLazyLength: 0, goodLength: 4, headerLevel: 1)
        /// Lazy matching with chains of up to 128 positions: about zlib's default level, 6.
        package static let `default` = Level(
            maxChainLength: 128, niceLength: 128, maxLazyLength: 16, goodLength: 8, headerLevel: 2)
        /// Lazy matching with chains of up to 4,096 positions: about zlib's level 9.
        package static let best = Level(
            maxChainLength: 4096, niceLength: 258, maxLazyLength: 258, goodLength: 32, headerLevel: 3)

        /// A level with the given parameters; each is clamped to what the format allows.
        package init(maxChainLength: Int, niceLength: Int, maxLazyLength: Int, goodLength: Int, headerLevel: Int) {
            self.maxChainLength = max(1, maxChainLength)
            self.niceLength = min(258, max(3, niceLength))
            self.maxLazyLength = min(258, max(0, maxLazyLength))
            self.goodLength = min(258, max(3, goodLength))
            self.headerLevel = min(3, max(0, headerLevel))
        }
    }

    /// The most symbols (literals and matches) in one block: the symbols are buffered until the block is written.
    package static let blockSymbols = 1 << 14

    /// `input` compressed as a zlib stream (RFC 1950): a two-byte header, DEFLATE data, and the Adler-32 of `input`.
    package static func zlib(_ input: [UInt8], level: Level = .default) -> [UInt8] {
        input.withUnsafeBytes { zlib($0, level: level) }
    }

    /// `input` compressed as a zlib stream (RFC 1950); see ``zlib(_:level:)-([UInt8],_)``.
    package static func zlib(_ input: Data, level: Level = .default) -> [UInt8] {
        input.withUnsafeBytes { zlib($0, level: level) }
    }

    /// `input` compressed as a zlib stream (RFC 1950); see ``zlib(_:level:)-([UInt8],_)``.
    package static func zlib(_ input: UnsafeRawBufferPointer, level: Level = .default) -> [UInt8] {
        var writer = BitWriter(capacity: input.count / 2 + 64)
        // CMF: method 8 (deflate), window 2^(7+8) = 32 KiB. FLG: FLEVEL, no dictionary, FCHECK so that the two bytes
        // read big-endian are a multiple of 31.
        let cmf = 0x78
        var flg = level.headerLevel << 6
        flg += (31 - (cmf << 8 | flg) % 31) % 31
        writer.appendBytes([UInt8(cmf), UInt8(flg)])
        compress(input, level: level, into: &writer)
        let adler = Checksum.adler32(input)
        writer.appendBytes([
            UInt8(adler >> 24), UInt8(truncatingIfNeeded: adler >> 16), UInt8(truncatingIfNeeded: adler >> 8),
            UInt8(truncatingIfNeeded: adler),
        ])
        return writer.bytes
    }

    /// `input` compressed as raw DEFLATE data (RFC 1951), with no header and no checksum.
    package static func raw(_ input: [UInt8], level: Level = .default) -> [UInt8] {
        input.withUnsafeBytes { raw($0, level: level) }
    }

    /// `input` compressed as raw DEFLATE data (RFC 1951); see ``raw(_:level:)-([UInt8],_)``.
    package static func raw(_ input: UnsafeRawBufferPointer, level: Level = .default) -> [UInt8] {
        var writer = BitWriter(capacity: input.count / 2 + 64)
        compress(input, level: level, into: &writer)
        return writer.bytes
    }

    /// `input` compressed as a gzip file (RFC 1952) of one member: a 10-byte header (no name, no modification time,
    /// operating system "unknown"), DEFLATE data, and the CRC-32 and length (modulo 2^32) of `input`.
    package static func gzip(_ input: [UInt8], level: Level = .default) -> [UInt8] {
        input.withUnsafeBytes { gzip($0, level: level) }
    }

    /// `input` compressed as a gzip file (RFC 1952); see ``gzip(_:level:)-([UInt8],_)``.
    package static func gzip(_ input: Data, level: Level = .default) -> [UInt8] {
        input.withUnsafeBytes { gzip($0, level: level) }
    }

    /// `input` compressed as a gzip file (RFC 1952); see ``gzip(_:level:)-([UInt8],_)``.
    package static func gzip(_ input: UnsafeRawBufferPointer, level: Level = .default) -> [UInt8] {
        var writer = BitWriter(capacity: input.count / 2 + 64)
        // ID1 ID2, CM 8, FLG 0, MTIME 0 (none), XFL 2 (slowest) or 4 (fastest) or 0, OS 255 (unknown).
        let extraFlags: UInt8 = level.headerLevel == 3 ? 2 : level.headerLevel <= 1 ? 4 : 0
        writer.appendBytes([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, extraFlags, 255])
        compress(input, level: level, into: &writer)
        let crc = Checksum.crc32(input)
        let size = UInt32(truncatingIfNeeded: input.count)
        var trailer = [UInt8]()
        for shift in stride(from: 0, to: 32, by: 8) { trailer.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { trailer.append(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
        writer.appendBytes(trailer)
        return writer.bytes
    }

    /// Writes `input` as DEFLATE blocks, the last marked final, ending on a byte boundary.
    static func compress(_ input: UnsafeRawBufferPointer, level: Level, into writer: inout BitWriter) {
        guard input.count > 0 else {
            // One final block with the fixed codes (§3.2.6) holding only the end of block: symbol 256, seven 0 bits.
            writer.write(1, 1)
            writer.write(1, 2)
            writer.write(0, 7)
            writer.alignToByte()
            return
        }
        var compressor = Compressor(input: input, level: level)
        compressor.run(into: &writer)
        writer.alignToByte()
    }
}
