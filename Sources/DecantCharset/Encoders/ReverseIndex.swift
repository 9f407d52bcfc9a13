import DecantCore

/// An index read backwards: code point to pointer (WHATWG Encoding §5, "index pointer"), built once from the index
/// table the decoder uses.
///
/// Code points of the Basic Multilingual Plane are found in two steps (their high byte selects a block of 256
/// entries, their low byte the entry), others by binary search, so a lookup is O(1) or O(log n). Only blocks that
/// hold a code point are stored: about 70 KB for the largest index.
struct ReverseIndex: Sendable {
    /// For each block of 256 BMP code points, where its entries start in ``entries``, or -1 when it has none.
    private let blockStarts: [Int32]
    /// Pointer + 1 for each code point of the stored blocks; 0 where the index has none.
    private let entries: [UInt16]
    /// The code points above U+FFFF that the index holds, increasing.
    private let supplementaryCodePoints: [UInt32]
    /// The pointer of each of ``supplementaryCodePoints``.
    private let supplementaryPointers: [UInt16]

    /// Builds the reverse of `index` (pointer to code point, 0 where there is none).
    ///
    /// - Parameters:
    ///   - index: The index, as the decoders hold it. Pointers must be below 65535 (every WHATWG index's are).
    ///   - excluded: Pointers to leave out (Big5 leaves out the Hong Kong extensions, Shift_JIS a block of
    ///     duplicates).
    ///   - lastPointerFor: Code points for which the last pointer wins; for all others the first one does (the
    ///     standard's "index pointer").
    init<Element: FixedWidthInteger & UnsignedInteger>(
        _ index: [Element], excluding excluded: (Int) -> Bool = { _ in false }, lastPointerFor: Set<UInt32> = []
    ) {
        var bmp = [UInt16](repeating: 0, count: 0x10000)
        var supplementary: [UInt32: UInt16] = [:]
        for pointer in index.indices where pointer < 0xFFFF && !excluded(pointer) {
            let codePoint = UInt32(truncatingIfNeeded: index[pointer])
            guard codePoint != 0 else { continue }
            let stored = UInt16(pointer + 1)
            if codePoint < 0x10000 {
                if bmp[Int(codePoint)] == 0 || lastPointerFor.contains(codePoint) { bmp[Int(codePoint)] = stored }
            } else if supplementary[codePoint] == nil || lastPointerFor.contains(codePoint) {
                supplementary[codePoint] = stored
            }
        }
        var blockStarts = [Int32](repeating: -1, count: 256)
        var entries: [UInt16] = []
        for block in 0..<256 {
            let slice = bmp[(block << 8)..<((block + 1) << 8)]
            guard slice.contains(where: { $0 != 0 }) else { continue }
            blockStarts[block] = Int32(entries.count)
            entries.append(contentsOf: slice)
        }
        self.blockStarts = blockStarts
        self.entries = entries
        let sorted = supplementary.sorted { $0.key < $1.key }
        supplementaryCodePoints = sorted.map(\.key)
        supplementaryPointers = sorted.map { $0.value - 1 }
    }

    /// The pointer for `codePoint`, or `nil` when the index has none.
    @inline(__always)
    func pointer(for codePoint: UInt32) -> Int? {
        if codePoint < 0x10000 {
            let start = blockStarts[Int(codePoint >> 8)]
            guard start >= 0 else { return nil }
            let entry = entries[Int(start) + Int(codePoint & 0xFF)]
            return entry == 0 ? nil : Int(entry) - 1
        }
        var low = 0
        var high = supplementaryCodePoints.count
        while low < high {
            let middle = (low + high) / 2
            let value = supplementaryCodePoints[middle]
            if value == codePoint { return Int(supplementaryPointers[middle]) }
            if value < codePoint { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}

/// The reverse indexes of the multi-byte encoders, each built on first use (a `static let`: lazy, once, thread-safe).
enum ReverseIndexes {
    /// Index gb18030, for gb18030 and GBK.
    static let gb18030 = ReverseIndex(EncodingTables.gb18030)

    /// The standard's "index Big5 pointer": index Big5 without the pointers below (0xA1 - 0x81) × 157 (the Hong Kong
    /// extensions, never written), where the last pointer wins for U+2550, U+255E, U+2561, U+256A, U+5341 and U+5345.
    static let big5 = ReverseIndex(
        EncodingTables.big5, excluding: { $0 < (0xA1 - 0x81) * 157 },
        lastPointerFor: [0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345])

    /// Index jis0208, for EUC-JP and ISO-2022-JP.
    static let jis0208 = ReverseIndex(EncodingTables.jis0208)

    /// The standard's "index Shift_JIS pointer": index jis0208 without pointers 8272 to 8835 (duplicates of the IBM
    /// extensions that Shift_JIS writes at their other pointers).
    static let shiftJIS = ReverseIndex(EncodingTables.jis0208, excluding: { (8272...8835).contains($0) })

    /// Index EUC-KR.
    static let eucKR = ReverseIndex(EncodingTables.eucKR)
}
