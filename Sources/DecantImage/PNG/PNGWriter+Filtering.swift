extension PNGWriter {
    /// The filtered scanlines (§7.3): each row a filter-type byte and the row's bytes. With `adaptive`, each row is
    /// filtered by the type whose output has the smallest sum of absolute values as signed bytes (the heuristic §12.8
    /// recommends), else by None.
    static func filterRows(_ samples: [UInt8], width: Int, height: Int, channels: Int, adaptive: Bool) -> [UInt8] {
        let rowBytes = width * channels
        let size = height * (rowBytes + 1)
        return [UInt8](unsafeUninitializedCapacity: size) { output, initialized in
            let zeros = [UInt8](repeating: 0, count: rowBytes)
            // One scratch row per filter other than None.
            var scratch = [UInt8](repeating: 0, count: 4 * rowBytes)
            samples.withUnsafeBufferPointer { samples in
                zeros.withUnsafeBufferPointer { zeros in
                    scratch.withUnsafeMutableBufferPointer { scratch in
                        let rows = samples.baseAddress!
                        let candidates = scratch.baseAddress!
                        for y in 0..<height {
                            let row = rows + y * rowBytes
                            let above = y > 0 ? row - rowBytes : zeros.baseAddress!
                            let target = output.baseAddress! + y * (rowBytes + 1)
                            var best = 0
                            if adaptive {
                                var bestCost = cost(UnsafeBufferPointer(start: row, count: rowBytes))
                                for type in 1...4 {
                                    let candidate = candidates + (type - 1) * rowBytes
                                    filter(type: type, row, above, count: rowBytes, channels: channels, into: candidate)
                                    let typeCost = cost(UnsafeBufferPointer(start: candidate, count: rowBytes))
                                    if typeCost < bestCost {
                                        best = type
                                        bestCost = typeCost
                                    }
                                }
                            }
                            target[0] = UInt8(best)
                            let chosen = best == 0 ? row : UnsafePointer(candidates + (best - 1) * rowBytes)
                            (target + 1).update(from: chosen, count: rowBytes)
                        }
                    }
                }
            }
            initialized = size
        }
    }

    /// The sum of `bytes`' absolute values as signed bytes.
    static func cost(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var sum = 0
        for byte in bytes { sum += byte < 128 ? Int(byte) : 256 - Int(byte) }
        return sum
    }

    /// Filters `row` with filter `type` (§9.2: 1 Sub, 2 Up, 3 Average, 4 Paeth) into `output`.
    static func filter(
        type: Int, _ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, count: Int, channels: Int,
        into output: UnsafeMutablePointer<UInt8>
    ) {
        for index in 0..<count {
            let left = index >= channels ? Int(row[index - channels]) : 0
            let up = Int(above[index])
            let predictor: Int
            switch type {
            case 1: predictor = left
            case 2: predictor = up
            case 3: predictor = (left + up) / 2
            default: predictor = paeth(left, up, index >= channels ? Int(above[index - channels]) : 0)
            }
            output[index] = UInt8(truncatingIfNeeded: Int(row[index]) - predictor)
        }
    }

    /// The Paeth predictor (§9.4): whichever of left, above and upper-left is closest to left + above - upper-left.
    @inline(__always)
    static func paeth(_ left: Int, _ up: Int, _ upLeft: Int) -> Int {
        let estimate = left + up - upLeft
        let toLeft = abs(estimate - left)
        let toUp = abs(estimate - up)
        let toUpLeft = abs(estimate - upLeft)
        if toLeft <= toUp && toLeft <= toUpLeft { return left }
        return toUp <= toUpLeft ? up : upLeft
    }
}
