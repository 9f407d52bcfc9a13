extension Deflate {
    /// Optimal prefix-code lengths for `frequencies` with no code longer than `limit` bits, by the package-merge
    /// algorithm (Larmore and Hirschberg, 1990): O(`limit` × symbols) time.
    ///
    /// Symbols of frequency 0 get no code (length 0). So that every code is complete (zlib's inflater rejects
    /// incomplete ones), a code with fewer than two used symbols gets two codes of one bit: the used symbol's and
    /// that of the first other symbol, which is never written.
    ///
    /// - Precondition: `frequencies.count` ≤ 2^`limit` and at least 2 (the callers' alphabets: 286, 30 and 19
    ///   symbols with limits 15 and 7).
    static func codeLengths(_ frequencies: [Int], limit: Int) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        let used = frequencies.indices.filter { frequencies[$0] > 0 }
        guard used.count >= 2 else {
            let first = used.first ?? 0
            lengths[first] = 1
            lengths[first == 0 ? 1 : 0] = 1
            return lengths
        }
        // Leaves by ascending frequency (ties by symbol, so the result does not depend on the sort's stability).
        let leaves = used.sorted { (frequencies[$0], $0) < (frequencies[$1], $1) }
        let leafWeights = leaves.map { frequencies[$0] }
        // lists[0] is the leaves; lists[k] merges the leaves with the pairs ("packages") of lists[k - 1]. Only each
        // item's weight and whether it is a leaf are kept: leaves appear in every list in the same order.
        var isLeaf: [[Bool]] = [[Bool](repeating: true, count: leaves.count)]
        var weights = leafWeights
        for _ in 1..<limit {
            var merged = [Int]()
            var kinds = [Bool]()
            merged.reserveCapacity(leaves.count + weights.count / 2)
            kinds.reserveCapacity(leaves.count + weights.count / 2)
            var leaf = 0
            var pair = 0
            while leaf < leafWeights.count || pair + 1 < weights.count {
                let package = pair + 1 < weights.count ? weights[pair] + weights[pair + 1] : Int.max
                if leaf < leafWeights.count && leafWeights[leaf] <= package {
                    merged.append(leafWeights[leaf])
                    kinds.append(true)
                    leaf += 1
                } else {
                    merged.append(package)
                    kinds.append(false)
                    pair += 2
                }
            }
            weights = merged
            isLeaf.append(kinds)
        }
        // The first 2n - 2 items of the last list form the code: a leaf's length is how many times it is in them,
        // counting the leaves inside the packages taken, level by level.
        var taken = 2 * leaves.count - 2
        for kinds in isLeaf.reversed() {
            var leafCount = 0
            for index in 0..<taken where kinds[index] { leafCount += 1 }
            for index in 0..<leafCount { lengths[leaves[index]] += 1 }
            taken = 2 * (taken - leafCount)
        }
        return lengths
    }

    /// The canonical codes of `lengths` (RFC 1951 §3.2.2), each bit-reversed so that it can be written LSB first.
    static func canonicalCodes(_ lengths: [UInt8]) -> [UInt32] {
        var lengthCounts = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { lengthCounts[Int(length)] += 1 }
        var nextCode = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + lengthCounts[bits - 1]) << 1
            nextCode[bits] = code
        }
        var codes = [UInt32](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            codes[symbol] = reversed(UInt32(nextCode[Int(length)]), Int(length))
            nextCode[Int(length)] += 1
        }
        return codes
    }

    /// The low `length` bits of `code` in reverse order: Huffman codes are packed most significant bit first
    /// (§3.1.1), everything else least significant bit first.
    static func reversed(_ code: UInt32, _ length: Int) -> UInt32 {
        var result: UInt32 = 0
        var rest = code
        for _ in 0..<length {
            result = result << 1 | rest & 1
            rest >>= 1
        }
        return result
    }
}
